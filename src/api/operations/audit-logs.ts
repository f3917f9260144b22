/**
 * Audit logs: the enterprise list the spec shows (`GET /v3/enterprise/audit-logs`), and an organization-level
 * list the spec implies ("the audit-log lists accept `order`") but does not show — an extension.
 *
 * Time bounds (documented here once, used by the sandbox, the screen and the export): the range is half-open,
 * `time_after` ≤ created_at < `time_before`. `time_after` is inclusive, `time_before` is exclusive, so adjacent
 * ranges never overlap and `time_after` = `time_before` is a valid, empty range. `time_after` later than
 * `time_before` answers 422.
 */
import { z } from 'zod';
import { OrgId, PageQuery, UnixSeconds, queryArray, queryInt, whenFieldsParsed } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { AUDIT_LOG_LIMITS, AUDIT_LOG_ORDERS } from '../values';

/**
 * Action values the console knows. The spec names the first four ("complete list: not shown"); the others are
 * the ones this console's areas write. The API may send any other value: it is shown as-is.
 */
export const KNOWN_AUDIT_ACTIONS = [
  'create_join_request',
  'automatic_join_event',
  'reject_join_request',
  'update_git_permission',
  'create_session',
  'send_session_message',
  'archive_session',
  'terminate_session',
  'update_session_tags',
  'generate_session_insights',
  'create_knowledge_note',
  'update_knowledge_note',
  'delete_knowledge_note',
  'create_secret',
  'delete_secret',
  'remove_repository_indexing',
  'invite_users',
  'update_user_role',
  'delete_user',
  'assign_org_user_role',
  'update_org_user_role',
  'remove_org_user',
  'create_service_user',
  'delete_service_user',
  'create_idp_groups',
  'delete_idp_group',
  'assign_idp_group_role',
  'update_idp_group_role',
  'remove_idp_group_role',
  'assign_org_idp_group_role',
  'update_org_idp_group_role',
  'remove_org_idp_group_role',
  'assign_service_user_role',
  'update_service_user_role',
  'assign_org_service_user_role',
  'update_org_service_user_role',
  'remove_org_service_user',
  'pause_schedule',
  'replace_ip_access_list',
  'append_ip_access_list',
  'clear_ip_access_list',
  'create_organization',
  'update_organization',
  'delete_organization',
  'update_acu_limit',
  'delete_acu_limit',
  'update_org_group_limits',
  'update_allowed_tags',
  'update_default_tag',
] as const;

/** `order`: newest first by default (spec: `asc` or `desc`, default `desc`). */
export { AUDIT_LOG_ORDERS, type AuditLogOrder } from '../values';

/** The largest timestamp accepted in a time bound (31 Dec 9999), so no bound overflows anything downstream. */
export const MAX_UNIX_SECONDS = 253_402_300_799;
/** At most this many `action` values in one filter. */
export const MAX_ACTION_FILTER = AUDIT_LOG_LIMITS.actionsPerFilter;

/**
 * One audit-log entry. `service_user_id` and `user_id` may be absent or null (spec); the names are strings
 * (the sandbox sends "" when there is no such principal). `audit_log_id` and `org_id` come from api-facts.
 */
export const AuditLogEntry = z.looseObject({
  audit_log_id: z.string(),
  org_id: z.string().nullish(),
  created_at: UnixSeconds,
  action: z.string(),
  service_user_id: z.string().nullish(),
  service_user_name: z.string().nullish(),
  user_id: z.string().nullish(),
  user_email: z.string().nullish(),
  data: z.record(z.string(), z.unknown()).nullish(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntry>;

const TimeBound = (name: string) => queryInt({ min: 0, max: MAX_UNIX_SECONDS, name }).optional();

const ActionName = z
  .string()
  .max(AUDIT_LOG_LIMITS.action, `an action value is at most ${AUDIT_LOG_LIMITS.action} characters`)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'an action value is a name such as create_session (letters, digits, _ . : -)');

const PrincipalId = (name: string) =>
  z
    .string()
    .min(1, `${name} must not be empty`)
    .max(AUDIT_LOG_LIMITS.principalId, `${name} is at most ${AUDIT_LOG_LIMITS.principalId} characters`)
    .optional();

/** The query of both audit-log lists. */
export const AuditLogQuery = z
  .object({
    ...PageQuery.shape,
    /** Inclusive lower bound, Unix seconds: created_at ≥ time_after. */
    time_after: TimeBound('time_after'),
    /** Exclusive upper bound, Unix seconds: created_at < time_before. */
    time_before: TimeBound('time_before'),
    order: z.enum(AUDIT_LOG_ORDERS, { message: 'order must be asc or desc' }).default('desc'),
    /** One or more action values; repeated keys or comma-joined. */
    action: queryArray(ActionName, { count: MAX_ACTION_FILTER, what: 'action values per filter' }),
    /** Extension: only entries of this service user. */
    service_user_id: PrincipalId('service_user_id'),
    /** Extension: only entries of this user. */
    user_id: PrincipalId('user_id'),
  })
  .refine((q) => q.time_after === undefined || q.time_before === undefined || q.time_after <= q.time_before, {
    path: ['time_after'],
    error: (iss) => {
      const q = iss.input as { time_after?: number; time_before?: number };
      return `time_after (${q.time_after}) must not be later than time_before (${q.time_before})`;
    },
    // Checked even when another field (say `order`) failed, so every failing field is reported at once.
    when: whenFieldsParsed('time_after', 'time_before'),
  });
export type AuditLogQuery = z.input<typeof AuditLogQuery>;

const BOUNDS_NOTE =
  'time_after is inclusive and time_before exclusive (time_after ≤ created_at < time_before); 422 when time_after is later than time_before. Sorted by (created_at, audit_log_id) in the requested order; cursors are keyset positions, stable while entries are appended. service_user_id and user_id filters are sandbox extensions.';

export const auditLogOperations = defineOperations({
  'auditLogs.list': {
    id: 'auditLogs.list',
    method: 'GET',
    path: '/v3/enterprise/audit-logs',
    permission: 'ViewAccountAuditLogs',
    scope: 'enterprise',
    summary: 'The enterprise audit log, newest first unless order=asc, within an optional time range',
    query: AuditLogQuery,
    response: pageOf(AuditLogEntry),
    paginated: true,
    note: `Permission not shown in the spec; ViewAccountAuditLogs chosen. The action filter is from api-facts. ${BOUNDS_NOTE}`,
  },
  'auditLogs.organization.list': {
    id: 'auditLogs.organization.list',
    method: 'GET',
    path: '/v3/organizations/{org_id}/audit-logs',
    permission: 'ViewOrgAuditLogs',
    scope: 'organization',
    summary: "One organization's audit log, with the same query as the enterprise list",
    params: z.object({ org_id: OrgId }),
    query: AuditLogQuery,
    response: pageOf(AuditLogEntry),
    paginated: true,
    extension: true,
    note: `Not shown in the spec or the reference (the spec speaks of audit-log "lists" but shows only the enterprise path); path in the spec's organization-scope pattern, permission ViewOrgAuditLogs chosen. ${BOUNDS_NOTE}`,
  },
});
