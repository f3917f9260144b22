/**
 * The sessions list's URL search turned into the API's filters, without zod: the list's route and screen read
 * these on their first paint. The URL's reader is the feature's search definition (`./search.ts`).
 */
import type { EnterpriseSessionListQuery } from '@/api/operations/sessions';
import { SESSION_ORIGINS } from '@/api/values';
import type { SessionSearch } from './filters';

export function splitList(value: string | undefined): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

export function joinList(values: readonly string[]): string | undefined {
  return values.length ? [...new Set(values)].join(',') : undefined;
}

/** The API filters of a URL search. Unknown origins are dropped (the API would refuse them). */
export type SessionListFilters = Omit<EnterpriseSessionListQuery, 'first' | 'after'>;

export function toListFilters(search: SessionSearch, scope: 'org' | 'enterprise'): SessionListFilters {
  const origins = splitList(search.origins).filter((o) => (SESSION_ORIGINS as readonly string[]).includes(o));
  const status = splitList(search.status);
  const tags = splitList(search.tags);
  const orgIds = scope === 'enterprise' ? splitList(search.org_ids) : [];
  const filters: SessionListFilters = {};
  if (origins.length) filters.origins = origins as SessionListFilters['origins'];
  if (status.length) filters.status = status;
  if (tags.length) filters.tags = tags;
  if (search.archived) filters.is_archived = search.archived;
  if (search.created_after !== undefined) filters.created_after = search.created_after;
  if (search.created_before !== undefined) filters.created_before = search.created_before;
  if (orgIds.length) filters.org_ids = orgIds;
  return filters;
}

export function hasFilters(search: SessionSearch): boolean {
  return Object.values(search).some((v) => v !== undefined);
}

/** Quick ranges for the created time filter, in seconds back from now. */
export const TIME_PRESETS: ReadonlyArray<{ label: string; seconds: number }> = [
  { label: 'Last hour', seconds: 3_600 },
  { label: 'Last 24 hours', seconds: 86_400 },
  { label: 'Last 7 days', seconds: 7 * 86_400 },
  { label: 'Last 30 days', seconds: 30 * 86_400 },
];

/** How long a list's route waits for its first page when it is entered (see `firstPageBriefly`). */
export const FIRST_PAGE_WAIT_MS = 300;

/**
 * A sessions list's loader: when the list is entered (opened by its URL, whose first page the HTML already
 * preloads, or from another screen), the route waits a moment for the first page, so the first render is the
 * rows, not a skeleton rendered and then replaced; a slow API gets the skeleton after `FIRST_PAGE_WAIT_MS`.
 * A change of filters on the list (`stay`) does not wait: the URL and the filter bar follow the click at once.
 */
export function firstPageBriefly(firstPage: Promise<unknown>, cause: 'enter' | 'stay' | 'preload'): Promise<void> {
  const settled = firstPage.then(
    () => undefined,
    () => undefined,
  );
  if (cause === 'stay') return Promise.resolve();
  return Promise.race([settled, new Promise<void>((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))]);
}
