/**
 * Schedules: sessions that start on a schedule. The spec lists the paths and the permission
 * (`ManageOrgSchedules`); the record and the bodies come from the vendor reference (ScheduleResponse,
 * ScheduleCreateRequest, ScheduleUpdateRequest).
 *
 * Two things differ from the rest of the API, as the vendor's service does:
 * - **Timestamps are ISO 8601 strings** (`created_at`, `updated_at`, `scheduled_at`, `last_executed_at`,
 *   `last_error_at`, and the sandbox's `next_run_at`), not Unix seconds. Screens show them like every other
 *   time (local, with UTC on hover) after `Date.parse`.
 * - The list pages with `first`/`after` and the page envelope, as the spec's rule 3 says; the sandbox also
 *   accepts the vendor reference's `limit`/`offset` (one style per request).
 *
 * `frequency` is a five-field cron expression evaluated in UTC (minute hour day-of-month month day-of-week).
 * A `recurring` schedule needs one; a `one_time` schedule needs `scheduled_at` in the future instead, runs once
 * and then disables itself.
 *
 * The vendor's create request has no `enabled` (a schedule is created enabled): the console creates without it
 * and, for a disabled schedule, disables it at once with an update. The sandbox still accepts `enabled` on create
 * for older clients. The vendor's other fields (`agent`, `interval_count`, `platform`, `slack_*`,
 * `create_as_user_id`, `target_devin_id`, and `run_as_user_id` on update) are accepted and answered.
 *
 * A schedule acts in a principal's name, so a principal that is revoked stops it: see `SCHEDULE_RUNS_AS` and
 * `SCHEDULE_CAPS`.
 */
import { z } from 'zod';
import { cronProblem, CRON_MAX_LENGTH } from '../cron';
import { After, First, OrgId, queryInt, requiredText } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { SESSION_LIMITS, TagList } from './sessions';

