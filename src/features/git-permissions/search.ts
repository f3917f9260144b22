/** The git-permission screens' URL state: the table's text filter, sort and access filter; the history's range. */
import { defineSearch, integer, oneOfOr, text, type SearchOf } from '@/lib/search-params';

const SORT_KEYS = ['matcher', 'type', 'connection', 'read_only', 'created_at'] as const;

/** The table filters the loaded rows in the browser: nothing here changes the query. */
export const GitPermissionsSearch = defineSearch({
  fields: {
    q: (v: unknown) => (v === undefined ? '' : (text({ max: 200 })(v) ?? '')),
    sort: oneOfOr(SORT_KEYS, 'created_at'),
    dir: oneOfOr(['asc', 'desc'], 'asc'),
    access: oneOfOr(['all', 'read_only', 'read_write'], 'all'),
  },
});
export type GitPermissionsSearch = SearchOf<typeof GitPermissionsSearch>;

/** The revision range of the history (`from`, `to`: revision numbers). */
export const GitPermissionHistorySearch = defineSearch({
  fields: { from: integer({ min: 1, coerce: true }), to: integer({ min: 1, coerce: true }) },
});
