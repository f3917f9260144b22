/**
 * The audit-log explorer's filters, written to the URL: the time range (with what it covers), the order, the
 * action, the principal and the organization, Clear filters, and the export of the current query; folded
 * behind one button on a phone.
 */
import { useMemo } from 'react';
import { KNOWN_AUDIT_ACTIONS, type AuditLogEntry } from '@/api/operations/audit-logs';
import { FilterBar } from '@/components/filter-bar';
import { FilterSelect } from '@/components/filter-select';
import { OrderToggle } from '@/components/order-toggle';
import { Button } from '@/components/ui/button';
import { collectPrincipals } from './entry-columns';
import { ExportPanel } from './export-panel';
import {
  parsePrincipalValue,
  principalValue,
  resolveBounds,
  type AuditLogFilters,
  type AuditLogSearch,
  type ResolvedBounds,
} from './search';
import { RangeSummary, TimeRangePicker } from './time-range-picker';

/** Whether any filter narrows the entries (the time range counts unless it is "all"). */
export function isFiltered(search: AuditLogSearch): boolean {
  return !!(search.action || principalValue(search) || search.org_id || search.range !== 'all');
}

export function AuditLogFilters({
  search,
  onSearchChange,
  filters,
  items,
  bounds,
  orgNames,
}: {
  search: AuditLogSearch;
  onSearchChange: (patch: Partial<AuditLogSearch>) => void;
  /** The API's filters the search makes (the export uses them as they are). */
  filters: AuditLogFilters;
  /** The loaded entries: their actions and principals become choices. */
  items: readonly AuditLogEntry[];
  /** What the current query covers, as the API answered it. */
  bounds: ResolvedBounds | undefined;
  orgNames: ReadonlyMap<string, string>;
}) {
  const currentPrincipal = principalValue(search);
  const principals = useMemo(() => collectPrincipals(items, currentPrincipal), [items, currentPrincipal]);
  const actions = useMemo(() => {
    const set = new Set<string>(KNOWN_AUDIT_ACTIONS);
    for (const e of items.slice(0, 2_000)) set.add(e.action);
    if (search.action) set.add(search.action);
    return [...set].sort();
  }, [items, search.action]);
  const actionOptions = useMemo(
    () => [{ value: '', label: 'All actions' }, ...actions.map((a) => ({ value: a, label: a }))],
    [actions],
  );
  const principalOptions = useMemo(() => [{ value: '', label: 'Any principal' }, ...principals], [principals]);
  const scopeOptions = useMemo(() => {
    const options = [
      { value: '', label: 'Whole enterprise' },
      ...[...orgNames].map(([value, label]) => ({ value, label })),
    ];
    if (search.org_id && !orgNames.has(search.org_id)) options.push({ value: search.org_id, label: search.org_id });
    return options;
  }, [orgNames, search.org_id]);

  return (
    <FilterBar
      active={
        [search.range !== 'all', search.action, search.org_id, search.user_id, search.service_user_id].filter(Boolean)
          .length
      }
      showLabel="Show entries"
    >
      {(narrow) => (
        <section
          aria-label="Filters"
          className={
            narrow ? 'flex flex-col gap-3' : 'mb-3 flex flex-col gap-3 rounded-lg border border-line bg-surface p-3'
          }
        >
          <TimeRangePicker
            key={`${search.range}:${search.time_after}:${search.time_before}`}
            value={{ range: search.range, time_after: search.time_after, time_before: search.time_before }}
            bounds={bounds}
            onChange={(v) => onSearchChange({ range: v.range, time_after: v.time_after, time_before: v.time_before })}
          />
          <RangeSummary bounds={bounds} range={search.range} />
          <div className="flex flex-wrap items-end gap-3">
            <OrderToggle value={search.order} onChange={(order) => onSearchChange({ order })} />
            <FilterSelect
              className="w-full sm:w-56"
              label="Action"
              value={search.action ?? ''}
              options={actionOptions}
              onValueChange={(v) => onSearchChange({ action: v || undefined })}
            />
            <FilterSelect
              className="w-full sm:w-64"
              label="Principal"
              value={currentPrincipal}
              options={principalOptions}
              onValueChange={(v) => onSearchChange(parsePrincipalValue(v))}
            />
            <FilterSelect
              className="w-full sm:w-52"
              label="Scope"
              value={search.org_id ?? ''}
              options={scopeOptions}
              onValueChange={(v) => onSearchChange({ org_id: v || undefined })}
            />
            {isFiltered(search) && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  onSearchChange({
                    range: 'all',
                    time_after: undefined,
                    time_before: undefined,
                    action: undefined,
                    service_user_id: undefined,
                    user_id: undefined,
                    org_id: undefined,
                  })
                }
              >
                Clear filters
              </Button>
            )}
            <div className="ml-auto">
              <ExportPanel
                filters={filters}
                bounds={() => bounds ?? resolveBounds(filters, Date.now())}
                orgNames={orgNames}
              />
            </div>
          </div>
        </section>
      )}
    </FilterBar>
  );
}
