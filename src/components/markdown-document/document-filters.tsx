/**
 * The filters knowledge notes and playbooks share on their lists: the search box (committed after a pause in
 * typing), the access-type filter on the enterprise's lists, the list's own further fields, and Clear filters;
 * folded behind one button on a narrow screen. And what the list says when it is empty.
 */
import type { ReactNode } from 'react';
import { useDebouncedInput } from '@/lib/debounce';
import { ClearFilters, FilterBar, FilterFields, FilterText } from '../filter-bar';
import { AccessTypeFilter, type DocumentAccessType } from './access';

export interface DocumentListFilters {
  search?: string;
  access_type?: DocumentAccessType;
}

export function DocumentFilters({
  plural,
  enterprise,
  filters,
  onFiltersChange,
  searchPlaceholder,
  counted = [],
  filtered,
  children,
}: {
  /** What the list holds, in the filters' names: "notes" makes "Filter notes" and "Show notes". */
  plural: string;
  /** The enterprise's list, which shows both access types and so filters by them. */
  enterprise: boolean;
  /** The list's filters (its own among them, kept as they are on a change). */
  filters: DocumentListFilters;
  onFiltersChange: (next: DocumentListFilters) => void;
  searchPlaceholder: string;
  /** The values of the list's own fields, counted on the folded button when set. */
  counted?: readonly unknown[];
  /** Whether any filter is set (Clear filters shown); by default, whether any counted one is. */
  filtered?: boolean;
  /** The list's own fields, after the access type. */
  children?: ReactNode;
}) {
  const set = (patch: DocumentListFilters) => onFiltersChange({ ...filters, ...patch });
  const [search, setSearch] = useDebouncedInput(filters.search ?? '', (v) => set({ search: v.trim() || undefined }));
  const active = [filters.search, filters.access_type, ...counted].filter(Boolean).length;
  return (
    <FilterBar active={active} showLabel={`Show ${plural}`}>
      {(narrow) => (
        <FilterFields label={`Filter ${plural}`} narrow={narrow}>
          <FilterText search label="Search" placeholder={searchPlaceholder} value={search} onChange={setSearch} />
          {enterprise && (
            <AccessTypeFilter value={filters.access_type} onChange={(access_type) => set({ access_type })} />
          )}
          {children}
          <ClearFilters shown={filtered ?? active > 0} onClear={() => onFiltersChange({})} />
        </FilterFields>
      )}
    </FilterBar>
  );
}

/** The empty list's title and hint: nothing matches the filters, or there is nothing yet (and how to begin). */
export function documentListEmpty(filtered: boolean, text: { noMatch: string; none: string; first: string }) {
  return filtered
    ? { title: text.noMatch, hint: 'Change or clear the filters.' }
    : { title: text.none, hint: text.first };
}
