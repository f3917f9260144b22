/**
 * The findings screen's filters: severity and status as toggle groups, repository and organization as selects,
 * and Clear filters; inline on a wide screen, folded behind one button on a narrow one.
 */
import { useId } from 'react';
import { FINDING_SEVERITIES, FINDING_STATUSES } from '@/api/operations/code-scans';
import { FilterBar } from '@/components/filter-bar';
import { FilterPanel } from '@/components/filter-panel';
import { FilterSelect } from '@/components/filter-select';
import { Button } from '@/components/ui/button';
import { hasFilters, joinList, splitList, type FindingsSearch } from './search';

function ToggleGroup({
  label,
  values,
  selected,
  onChange,
}: {
  label: string;
  values: readonly string[];
  selected: string[];
  onChange: (next: string[]) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <span id={id} className="text-sm font-medium">
        {label}
      </span>
      <div role="group" aria-labelledby={id} className="flex flex-wrap gap-1">
        {values.map((v) => {
          const on = selected.includes(v);
          return (
            <Button
              key={v}
              size="sm"
              variant={on ? 'primary' : 'secondary'}
              aria-pressed={on}
              onClick={() => onChange(on ? selected.filter((x) => x !== v) : [...selected, v])}
            >
              {v}
            </Button>
          );
        })}
      </div>
    </div>
  );
}

export function FindingsFilters({
  search,
  onSearchChange,
  repositories,
  organizations,
  orgNames,
}: {
  search: FindingsSearch;
  onSearchChange: (patch: Partial<FindingsSearch>) => void;
  /** Every repository known: of the scans, of the findings loaded, and the one filtered by. */
  repositories: string[];
  organizations: ReadonlyArray<{ org_id: string; name: string }>;
  orgNames: ReadonlyMap<string, string>;
}) {
  const orgFilter = splitList(search.org)[0] ?? '';
  const active = [search.severity, search.status, search.repository, search.org].filter(Boolean).length;
  return (
    <FilterBar active={active} showLabel="Show findings">
      {(narrow) => (
        <FilterPanel narrow={narrow}>
          <ToggleGroup
            label="Severity"
            values={FINDING_SEVERITIES}
            selected={splitList(search.severity)}
            onChange={(v) => onSearchChange({ severity: joinList(v) })}
          />
          <ToggleGroup
            label="Status"
            values={FINDING_STATUSES}
            selected={splitList(search.status)}
            onChange={(v) => onSearchChange({ status: joinList(v) })}
          />
          <FilterSelect
            className="w-full sm:w-60"
            label="Repository"
            value={search.repository ?? ''}
            options={[{ value: '', label: 'All repositories' }, ...repositories.map((r) => ({ value: r, label: r }))]}
            onValueChange={(v) => onSearchChange({ repository: v || undefined })}
          />
          <FilterSelect
            className="w-full sm:w-52"
            label="Organization"
            value={orgFilter}
            options={[
              { value: '', label: 'All organizations' },
              ...organizations.map((o) => ({ value: o.org_id, label: o.name })),
              ...(orgFilter && !orgNames.has(orgFilter) ? [{ value: orgFilter, label: orgFilter }] : []),
            ]}
            onValueChange={(v) => onSearchChange({ org: v || undefined })}
          />
          {hasFilters(search) && (
            <Button
              size="sm"
              variant="ghost"
              onClick={() =>
                onSearchChange({ severity: undefined, status: undefined, repository: undefined, org: undefined })
              }
            >
              Clear filters
            </Button>
          )}
        </FilterPanel>
      )}
    </FilterBar>
  );
}
