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
