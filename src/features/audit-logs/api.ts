/**
 * Audit logs: query keys, the infinite list over cursor pages, and the one-page fetch the list and the export
 * share. The enterprise list is used unless an organization is chosen (then the organization-level list, an
 * extension of the sandbox).
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { AuditLogEntry } from '@/api/operations/audit-logs';
import type { Page } from '@/api/cursor';
import { apiCall } from '@/lib/api-client';
import { resolveBounds, type AuditLogFilters, type ResolvedBounds } from './search';

/** Page size of the list and the export: the documented maximum, so 10,000 entries take 50 requests. */
export const AUDIT_PAGE_SIZE = 200;

export const auditLogKeys = {
  all: ['audit-logs'] as const,
  lists: () => [...auditLogKeys.all, 'list'] as const,
  infinite: (filters: AuditLogFilters) => [...auditLogKeys.lists(), 'infinite', filters] as const,
};

/**
 * Principal filters are sent as the sandbox's extension parameters and applied again here, so an upstream that
 * ignores unknown parameters still shows only that principal's entries.
 */
export function matchesPrincipal(e: AuditLogEntry, f: Pick<AuditLogFilters, 'service_user_id' | 'user_id'>): boolean {
  if (f.service_user_id && e.service_user_id !== f.service_user_id) return false;
  if (f.user_id && e.user_id !== f.user_id) return false;
  return true;
}

/** One page of the filtered audit log, within fixed bounds. */
export async function fetchAuditLogPage(
  f: AuditLogFilters,
  bounds: ResolvedBounds,
  after: string | undefined,
  signal?: AbortSignal,
): Promise<Page<AuditLogEntry>> {
  const query = {
    first: AUDIT_PAGE_SIZE,
    after,
    order: f.order,
    time_after: bounds.time_after,
    time_before: bounds.time_before,
    action: f.action,
    service_user_id: f.service_user_id,
    user_id: f.user_id,
  };
  const page = f.org_id
    ? await apiCall('auditLogs.organization.list', { params: { org_id: f.org_id }, query, signal })
    : await apiCall('auditLogs.list', { query, signal });
  if (!f.service_user_id && !f.user_id) return page;
  return { ...page, items: page.items.filter((e) => matchesPrincipal(e, f)) };
}

export type AuditLogListPage = Page<AuditLogEntry> & { bounds: ResolvedBounds };
interface PageParam {
  after?: string;
  bounds?: ResolvedBounds;
}

/**
 * The list. A preset ("last 24 hours") is resolved to exact bounds when the first page loads and carried to
 * every next page, so all pages — and an export of the list — cover the same range.
 */
export const auditLogsInfiniteQueryOptions = (filters: AuditLogFilters) =>
  infiniteQueryOptions({
    queryKey: auditLogKeys.infinite(filters),
    queryFn: async ({ pageParam, signal }): Promise<AuditLogListPage> => {
      const bounds = pageParam.bounds ?? resolveBounds(filters, Date.now());
      const page = await fetchAuditLogPage(filters, bounds, pageParam.after, signal);
      return { ...page, bounds };
    },
    initialPageParam: {} as PageParam,
    getNextPageParam: (last): PageParam | undefined =>
      last.has_next_page && last.end_cursor ? { after: last.end_cursor, bounds: last.bounds } : undefined,
    // Refetching would re-read every loaded page (50 for 10,000 entries): refresh is the admin's choice.
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    // Pages are never edited in place; comparing 10,000 entries deeply on every new page is wasted work.
    structuralSharing: false,
  });
