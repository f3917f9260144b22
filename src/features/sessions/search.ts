/**
 * The sessions lists' URL search: origins, status, tags, archived and the created time range, plus organizations
 * on the enterprise list. Lists are comma-joined in the URL (`?origins=slack,api`); a repeated or JSON-array
 * value is read too, and anything unreadable is no filter rather than an error. `toListFilters`
 * (list-query.ts) turns it into the API's query.
 */
import { SESSION_LIMITS, SESSION_ORIGINS } from '@/api/values';
import { commaList, defineSearch, integer, oneOf, text, type SearchOut } from '@/lib/search-params';
import { toListFilters } from './list-query';

const ids = commaList({ max: SESSION_LIMITS.id });
const unixSeconds = integer({ coerce: true });

const fields = {
  origins: commaList({ allowed: SESSION_ORIGINS }),
  status: commaList({ max: SESSION_LIMITS.status }),
  tags: commaList({ max: SESSION_LIMITS.tag }),
  /** `true`: archived only; `false`: not archived; absent: both. */
  archived: (v: unknown) => (v === undefined ? undefined : oneOf(['true', 'false'])(String(v))),
  created_after: unixSeconds,
  created_before: unixSeconds,
  /** Enterprise list only. */
  org_ids: ids,
};

/** An organization's list. */
export const OrgSessionSearch = defineSearch({
  operation: 'sessions.list',
  fields,
  filters: (s) => toListFilters(s, 'org'),
});

/** The enterprise list (every organization, or those in `org_ids`). */
export const SessionSearch = defineSearch({
  operation: 'sessions.enterprise.list',
  fields,
  filters: (s) => toListFilters(s, 'enterprise'),
});
/** Read from the fields, not from the definition: the definition's `filters` read this type (list-query.ts). */
export type SessionSearch = SearchOut<typeof fields>;

/** `playbook`: the playbook chosen when the new-session form opens ("Start a session with this playbook"). */
export const NewSessionSearch = defineSearch({ fields: { playbook: text({ min: 1, max: SESSION_LIMITS.id }) } });
