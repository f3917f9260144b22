/**
 * Sessions: create, list (organization and enterprise), get, messages, archive, terminate, tags and insights
 * (spec: "Sessions and related operations", "Further operations", "States and transitions → Session status";
 * record shapes, filters and limits from the vendor reference in api-facts).
 *
 * Permissions the spec leaves "not shown" are chosen in its pattern: reading is `ViewOrgSessions`, starting
 * and talking to a session is `UseAgentSessions`, changing a session (archive, terminate, tags, insights) is
 * `ManageOrgSessions` (the permission the spec names for insights generation); the enterprise-wide reads are
 * `ViewAccountSessions` and the enterprise-wide message is `ManageAccountSessions`. The viewer role holds only
 * the `View*` ones, so it cannot create, message, archive or terminate.
 */
import { z } from 'zod';
import {
  After,
  First,
  PageQuery,
  QueryBoolean,
  queryArray,
  queryInt,
  OrgId,
  requiredText,
  UnixSeconds,
} from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { SESSION_ORIGINS } from '../values';

/** Status values the console knows (api-facts). The API may send others: they are shown as they are. */
export const SESSION_STATUSES = [
  'new',
  'creating',
  'claimed',
  'running',
  'resuming',
  'suspended',
  'exit',
  'error',
] as const;
export type KnownSessionStatus = (typeof SESSION_STATUSES)[number];

/** Polling clients stop on these (spec: "treated as terminal by polling clients"). */
export const TERMINAL_SESSION_STATUSES: readonly string[] = ['exit', 'error', 'suspended'];
export function isTerminalStatus(status: string): boolean {
  return TERMINAL_SESSION_STATUSES.includes(status);
}

/** `status_detail` while running, and the reasons of a suspension (api-facts). */
export const RUNNING_STATUS_DETAILS = ['working', 'waiting_for_user', 'waiting_for_approval', 'finished'] as const;
export const SUSPENDED_STATUS_DETAILS = [
  'inactivity',
  'user_request',
  'usage_limit_exceeded',
  'out_of_credits',
  'out_of_quota',
  'no_quota_allocation',
  'payment_declined',
  'org_usage_limit_exceeded',
  'total_session_limit_exceeded',
  'error',
] as const;

export { SESSION_ORIGINS, type SessionOrigin } from '../values';

