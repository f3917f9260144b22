/**
 * The console's configuration-as-code endpoints (`/console/configuration/*`): validate a document (errors with
 * file, path and line), plan it against live state (every create, update and delete per organization and
 * resource, with counts, destructive changes marked and a fingerprint of the live state it was computed from),
 * apply exactly a reviewed plan (refused when live state moved since), export live state as a document, the
 * revisions of every applied document with who applied it, and the drift of live state from the last one.
 *
 * No request or answer ever holds a secret's value: documents name environment variables; only an apply
 * request carries values (`secret_values`), which are used for the creates and never stored or answered.
 */
import { z } from 'zod';
import { queryInt, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { CONFIG_DOCUMENT_LIMITS, EnvName } from '../config-document/schema';
import { defineConsoleOperations } from './define';
import { madeByFields } from './session';

export const CONFIG_RESOURCE_KINDS = [
  'organization',
  'enterprise_acu_limit',
  'ip_access_list',
  'org_group_limits',
  'idp_group',
  'service_user',
  'playbook',
  'allowed_tags',
  'default_tag',
  'git_permissions',
  'note',
  'secret',
  'schedule',
] as const;
export type ConfigResourceKind = (typeof CONFIG_RESOURCE_KINDS)[number];

/** How people read each kind (the screens' own words). */
export const CONFIG_RESOURCE_LABELS: Record<ConfigResourceKind, string> = {
  organization: 'Organization',
  enterprise_acu_limit: 'Enterprise ACU limit',
  ip_access_list: 'IP access list',
  org_group_limits: 'Org group limits',
  idp_group: 'IdP group',
  service_user: 'Service user',
  playbook: 'Playbook',
  allowed_tags: 'Allowed session tags',
  default_tag: 'Default tag',
  git_permissions: 'Git permissions',
  note: 'Knowledge note',
  secret: 'Secret',
  schedule: 'Schedule',
};

export const CONFIG_ACTIONS = ['create', 'update', 'delete'] as const;
export type ConfigAction = (typeof CONFIG_ACTIONS)[number];

export const DocumentErrorSchema = z.looseObject({
  file: z.string(),
  path: z.string(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  message: z.string(),
});

/** One field a change sets: before and after as text (a secret's value never: only that it is set). */
export const ConfigFieldChange = z.looseObject({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});

export const ConfigChange = z.looseObject({
  /** Stable within a plan: `Engineering/note//Runbooks/Deploy`. */
  id: z.string(),
  /** The organization's name, or null for the enterprise. */
  organization: z.string().nullable(),
  kind: z.enum(CONFIG_RESOURCE_KINDS),
  /** The resource's stable key (name, title, key, path). */
  key: z.string(),
  action: z.enum(CONFIG_ACTIONS),
  /** Deletes something, or removes entries from a set. */
  destructive: z.boolean(),
  summary: z.string(),
  fields: z.array(ConfigFieldChange),
});
export type ConfigChange = z.infer<typeof ConfigChange>;

export const ConfigCounts = z.looseObject({
  create: z.number().int(),
  update: z.number().int(),
  delete: z.number().int(),
  destructive: z.number().int(),
});
export type ConfigCounts = z.infer<typeof ConfigCounts>;

/** One organization as the document describes it once its fragments are merged. */
export const ExpandedOrganizationView = z.looseObject({
  name: z.string(),
  include: z.array(z.string()),
  exists: z.boolean(),
  settings: z.record(z.string(), z.unknown()),
  changes: z.number().int(),
});

export const ConfigPlan = z.looseObject({
  /** Of the live state the plan was computed from; an apply is refused when live state no longer has it. */
  fingerprint: z.string(),
  /** Of the plan itself (document, options and live state): what an apply names to say "this plan". */
  plan_id: z.string(),
  prune: z.boolean(),
  counts: ConfigCounts,
  changes: z.array(ConfigChange),
  organizations: z.array(ExpandedOrganizationView),
  /** Environment variables the apply needs values of (secrets it creates). */
  secret_env: z.array(z.string()),
  warnings: z.array(z.string()),
  resources: z.number().int(),
});
export type ConfigPlan = z.infer<typeof ConfigPlan>;

export const CONFIG_STEP_STATUSES = ['applied', 'failed', 'skipped'] as const;
export const ConfigStepResult = z.looseObject({
  id: z.string(),
  organization: z.string().nullable(),
  kind: z.enum(CONFIG_RESOURCE_KINDS),
  key: z.string(),
  action: z.enum(CONFIG_ACTIONS),
  status: z.enum(CONFIG_STEP_STATUSES),
  error: z.string().nullable(),
});
export type ConfigStepResult = z.infer<typeof ConfigStepResult>;

export const CONFIG_REVISION_KINDS = ['apply', 'export'] as const;
export const CONFIG_REVISION_STATUSES = ['applying', 'applied', 'partial', 'failed', 'cancelled', 'recorded'] as const;
export type ConfigRevisionStatus = (typeof CONFIG_REVISION_STATUSES)[number];

export const ConfigReport = z.looseObject({
  revision_id: z.number().int().nullable(),
  status: z.enum(CONFIG_REVISION_STATUSES),
  applied: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  /** Seconds spent waiting out the API's rate limit (429 Retry-After). */
  waited_s: z.number(),
  duration_ms: z.number().int(),
  steps: z.array(ConfigStepResult),
  message: z.string(),
});
export type ConfigReport = z.infer<typeof ConfigReport>;

/** An apply under way (or just finished): the steps done so far, and its report once it ended. */
export const ConfigProgress = z.looseObject({
  apply_id: z.string(),
  revision_id: z.number().int().nullable(),
  total: z.number().int(),
  steps: z.array(ConfigStepResult),
  /** Seconds the apply is waiting now for the API's rate limit (0 when not waiting). */
  waiting_s: z.number(),
  cancelling: z.boolean(),
  finished: z.boolean(),
  report: ConfigReport.nullable(),
});
export type ConfigProgress = z.infer<typeof ConfigProgress>;

export const ConfigRevisionSummary = z.looseObject({
  revision_id: z.number().int(),
  kind: z.enum(CONFIG_REVISION_KINDS),
  status: z.enum(CONFIG_REVISION_STATUSES),
  created_at: UnixSeconds,
  completed_at: UnixSeconds.nullable(),
  file: z.string(),
  counts: ConfigCounts,
  fingerprint: z.string(),
  ...madeByFields,
});
export type ConfigRevisionSummary = z.infer<typeof ConfigRevisionSummary>;

export const ConfigRevision = ConfigRevisionSummary.extend({
  document: z.string(),
  plan: z.array(ConfigChange),
  report: ConfigReport.nullable(),
});
export type ConfigRevision = z.infer<typeof ConfigRevision>;

export const ConfigRevisionPage = pageOf(ConfigRevisionSummary);

export const ConfigDrift = z.looseObject({
  /** The revision compared with; null when nothing was applied or exported yet. */
  revision: ConfigRevisionSummary.nullable(),
  checked_at: UnixSeconds,
  counts: ConfigCounts,
  /** What applying that revision again would change: each is live state that drifted from it. */
  changes: z.array(ConfigChange),
  errors: z.array(DocumentErrorSchema),
});
export type ConfigDrift = z.infer<typeof ConfigDrift>;

export const ConfigValidation = z.looseObject({
  valid: z.boolean(),
  errors: z.array(DocumentErrorSchema),
  more_errors: z.number().int(),
  resources: z.number().int(),
});

export const ConfigExport = z.looseObject({ file: z.string(), document: z.string(), resources: z.number().int() });

// ---------------------------------------------------------------- requests

const DocumentText = z
  .string({ message: 'document is required: the configuration document’s text (YAML or JSON)' })
  .max(
    CONFIG_DOCUMENT_LIMITS.bytes,
    `A document is at most ${CONFIG_DOCUMENT_LIMITS.bytes.toLocaleString('en-US')} characters`,
  );
const FileName = z.string().max(300).default('document');

const ApplyId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'apply_id is 8–64 letters, digits, _ or -');

export const ConfigValidateRequest = z.strictObject({ document: DocumentText, file: FileName });
export const ConfigPlanRequest = ConfigValidateRequest.extend({
  /** Delete what the document does not name, in every set (as `manage: all` does for one set). */
  prune: z.boolean().default(false),
});
export type ConfigPlanRequest = z.input<typeof ConfigPlanRequest>;

export const ConfigApplyRequest = ConfigPlanRequest.extend({
  /** The plan reviewed (its `plan_id`): refused with 409 when the plan computed now is another. */
  plan_id: z.string({ message: 'plan_id is required: the plan you reviewed' }).min(1).max(128),
  /** Values of the environment variables the plan's `secret_env` names; used once, never stored. */
  secret_values: z.record(EnvName, z.string().max(65_536)).default({}),
  /** A token the caller picks to follow the apply's progress and cancel it while it runs. */
  apply_id: ApplyId.optional(),
});
export type ConfigApplyRequest = z.input<typeof ConfigApplyRequest>;

const RevisionPath = z.object({
  revision_id: z
    .string()
    .regex(/^\d{1,12}$/, 'Not a revision number')
    .transform(Number),
});

const ApplyPath = z.object({ apply_id: ApplyId });

export const CONFIG_REVISIONS_PAGE_SIZE = 20;
const BASE = '/console/configuration';

export const consoleConfigurationOperations = defineConsoleOperations({
  'console.configuration.schema.get': {
    id: 'console.configuration.schema.get',
    method: 'GET',
    permission: null,
    path: `${BASE}/schema`,
    summary: 'The JSON Schema of a configuration document, generated from the contract',
    response: z.record(z.string(), z.unknown()),
  },
  'console.configuration.validate': {
    id: 'console.configuration.validate',
    method: 'POST',
    permission: null,
    path: `${BASE}/validate`,
    summary: 'Check a document: every error with its file, path and line',
    body: ConfigValidateRequest,
    response: ConfigValidation,
  },
  'console.configuration.plan': {
    id: 'console.configuration.plan',
    method: 'POST',
    permission: null,
    path: `${BASE}/plan`,
    summary:
      'Every change the document would make to live state, per organization and resource (422 with locations for a bad document)',
    body: ConfigPlanRequest,
    response: ConfigPlan,
  },
  'console.configuration.apply': {
    id: 'console.configuration.apply',
    method: 'POST',
    permission: 'admin',
    path: `${BASE}/apply`,
    summary:
      'Apply exactly the reviewed plan, in dependency order (409 when live state moved since it); answers the report (progress and cancel by the request’s apply_id)',
    body: ConfigApplyRequest,
    response: ConfigReport,
  },
  'console.configuration.progress.get': {
    id: 'console.configuration.progress.get',
    method: 'GET',
    permission: null,
    path: `${BASE}/applies/{apply_id}`,
    summary: 'The progress of an apply under way (by the apply_id its request carried), and its report once done',
    params: ApplyPath,
    response: ConfigProgress,
  },
  'console.configuration.cancel': {
    id: 'console.configuration.cancel',
    method: 'POST',
    permission: 'admin',
    path: `${BASE}/applies/{apply_id}/cancel`,
    summary: 'Stop an apply under way after the step it is on; its report says what was done and what was not',
    params: ApplyPath,
    response: ConfigProgress,
  },
  'console.configuration.export': {
    id: 'console.configuration.export',
    method: 'GET',
    permission: null,
    path: `${BASE}/export`,
    summary: 'Live state as a document (YAML) that plans as no changes; secrets by key and type, never a value',
    response: ConfigExport,
  },
  'console.configuration.revisions.export': {
    id: 'console.configuration.revisions.export',
    method: 'POST',
    permission: 'admin',
    path: `${BASE}/revisions/export`,
    summary: 'Record live state as a new revision (drift is then measured from it)',
    response: ConfigRevisionSummary,
  },
  'console.configuration.revisions.list': {
    id: 'console.configuration.revisions.list',
    method: 'GET',
    permission: null,
    path: `${BASE}/revisions`,
    summary: 'Every applied (or exported) document, newest first, with who applied it',
    query: z.object({
      first: queryInt({ min: 1, max: 200, name: 'first' }).default(CONFIG_REVISIONS_PAGE_SIZE),
      after: z
        .string()
        .regex(/^\d{1,12}$/, 'after must be an end_cursor of this list')
        .transform(Number)
        .optional(),
    }),
    response: ConfigRevisionPage,
  },
  'console.configuration.revisions.get': {
    id: 'console.configuration.revisions.get',
    method: 'GET',
    permission: null,
    path: `${BASE}/revisions/{revision_id}`,
    summary: 'One revision: its document, its plan and its report',
    params: RevisionPath,
    response: ConfigRevision,
  },
  'console.configuration.drift.get': {
    id: 'console.configuration.drift.get',
    method: 'GET',
    permission: null,
    path: `${BASE}/drift`,
    summary: 'Where live state drifted from the last applied revision, per organization and resource',
    response: ConfigDrift,
  },
});
