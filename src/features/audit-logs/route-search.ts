/**
 * The audit-log explorer's search as the route reads it (filters, order, time range): the definition and the
 * filters that key the list's query. Without zod and without the screen's helpers (src/features/audit-logs/search.ts),
 * so the first screen carries only this.
 */
import { AUDIT_LOG_LIMITS, AUDIT_LOG_ORDERS, type AuditLogOrder } from '@/api/values';
import { defineSearch, integer, oneOfOr, text, type SearchOut } from '@/lib/search-params';

export const RANGES = ['all', '1h', '24h', '7d', '30d', 'custom'] as const;
export type Range = (typeof RANGES)[number];

/** The filters one list (and one export) runs with: the search without presentation-only state. */
export interface AuditLogFilters {
  range: Range;
  time_after?: number;
  time_before?: number;
  order: AuditLogOrder;
  action?: string;
  service_user_id?: string;
  user_id?: string;
  org_id?: string;
}

const principalId = text({ min: 1, max: AUDIT_LOG_LIMITS.principalId });

const fields = {
  range: oneOfOr(RANGES, 'all'),
  /** Custom range only: inclusive start, Unix seconds. */
  time_after: integer(),
  /** Custom range only: exclusive end, Unix seconds. */
  time_before: integer(),
  order: oneOfOr(AUDIT_LOG_ORDERS, 'desc'),
  action: text({ min: 1, max: AUDIT_LOG_LIMITS.action, pattern: /^[A-Za-z0-9_.:-]+$/ }),
  service_user_id: principalId,
  user_id: principalId,
  org_id: text({ pattern: /^org-/ }),
};
export type AuditLogSearch = SearchOut<typeof fields>;

/** Keeps only what changes the query, so equal filters give equal query keys. */
export function toFilters(s: AuditLogSearch): AuditLogFilters {
  const f: AuditLogFilters = { range: s.range, order: s.order };
  if (s.range === 'custom') {
    if (s.time_after !== undefined) f.time_after = s.time_after;
    if (s.time_before !== undefined) f.time_before = s.time_before;
  }
  if (s.action) f.action = s.action;
  if (s.service_user_id) f.service_user_id = s.service_user_id;
  if (s.user_id) f.user_id = s.user_id;
  if (s.org_id) f.org_id = s.org_id;
  return f;
}

/** The search of `/audit-logs`; anything unreadable falls back to the default instead of failing. */
export const AuditLogSearch = defineSearch({
  operation: 'auditLogs.list',
  fields,
  // Defaults stay out of the URL, so a shared link shows only the filters someone chose.
  defaults: { range: 'all', order: 'desc' },
  filters: toFilters,
});