export const AGENT_MODES = ['normal', 'fast', 'lite'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

export const PR_STATES = ['open', 'closed', 'merged'] as const;

export const INSIGHT_SESSION_SIZES = ['xs', 's', 'm', 'l', 'xl'] as const;

import { SESSION_LIMITS } from '../values';

export { SESSION_LIMITS };

const fmt = (n: number) => n.toLocaleString('en-US');

// ---------------------------------------------------------------- records

export const PullRequest = z.looseObject({
  pr_url: z.string(),
  pr_state: z.string().nullish(),
});
export type PullRequest = z.infer<typeof PullRequest>;

export const Session = z.looseObject({
  session_id: z.string(),
  url: z.string(),
  /** Any string: unknown values are shown as they are. */
  status: z.string(),
  status_detail: z.string().nullish(),
  org_id: z.string(),
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
  tags: z.array(z.string()).default([]),
  acus_consumed: z.number().default(0),
  pull_requests: z.array(PullRequest).default([]),
  is_archived: z.boolean().default(false),
  is_advanced: z.boolean().nullish(),
  title: z.string().nullish(),
  /** Sandbox extension (not in the vendor record): the prompt the session was created with. */
  prompt: z.string().nullish(),
  user_id: z.string().nullish(),
  service_user_id: z.string().nullish(),
  playbook_id: z.string().nullish(),
  parent_session_id: z.string().nullish(),
  child_session_ids: z.array(z.string()).nullish(),
  structured_output: z.record(z.string(), z.unknown()).nullish(),
  origin: z.string().nullish(),
  category: z.string().nullish(),
  /** The files the session was created with (`attachment_urls` of the create body): attachment URLs. */
  attachment_urls: z.array(z.string()).nullish(),
});
export type Session = z.infer<typeof Session>;

export const SessionMessage = z.looseObject({
  event_id: z.string(),
  message: z.string(),
  /** `agent` or `user`; others shown as they are. */
  source: z.string(),
  created_at: UnixSeconds,
});
export type SessionMessage = z.infer<typeof SessionMessage>;

export const SessionTags = z.looseObject({ tags: z.array(z.string()) });

export const InsightsAnalysis = z.looseObject({
  classification: z.looseObject({ category: z.string(), summary: z.string().nullish() }).nullish(),
  action_items: z.array(z.string()).nullish(),
  issues: z
    .array(z.looseObject({ title: z.string(), severity: z.string().nullish(), detail: z.string().nullish() }))
    .nullish(),
  suggested_prompt: z.string().nullish(),
  timeline: z
    .array(z.looseObject({ at: UnixSeconds.nullish(), title: z.string(), detail: z.string().nullish() }))
    .nullish(),
});
export type InsightsAnalysis = z.infer<typeof InsightsAnalysis>;

export const SessionInsights = Session.extend({
  num_agent_messages: z.number().int(),
  num_user_messages: z.number().int(),
  session_size: z.string().nullish(),
  /** Null until generated. */
  analysis: InsightsAnalysis.nullable(),
  /** Sandbox extension: `not_requested`, `in_progress` or `completed`, so a reload still shows "generating". */
  analysis_status: z.string().nullish(),
});
export type SessionInsights = z.infer<typeof SessionInsights>;

export const GenerateInsightsResult = z.looseObject({
  session_id: z.string(),
  /** `started`, or `already_exists` when insights exist or are in progress. */
  status: z.string(),
});

// ---------------------------------------------------------------- requests

const idString = (name: string) =>
  z
    .string({ message: `${name} must be a string` })
    .min(1, `${name} must not be empty`)
    .max(SESSION_LIMITS.id, `${name} is at most ${SESSION_LIMITS.id} characters`);

/** One tag: 1–64 characters, no comma (array filters are comma-joined, so a comma would split it). */
export const Tag = z
  .string({ message: 'a tag must be a string' })
  .max(SESSION_LIMITS.tag, `a tag is at most ${SESSION_LIMITS.tag} characters`)
  .refine((s) => s.trim().length > 0, { message: 'a tag must not be empty' })
  .refine((s) => !s.includes(','), { message: 'a tag cannot contain a comma' })
  .transform((s) => s.trim());

export const TagList = z
  .array(Tag, { message: 'tags must be a list of strings' })
  .max(SESSION_LIMITS.tags, `at most ${SESSION_LIMITS.tags} tags per session`);

export const SessionSecret = z.strictObject({
  key: z
    .string({ message: 'key is required' })
    .min(1, 'key must be 1 to 256 characters')
    .max(SESSION_LIMITS.secretKey, `key must be 1 to ${SESSION_LIMITS.secretKey} characters`),
  value: z
    .string({ message: 'value is required' })
    .max(SESSION_LIMITS.secretValue, `value is at most ${fmt(SESSION_LIMITS.secretValue)} characters`),
  /** Sensitive by default: the value is never shown again. */
  sensitive: z.boolean({ message: 'sensitive must be true or false' }).default(true),
});

const stringList = (name: string, max: number, itemMax: number = SESSION_LIMITS.id) =>
  z
    .array(
      z
        .string({ message: `${name} items must be strings` })
        .min(1, `${name} items must not be empty`)
        .max(itemMax, `${name} items are at most ${fmt(itemMax)} characters`),
      { message: `${name} must be a list of strings` },
    )
    .max(max, `at most ${max} ${name}`);

/**
 * Create body. The spec's fields (`prompt`, `agent_mode`, `session_secrets`, `create_as_user_id`,
 * `child_playbook_id`, `session_links`, `bypass_approval`) and the vendor reference's (`title`, `tags`,
 * `playbook_id`, `knowledge_ids`, `secret_ids`, `repos`, `attachment_urls`, `max_acu_limit`,
 * `structured_output_schema`, `resumable`). `session_links` (type not shown) are taken as links (URLs) to
 * related sessions or pages, given to the agent as context.
 */
export const CreateSessionBody = z.strictObject({
  prompt: requiredText('prompt', SESSION_LIMITS.prompt, 'say what the agent should do'),
  agent_mode: z
    .enum(AGENT_MODES, { message: 'agent_mode must be normal, fast or lite (omit it for the organization default)' })
    .nullish(),
  title: z
    .string({ message: 'title must be a string' })
    .max(SESSION_LIMITS.title, `title is at most ${SESSION_LIMITS.title} characters`)
    .nullish(),
  tags: TagList.nullish(),
  playbook_id: idString('playbook_id').nullish(),
  child_playbook_id: idString('child_playbook_id').nullish(),
  session_secrets: z
    .array(SessionSecret, { message: 'session_secrets must be a list of {key, value, sensitive}' })
    .max(SESSION_LIMITS.secrets, `at most ${SESSION_LIMITS.secrets} session secrets`)
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((s, i) => {
        if (seen.has(s.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `key ${s.key} is given twice` });
        seen.add(s.key);
      });
    })
    .nullish(),
  create_as_user_id: idString('create_as_user_id').nullish(),
  session_links: stringList('session_links', SESSION_LIMITS.sessionLinks, SESSION_LIMITS.sessionLink).nullish(),
  bypass_approval: z.boolean({ message: 'bypass_approval must be true or false' }).nullish(),
  knowledge_ids: stringList('knowledge_ids', SESSION_LIMITS.idList).nullish(),
  secret_ids: stringList('secret_ids', SESSION_LIMITS.idList).nullish(),
  repos: z
    .array(z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'repos items are written owner/name'), {
      message: 'repos must be a list of owner/name',
    })
    .max(SESSION_LIMITS.idList, `at most ${SESSION_LIMITS.idList} repos`)
    .nullish(),
  attachment_urls: stringList('attachment_urls', SESSION_LIMITS.idList, SESSION_LIMITS.sessionLink).nullish(),
  max_acu_limit: z
    .number({ message: 'max_acu_limit must be a number' })
    .int('max_acu_limit must be a whole number')
    .positive('max_acu_limit must be positive')
    .nullish(),
  structured_output_schema: z
    .record(z.string(), z.unknown(), { message: 'structured_output_schema must be a JSON object' })
    .nullish(),
  resumable: z.boolean({ message: 'resumable must be true or false' }).default(true),
});
export type CreateSessionBody = z.input<typeof CreateSessionBody>;

