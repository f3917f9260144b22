/**
 * Enumerated values of the contract that screens need at start-up (URL search schemas), kept in a module
 * without schemas so importing them does not bring an area's whole operation table into the app shell.
 * The area contracts re-export them.
 */

/**
 * `origins` filter values: the spec's `webapp`, `api`, `other`, the vendor reference's `automation`, `cli`,
 * `desktop`, and the chat and issue-tracker integrations.
 */
export const SESSION_ORIGINS = [
  'webapp',
  'api',
  'automation',
  'cli',
  'desktop',
  'slack',
  'teams',
  'linear',
  'jira',
  /** Sessions the platform launched to fix a code-scan finding (the remediate operation). */
  'code_scan_remediation',
  'other',
] as const;
export type SessionOrigin = (typeof SESSION_ORIGINS)[number];

/** Audit-log list order (default `desc`). */
export const AUDIT_LOG_ORDERS = ['asc', 'desc'] as const;
export type AuditLogOrder = (typeof AUDIT_LOG_ORDERS)[number];

/** Knowledge note `access_type`. */
export const NOTE_ACCESS_TYPES = ['org', 'enterprise'] as const;
export type NoteAccessType = (typeof NOTE_ACCESS_TYPES)[number];

/** Guardrail violation actions (`action_taken`). */
export const GUARDRAIL_ACTIONS = ['log_only', 'warn_user', 'block_message', 'kill_session'] as const;
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];

/** Guardrail and session ids in the violation filters: at most this many characters. */
export const GUARDRAIL_ID_MAX = 200;

/** Audit-log filters: an action value's length, action values per filter, a principal id's length. */
export const AUDIT_LOG_LIMITS = { action: 100, actionsPerFilter: 50, principalId: 200 } as const;

/** A code-scan finding's severity. */
export const FINDING_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** A code-scan finding's status. */
export const FINDING_STATUSES = ['open', 'dismissed', 'resolved'] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

export const CODE_SCAN_LIMITS = {
  id: 200,
  /** Values per array filter. */
  filterValues: 100,
  repository: 300,
  /** Findings remediated from one selection in the console (one call each). */
  remediateSelection: 50,
} as const;

/** Playbook `access_type`. */
export const PLAYBOOK_ACCESS_TYPES = ['enterprise', 'org'] as const;

/**
 * Limits on a playbook's fields. The reference gives the macro's form and a 64 KB cap on the structured-output
 * schema; the other sizes are the console's own, so that nothing unbounded is accepted.
 */
export const PLAYBOOK_LIMITS = {
  title: 200,
  body: 100_000,
  macro: 64,
  /** Bytes of the JSON structured-output schema (vendor: "Max 64KB"). */
  structuredOutputSchema: 65_536,
  search: 200,
} as const;

/** A snapshot build's status. */
export const SNAPSHOT_BUILD_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type SnapshotBuildStatus = (typeof SNAPSHOT_BUILD_STATUSES)[number];

/**
 * Session limits. `session_secrets` key and value lengths are the vendor's; the spec shows no maximum prompt
 * size, so the others are the console's own, generous enough for real use, so that nothing unbounded is accepted.
 */
export const SESSION_LIMITS = {
  prompt: 100_000,
  title: 200,
  message: 100_000,
  tag: 64,
  tags: 50,
  secretKey: 256,
  secretValue: 65_536,
  secrets: 50,
  sessionLinks: 20,
  sessionLink: 2_048,
  id: 200,
  idList: 200,
  /** `session_ids` filter: enough for every row a screen shows at once. */
  sessionIdsFilter: 500,
  /** A status value in the list's `status` filter. */
  status: 64,
} as const;

/** The range presets of the usage screens (src/api/billing-day.ts); each gives whole billing days. */
export const RANGE_PRESETS = ['this_cycle', 'last_cycle', '7d', '30d', '90d'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Outcomes of a write recorded in Console activity (the console's own table, `src/api/console/activity.ts`). */
export const ACTIVITY_OUTCOMES = ['succeeded', 'failed', 'refused'] as const;
export type ActivityOutcome = (typeof ACTIVITY_OUTCOMES)[number];
