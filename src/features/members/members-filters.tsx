/**
 * The members screen's filters, written to the URL: a search by address or name, a role, and on the
 * enterprise list an organization; folded behind one button on a phone.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ClearFilters, FilterBar, FilterFields, FilterText } from '@/components/filter-bar';
import { FilterSelect } from '@/components/filter-select';
import { useDebouncedInput } from '@/lib/debounce';
import { rolesQueryOptions } from './api';
import type { MembersSearch, OrgMembersSearch } from './search';
import type { OrgDirectory } from './shared';

export type MembersScreenSearch = MembersSearch & Partial<Pick<OrgMembersSearch, 'via'>>;

export function MembersFilters({
  orgId,
  orgs,
  search,
  onSearchChange,
}: {
  /** The screen's organization; the enterprise list filters by organization instead. */
  orgId: string | undefined;
  orgs: OrgDirectory;
  search: MembersScreenSearch;
  onSearchChange: (next: MembersScreenSearch) => void;
}) {
  const roles = useQuery(rolesQueryOptions());
  const set = (patch: Partial<MembersScreenSearch>) => onSearchChange({ ...search, ...patch });
  const [q, setQ] = useDebouncedInput(search.q ?? '', (v) => set({ q: v.trim() || undefined }));
  const filtered = !!(search.q || search.role || search.org);
  const roleOptions = useMemo(
    () => [
      { value: '', label: 'Any role' },
      ...(roles.data ?? []).map((r) => ({
        value: r.role_id,
        label: `${r.role_name} (${r.role_type === 'org' ? 'organization' : 'enterprise'})`,
        textValue: r.role_name,
      })),
    ],
    [roles.data],
  );
  return (
    <FilterBar active={[search.q, search.role, search.org].filter(Boolean).length} showLabel="Show members">
      {(narrow) => (
        <FilterFields label="Filter members" narrow={narrow}>
          <FilterText
            search
            label="Search"
            className="min-w-56 flex-1"
            placeholder="Address or name"
            value={q}
            onChange={setQ}
          />
          <FilterSelect
            className={narrow ? '' : 'w-60'}
            label="Role"
            value={search.role ?? ''}
            options={roleOptions}
            onValueChange={(v) => set({ role: v || undefined })}
          />
          {!orgId && (
            <FilterSelect
              className={narrow ? '' : 'w-56'}
              label="Organization"
              value={search.org ?? ''}
              options={[
                { value: '', label: 'Any organization' },
                ...orgs.organizations.map((o) => ({ value: o.org_id, label: o.name })),
              ]}
              onValueChange={(v) => set({ org: v || undefined })}
            />
          )}
          <ClearFilters shown={filtered} onClear={() => onSearchChange(orgId ? { via: search.via } : {})} />
        </FilterFields>
      )}
    </FilterBar>
  );
}