export const SendMessageBody = z.strictObject({
  message: requiredText('message', SESSION_LIMITS.message, 'write the message to the agent'),
});
export type SendMessageBody = z.input<typeof SendMessageBody>;

export const TagsBody = z.strictObject({ tags: TagList });
export type TagsBody = z.input<typeof TagsBody>;

const unixQuery = (name: string) => queryInt({ min: 0, name }).optional();

/**
 * Organization list filters (api-facts), plus `status` — a sandbox extension the API does not document: the
 * console also filters the loaded rows by status, so the filter holds against an upstream that ignores it.
 * Array filters accept repeated keys and comma-joined values. `tags`, `user_ids`, `service_user_ids`,
 * `repo_names` match sessions carrying any of the given values.
 */
export const SessionListQuery = z.object({
  first: First,
  after: After,
  origins: queryArray(z.enum(SESSION_ORIGINS, { message: `origins values are ${SESSION_ORIGINS.join(', ')}` })),
  session_ids: queryArray(z.string().max(SESSION_LIMITS.id), {
    count: SESSION_LIMITS.sessionIdsFilter,
    what: 'session_ids per request',
  }),
  created_after: unixQuery('created_after'),
  created_before: unixQuery('created_before'),
  updated_after: unixQuery('updated_after'),
  updated_before: unixQuery('updated_before'),
  tags: queryArray(z.string().max(SESSION_LIMITS.tag)),
  playbook_id: z.string().max(SESSION_LIMITS.id).optional(),
  user_ids: queryArray(z.string().max(SESSION_LIMITS.id)),
  service_user_ids: queryArray(z.string().max(SESSION_LIMITS.id)),
  repo_names: queryArray(z.string().max(SESSION_LIMITS.id)),
  is_archived: QueryBoolean.optional(),
  status: queryArray(z.string().min(1).max(SESSION_LIMITS.status)),
});
export type SessionListQuery = z.input<typeof SessionListQuery>;

