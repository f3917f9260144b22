/** The playbook lists' URL search: filters live in the URL, so links can be shared. */
import { PLAYBOOK_ACCESS_TYPES, PLAYBOOK_LIMITS } from '@/api/values';
import { defineSearch, oneOf, text, type SearchOf } from '@/lib/search-params';

/** The organization's list holds its own playbooks: no access_type filter. */
export const OrgPlaybooksSearch = defineSearch({
  operation: 'playbooks.list',
  fields: { search: text({ trim: true, max: PLAYBOOK_LIMITS.search }) },
});

export const PlaybooksSearch = defineSearch({
  operation: 'playbooks.enterprise.list',
  fields: { ...OrgPlaybooksSearch.fields, access_type: oneOf(PLAYBOOK_ACCESS_TYPES) },
});
export type PlaybooksSearch = SearchOf<typeof PlaybooksSearch>;

/** Drops empty filters so the URL stays short. */
export function cleanPlaybookFilters<T extends object>(f: T): Partial<T> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}
