/** The snapshot-build list's URL state: a status, or only the builds still in flight (`?active=true`). */
import { SNAPSHOT_BUILD_STATUSES } from '@/api/values';
import { defineSearch, oneOf, type SearchOf } from '@/lib/search-params';
import type { BuildFilters } from './api';

export const BuildsSearch = defineSearch({
  fields: {
    status: oneOf(SNAPSHOT_BUILD_STATUSES),
    /** Builds still pending or running: `true` (or `1` as a string) in the URL. */
    active: (v: unknown) => (v === true || v === 'true' || v === '1' ? (true as const) : undefined),
  },
  filters: (s): BuildFilters => ({ ...(s.status ? { status: s.status } : {}), ...(s.active ? { active: true } : {}) }),
});
export type BuildsSearch = SearchOf<typeof BuildsSearch>;
