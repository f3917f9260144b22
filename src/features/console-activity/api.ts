/** Console activity: the cursor query of `console.activity.list`, and every row of a filter for an export. */
import type { ActivityEntry } from '@/api/console/activity';
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';
import type { ActivityFilters } from './search';

export const ACTIVITY_PAGE_SIZE = 100;
/** An export reads at most this many rows (newest first); the screen says so when it stops there. */
export const ACTIVITY_EXPORT_MAX = 10_000;

export const activityKeys = {
  all: ['console-activity'] as const,
  list: (f: ActivityFilters) => ['console-activity', f] as const,
};

export const activityInfiniteQueryOptions = (filters: ActivityFilters) =>
  cursorInfiniteQueryOptions({
    queryKey: activityKeys.list(filters),
    page: (after, signal) =>
      apiCall('console.activity.list', {
        query: { ...filters, first: String(ACTIVITY_PAGE_SIZE), ...(after ? { after } : {}) },
        signal,
      }),
    staleTime: 15_000,
  });

/** Every row of `filters`, newest first, up to ACTIVITY_EXPORT_MAX; `capped` when there were more. */
export async function fetchAllActivity(
  filters: ActivityFilters,
  signal?: AbortSignal,
): Promise<{ rows: ActivityEntry[]; capped: boolean }> {
  const rows: ActivityEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await apiCall('console.activity.list', {
      query: { ...filters, first: '500', ...(after ? { after } : {}) },
      signal,
    });
    rows.push(...page.items);
    if (!page.has_next_page || !page.end_cursor) return { rows, capped: false };
    if (rows.length >= ACTIVITY_EXPORT_MAX) return { rows: rows.slice(0, ACTIVITY_EXPORT_MAX), capped: true };
    after = page.end_cursor;
  }
}
