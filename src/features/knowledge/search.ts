/** The knowledge lists' URL search: every filter lives in the URL, so links can be shared. */
import { NOTE_ACCESS_TYPES } from '@/api/values';
import { defineSearch, oneOf, text, type SearchOf } from '@/lib/search-params';

const filter = text({ trim: true });

/** The organization's list holds the organization's org notes only: no access_type filter. */
export const OrgNotesSearch = defineSearch({
  operation: 'knowledge.list',
  fields: { search: filter, folder_path: filter, pinned_repo: filter },
});

export const NotesSearch = defineSearch({
  operation: 'knowledge.enterprise.list',
  fields: { ...OrgNotesSearch.fields, access_type: oneOf(NOTE_ACCESS_TYPES) },
});
export type NotesSearch = SearchOf<typeof NotesSearch>;

/** Drops empty filters so the URL stays short. */
export function cleanFilters<T extends object>(f: T): Partial<T> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}