export const EnterpriseSessionListQuery = SessionListQuery.extend({
  org_ids: queryArray(z.string().max(SESSION_LIMITS.id)),
});
export type EnterpriseSessionListQuery = z.input<typeof EnterpriseSessionListQuery>;

export const TerminateQuery = z.object({ archive: QueryBoolean.optional() });

// ---------------------------------------------------------------- operations

/** `{agent_id}` is the spec's name for a session id; any non-empty string (unknown ones answer 404). */
const AgentId = z.string().min(1);
const OrgParams = z.object({ org_id: OrgId });
const OrgSessionParams = z.object({ org_id: OrgId, agent_id: AgentId });
const EnterpriseSessionParams = z.object({ agent_id: AgentId });

const ORG = '/v3/organizations/{org_id}/sessions';
const ENT = '/v3/enterprise/sessions';
const VIEW_NOTE = 'Permission not shown in the spec; ViewOrgSessions chosen (reading sessions).';
const MANAGE_NOTE = 'Permission not shown in the spec; ManageOrgSessions chosen (changing a session, as for insights).';

export const sessionOperations = defineOperations({
  'sessions.create': {
    id: 'sessions.create',
    method: 'POST',
    path: ORG,
    permission: 'UseAgentSessions',
    scope: 'organization',
    summary: 'Create a session; it is attributed to the caller (or to create_as_user_id)',
    params: OrgParams,
    body: CreateSessionBody,
    response: Session,
    note: 'Permission not shown in the spec; UseAgentSessions chosen (as for attachments, which sessions use).',
  },
  'sessions.list': {
    id: 'sessions.list',
    method: 'GET',
    path: ORG,
    permission: 'ViewOrgSessions',
    scope: 'organization',
    summary: "List an organization's sessions, newest first, with filters",
    params: OrgParams,
    query: SessionListQuery,
    response: pageOf(Session),
    paginated: true,
    note: `${VIEW_NOTE} The status filter is a sandbox extension.`,
  },
  'sessions.get': {
    id: 'sessions.get',
    method: 'GET',
    path: `${ORG}/{agent_id}`,
    permission: 'ViewOrgSessions',
    scope: 'organization',
    summary: 'Get one session with its status',
    params: OrgSessionParams,
    response: Session,
    note: VIEW_NOTE,
  },
  'sessions.terminate': {
    id: 'sessions.terminate',
    method: 'DELETE',
    path: `${ORG}/{agent_id}`,
    permission: 'ManageOrgSessions',
    scope: 'organization',
    summary: 'Terminate a session; with archive=true it is archived too',
    params: OrgSessionParams,
    query: TerminateQuery,
    response: Session,
    note: MANAGE_NOTE,
  },
  'sessions.messages.list': {
    id: 'sessions.messages.list',
    method: 'GET',
    path: `${ORG}/{agent_id}/messages`,
    permission: 'ViewOrgSessions',
    scope: 'organization',
    summary: "A session's message thread, oldest first",
    params: OrgSessionParams,
    query: PageQuery,
    response: pageOf(SessionMessage),
    paginated: true,
    note: VIEW_NOTE,
  },
  'sessions.messages.send': {
    id: 'sessions.messages.send',
    method: 'POST',
    path: `${ORG}/{agent_id}/messages`,
    permission: 'UseAgentSessions',
    scope: 'organization',
    summary: 'Send a message to a session; a suspended (or ended) session resumes',
    params: OrgSessionParams,
    body: SendMessageBody,
    response: Session,
    note: 'Permission not shown in the spec; UseAgentSessions chosen. Answers with the session (api-facts).',
  },
  'sessions.archive': {
    id: 'sessions.archive',
    method: 'POST',
    path: `${ORG}/{agent_id}/archive`,
    permission: 'ManageOrgSessions',
    scope: 'organization',
    summary: 'Archive a session (is_archived becomes true)',
    params: OrgSessionParams,
    response: Session,
    note: MANAGE_NOTE,
  },
  'sessions.tags.get': {
    id: 'sessions.tags.get',
    method: 'GET',
    path: `${ORG}/{agent_id}/tags`,
    permission: 'ViewOrgSessions',
    scope: 'organization',
    summary: "A session's tags",
    params: OrgSessionParams,
    response: SessionTags,
    note: VIEW_NOTE,
  },
  'sessions.tags.append': {
    id: 'sessions.tags.append',
    method: 'POST',
    path: `${ORG}/{agent_id}/tags`,
    permission: 'ManageOrgSessions',
    scope: 'organization',
    summary: 'Add tags to a session (ones it has are kept once)',
    params: OrgSessionParams,
    body: TagsBody,
    response: SessionTags,
    note: MANAGE_NOTE,
  },
  'sessions.tags.replace': {
    id: 'sessions.tags.replace',
    method: 'PUT',
    path: `${ORG}/{agent_id}/tags`,
    permission: 'ManageOrgSessions',
    scope: 'organization',
    summary: "Replace a session's tags",
    params: OrgSessionParams,
    body: TagsBody,
    response: SessionTags,
    note: MANAGE_NOTE,
  },
  'sessions.insights.get': {
    id: 'sessions.insights.get',
    method: 'GET',
    path: `${ORG}/{agent_id}/insights`,
    permission: 'ViewOrgSessions',
    scope: 'organization',
    summary: 'The session with message counts, size and analysis (null until generated)',
    params: OrgSessionParams,
    response: SessionInsights,
    note: `${VIEW_NOTE} analysis_status is a sandbox extension.`,
  },
  'sessions.insights.generate': {
    id: 'sessions.insights.generate',
    method: 'POST',
    path: `${ORG}/{agent_id}/insights/generate`,
    permission: 'ManageOrgSessions',
    scope: 'organization',
    summary: 'Start generating insights: status started, or already_exists when they exist or are in progress',
    params: OrgSessionParams,
    response: GenerateInsightsResult,
  },
  'sessions.enterprise.list': {
    id: 'sessions.enterprise.list',
    method: 'GET',
    path: ENT,
    permission: 'ViewAccountSessions',
    scope: 'enterprise',
    summary: 'List sessions across organizations, newest first (org_ids filter)',
    query: EnterpriseSessionListQuery,
    response: pageOf(Session),
    paginated: true,
    note: 'Permission not shown in the spec; ViewAccountSessions chosen. The status filter is a sandbox extension.',
  },
  'sessions.enterprise.get': {
    id: 'sessions.enterprise.get',
    method: 'GET',
    path: `${ENT}/{agent_id}`,
    permission: 'ViewAccountSessions',
    scope: 'enterprise',
    summary: 'Get one session of any organization',
    params: EnterpriseSessionParams,
    response: Session,
    note: 'Permission not shown in the spec; ViewAccountSessions chosen.',
  },
  'sessions.enterprise.messages.send': {
    id: 'sessions.enterprise.messages.send',
    method: 'POST',
    path: `${ENT}/{agent_id}/messages`,
    permission: 'ManageAccountSessions',
    scope: 'enterprise',
    summary: 'Send a message to a session of any organization; a suspended session resumes',
    params: EnterpriseSessionParams,
    body: SendMessageBody,
    response: Session,
    note: 'Permission not shown in the spec; ManageAccountSessions chosen.',
  },
  'sessions.enterprise.insights.generate': {
    id: 'sessions.enterprise.insights.generate',
    method: 'POST',
    path: `${ENT}/{agent_id}/insights/generate`,
    permission: 'ManageOrgSessions',
    scope: 'enterprise',
    summary: 'Start generating insights for a session of any organization',
    params: EnterpriseSessionParams,
    response: GenerateInsightsResult,
  },
});