export const SCHEDULE_TYPES = ['recurring', 'one_time'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** Who hears about a run (vendor reference; default `failure`). */
export const NOTIFY_ON = ['always', 'failure', 'never'] as const;
export type NotifyOn = (typeof NOTIFY_ON)[number];

/**
 * Which agent a schedule's sessions use. `agent` is the spec's word for the vendor's `devin` (requests may say
 * either; answers say `agent`, and the vendor-shaped sandbox `devin`).
 */
export const SCHEDULE_AGENTS = ['agent', 'data_analyst'] as const;
export type ScheduleAgent = (typeof SCHEDULE_AGENTS)[number];

/**
 * Bounds that keep one organization's schedules from flooding it (sandbox; the console states them):
 * - `perOrganization`: schedules an organization may have (deleted ones do not count). Creating one more answers
 *   409 with a problem saying so.
 * - `sessionsPerHour`: sessions one schedule may start in any sliding hour. A run beyond it starts nothing and is
 *   recorded as `start_failed` with the reason (a cron runs at most once a minute, so this bounds a one-time
 *   schedule re-armed again and again, or a clock that jumps).
 */
export const SCHEDULE_CAPS = { perOrganization: 100, sessionsPerHour: 60 } as const;

/**
 * The permissions a schedule's principals must still hold in its organization for it to run (sandbox): its
 * creator (a service user) both, as creating it needed `ManageOrgSchedules` and each run starts a session in its
 * name (`UseAgentSessions`); a run-as user (`run_as_user_id`, else `create_as_user_id`) `UseAgentSessions`.
 * A creator or run-as principal that is deleted, expired or no longer holds these pauses the schedule
 * (`enabled: false`, `paused_reason` says why) instead of running it: nothing runs in a revoked name.
 */
export const SCHEDULE_RUNS_AS = {
  creator: ['ManageOrgSchedules', 'UseAgentSessions'],
  runAs: ['UseAgentSessions'],
} as const;

/** How a run the sandbox started ended (sandbox extension, `schedules.runs.list`). */
export const SCHEDULE_RUN_OUTCOMES = ['running', 'success', 'failure', 'suspended', 'start_failed'] as const;

/** Limits: the prompt's is the session's; the others are the console's own, so nothing unbounded is accepted. */
export const SCHEDULE_LIMITS = {
  name: 200,
  prompt: SESSION_LIMITS.prompt,
  frequency: CRON_MAX_LENGTH,
  tags: SESSION_LIMITS.tags,
  playbookId: 200,
  /** User, service user and agent ids (`create_as_user_id`, `run_as_user_id`, `target_devin_id`). */
  id: 200,
  platform: 64,
  slackId: 64,
  /** `interval_count` (vendor field; default 1): stored and answered; the sandbox's runs follow `frequency`. */
  intervalCount: 1_000,
  /** Largest `offset` of the vendor-style list. */
  offset: 1_000_000,
} as const;

const fmt = (n: number) => n.toLocaleString('en-US');

/** An ISO 8601 date-time string, as schedules carry their times. */
export const IsoDateTime = z.string().meta({ format: 'date-time' });

export const SchedulePlaybook = z.looseObject({
  playbook_id: z.string(),
  /** Null when the playbook no longer exists. */
  title: z.string().nullable(),
});

export const Schedule = z.looseObject({
  scheduled_session_id: z.string(),
  org_id: z.string(),
  name: z.string(),
  prompt: z.string(),
  playbook: SchedulePlaybook.nullish(),
  /** Five-field cron in UTC; null for a one-time schedule. */
  frequency: z.string().nullish(),
  schedule_type: z.enum(SCHEDULE_TYPES).default('recurring'),
  /** One-time schedules: when it runs (ISO 8601). */
  scheduled_at: IsoDateTime.nullish(),
  enabled: z.boolean(),
  notify_on: z.string(),
  consecutive_failures: z.number().int(),
  tags: z.array(z.string()).nullish(),
  bypass_approval: z.boolean().nullish(),
  /** `agent` (the vendor's `devin`) or `data_analyst`; an upstream may answer its own word. */
  agent: z.string().nullish(),
  interval_count: z.number().int().nullish(),
  platform: z.string().nullish(),
  slack_channel_id: z.string().nullish(),
  slack_team_id: z.string().nullish(),
  target_devin_id: z.string().nullish(),
  created_by: z.string().nullish(),
  last_edited_by: z.string().nullish(),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  last_executed_at: IsoDateTime.nullish(),
  last_error_at: IsoDateTime.nullish(),
  last_error_message: z.string().nullish(),
  /** Sandbox extension: the next time it runs (ISO 8601), null when disabled or done. */
  next_run_at: IsoDateTime.nullish(),
  /** Sandbox extension: the session its latest run started. */
  last_session_id: z.string().nullish(),
  /** Sandbox extension: the user sessions are attributed to at creation (`create_as_user_id`). */
  create_as_user_id: z.string().nullish(),
  /** Sandbox extension: the user (or service user) its runs act as (`run_as_user_id`). */
  run_as_user_id: z.string().nullish(),
  /**
   * Sandbox extension: why the service paused it (a revoked creator or run-as principal); null when it was not
   * paused, or once it is enabled again.
   */
  paused_reason: z.string().nullish(),
  /** Sandbox extension: when it was paused (ISO 8601). */
  paused_at: IsoDateTime.nullish(),
});
export type Schedule = z.infer<typeof Schedule>;

/** One run of a schedule (sandbox extension). */
export const ScheduleRun = z.looseObject({
  run_id: z.string(),
  scheduled_session_id: z.string(),
  /** Null when the session could not be started. */
  session_id: z.string().nullable(),
  started_at: IsoDateTime,
  /** `running`, `success`, `failure`, `suspended` or `start_failed`. */
  outcome: z.string(),
  settled_at: IsoDateTime.nullish(),
  error_message: z.string().nullish(),
});
export type ScheduleRun = z.infer<typeof ScheduleRun>;

// ---------------------------------------------------------------- requests

const Name = requiredText('name', SCHEDULE_LIMITS.name, 'give the schedule a short name');
const Prompt = requiredText('prompt', SCHEDULE_LIMITS.prompt, 'say what the agent should do on each run');

/** A five-field cron expression; the message names the field and the value that are wrong. */
export const Frequency = z
  .string({ message: 'frequency must be a five-field cron expression' })
  .superRefine((s, ctx) => {
    const problem = cronProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((s) => s.trim().split(/\s+/).join(' '));

/** What each kind of schedule needs, as the contract and the sandbox say it. */
export const SCHEDULE_MESSAGES = {
  frequencyRequired:
    'Frequency is required for a recurring schedule: a five-field cron expression in UTC, e.g. 0 9 * * 1-5',
  runAtRequired: 'Run at is required for a one-time schedule: when it should run',
} as const;

/** Why a one-time schedule's time is refused: it has passed (the sandbox has the clock; the form says it alike). */
export const scheduledAtPastMessage = (nowIso: string) => `Run at must be in the future (it is now ${nowIso})`;

export const ScheduledAt = z.iso.datetime({
  offset: true,
  message: 'scheduled_at must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T09:00:00Z',
});

const ScheduleTypeField = z.enum(SCHEDULE_TYPES, { message: 'schedule_type must be recurring or one_time' });
const NotifyOnField = z.enum(NOTIFY_ON, { message: 'notify_on must be always, failure or never' });
const PlaybookIdField = z
  .string({ message: 'playbook_id must be a playbook id' })
  .min(1, 'playbook_id must not be empty (null for no playbook)')
  .max(SCHEDULE_LIMITS.playbookId, `playbook_id is at most ${SCHEDULE_LIMITS.playbookId} characters`);
const Enabled = z.boolean({ message: 'enabled must be true or false' });
const BypassApproval = z.boolean({ message: 'bypass_approval must be true or false' });
/** `devin` is the vendor's word for `agent`: both are accepted, `agent` is stored. */
const AgentField = z
  .enum(['agent', 'devin', 'data_analyst'], {
    message: 'agent must be devin (the spec calls it agent) or data_analyst',
  })
  .transform((a): ScheduleAgent => (a === 'devin' ? 'agent' : a));
const IntervalCount = z
  .number({ message: 'interval_count must be a whole number' })
  .int('interval_count must be a whole number')
  .min(1, 'interval_count is at least 1')
  .max(SCHEDULE_LIMITS.intervalCount, `interval_count is at most ${fmt(SCHEDULE_LIMITS.intervalCount)}`);
/** A short label or id: not empty, no control or bidirectional-override characters, at most `max` characters. */
const label = (name: string, max: number) =>
  z
    .string({ message: `${name} must be a string` })
    .max(max, `${name} is at most ${fmt(max)} characters`)
    .refine((s) => s.trim().length > 0, { message: `${name} must not be empty (null for none)` })
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(s), {
      message: `${name} must not contain control or bidirectional-override characters`,
    });
const Platform = label('platform', SCHEDULE_LIMITS.platform);
const SlackChannelId = label('slack_channel_id', SCHEDULE_LIMITS.slackId);
const SlackTeamId = label('slack_team_id', SCHEDULE_LIMITS.slackId);
const CreateAsUserId = label('create_as_user_id', SCHEDULE_LIMITS.id);
const RunAsUserId = label('run_as_user_id', SCHEDULE_LIMITS.id);
const TargetDevinId = label('target_devin_id', SCHEDULE_LIMITS.id);

/** The vendor's fields beside the spec's, shared by create and update (all optional; null clears on update). */
const vendorFields = {
  agent: AgentField.nullish(),
  interval_count: IntervalCount.nullish(),
  platform: Platform.nullish(),
  slack_channel_id: SlackChannelId.nullish(),
  slack_team_id: SlackTeamId.nullish(),
  target_devin_id: TargetDevinId.nullish(),
};

/**
 * Create body. A recurring schedule needs `frequency`; a one-time schedule needs `scheduled_at` (the sandbox
 * refuses a time that is not in the future: the contract has no clock). A one-time schedule's `frequency` is
 * not used.
 */
export const CreateScheduleBody = z
  .strictObject({
    name: Name,
    prompt: Prompt,
    schedule_type: ScheduleTypeField.default('recurring'),
    frequency: Frequency.nullish(),
    scheduled_at: ScheduledAt.nullish(),
    /** Not in the vendor's create request (the console never sends it); accepted by the sandbox. */
    enabled: Enabled.default(true),
    notify_on: NotifyOnField.default('failure'),
    playbook_id: PlaybookIdField.nullish(),
    tags: TagList.nullish(),
    bypass_approval: BypassApproval.nullish(),
    ...vendorFields,
    /** The user its sessions are attributed to; it must be able to start sessions in the organization. */
    create_as_user_id: CreateAsUserId.nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.schedule_type === 'recurring' && !v.frequency) {
      ctx.addIssue({
        code: 'custom',
        path: ['frequency'],
        message: SCHEDULE_MESSAGES.frequencyRequired,
      });
    }
    if (v.schedule_type === 'one_time' && !v.scheduled_at) {
      ctx.addIssue({
        code: 'custom',
        path: ['scheduled_at'],
        message: SCHEDULE_MESSAGES.runAtRequired,
      });
    }
  });
export type CreateScheduleBody = z.input<typeof CreateScheduleBody>;

/**
 * PATCH body: every field optional; an omitted field keeps its value, null clears `playbook_id`, `tags`,
 * `platform`, `slack_*`, `target_devin_id` and `run_as_user_id` (back to the creator).
 * The sandbox checks the result as a whole (a recurring schedule keeps a frequency, a one-time one a future
 * `scheduled_at`).
 */
export const UpdateScheduleBody = z.strictObject({
  name: Name.nullish(),
  prompt: Prompt.nullish(),
  schedule_type: ScheduleTypeField.nullish(),
  frequency: Frequency.nullish(),
  scheduled_at: ScheduledAt.nullish(),
  enabled: Enabled.nullish(),
  notify_on: NotifyOnField.nullish(),
  playbook_id: PlaybookIdField.nullish(),
  tags: TagList.nullish(),
  bypass_approval: BypassApproval.nullish(),
  ...vendorFields,
  /** The user (or service user) its runs act as; it must be able to start sessions in the organization. */
  run_as_user_id: RunAsUserId.nullish(),
});
export type UpdateScheduleBody = z.input<typeof UpdateScheduleBody>;

/** `first`/`after` (spec), or the vendor reference's `limit`/`offset`; not both styles at once. */
export const ScheduleListQuery = z.object({
  first: First,
  after: After,
  limit: queryInt({ min: 1, max: 200, name: 'limit' }).optional(),
  offset: queryInt({ min: 0, max: SCHEDULE_LIMITS.offset, name: 'offset' }).optional(),
});
export type ScheduleListQuery = z.input<typeof ScheduleListQuery>;

const ScheduleId = z.string().min(1).max(200);
const OrgParams = z.object({ org_id: OrgId });
const ScheduleParams = z.object({ org_id: OrgId, schedule_id: ScheduleId });

const PATH = '/v3/organizations/{org_id}/schedules';

export const scheduleOperations = defineOperations({
  'schedules.list': {
    id: 'schedules.list',
    method: 'GET',
    path: PATH,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: "List an organization's schedules, newest first",
    params: OrgParams,
    query: ScheduleListQuery,
    response: pageOf(Schedule),
    paginated: true,
    note: 'Schedule timestamps are ISO 8601 strings. limit/offset (vendor reference) are accepted beside first/after.',
  },
  'schedules.create': {
    id: 'schedules.create',
    method: 'POST',
    path: PATH,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'Create a schedule: recurring (cron in UTC) or one-time (scheduled_at in the future)',
    params: OrgParams,
    body: CreateScheduleBody,
    response: Schedule,
    note: `At most ${SCHEDULE_CAPS.perOrganization} schedules per organization (409 beyond). The vendor's create has no enabled: create, then PATCH enabled false.`,
  },
  'schedules.get': {
    id: 'schedules.get',
    method: 'GET',
    path: `${PATH}/{schedule_id}`,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'Get one schedule',
    params: ScheduleParams,
    response: Schedule,
  },
  'schedules.update': {
    id: 'schedules.update',
    method: 'PATCH',
    path: `${PATH}/{schedule_id}`,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'Change some fields of a schedule (e.g. enabled)',
    params: ScheduleParams,
    body: UpdateScheduleBody,
    response: Schedule,
  },
  'schedules.delete': {
    id: 'schedules.delete',
    method: 'DELETE',
    path: `${PATH}/{schedule_id}`,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'Delete a schedule; answers with the deleted schedule',
    params: ScheduleParams,
    response: Schedule,
  },
  'schedules.runs.list': {
    id: 'schedules.runs.list',
    method: 'GET',
    path: `${PATH}/{schedule_id}/runs`,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'The runs of a schedule, newest first, each with the session it started',
    params: ScheduleParams,
    query: z.object({ first: First, after: After }),
    response: pageOf(ScheduleRun),
    paginated: true,
    extension: true,
    note: 'Not in the spec or the vendor reference: the console shows the sessions a schedule started with it, and falls back without it.',
  },
});
