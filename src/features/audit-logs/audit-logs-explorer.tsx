/**
 * The audit-log explorer: filters in the URL (time range, order, action, principal, organization), the
 * entries on the data table (virtualized, the next page loading as it scrolls, the time header sorting through
 * the URL's order), an entry's detail with its data as JSON (Enter or a click on the row), and export of the
 * current query.
 */
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { AuditLogEntry } from '@/api/operations/audit-logs';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { SavedViews } from '@/components/saved-views';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { cn } from '@/lib/cn';
import { Switch } from '@/components/ui/switch';
import { auditLogKeys, auditLogsInfiniteQueryOptions } from './api';
import { AuditLogFilters, isFiltered } from './audit-log-filters';
import { useConsolePeople } from './console-people';
import { entryColumns } from './entry-columns';
import { EntryDetail } from './entry-detail';
import { toFilters, type AuditLogSearch } from './search';

export { principalLabel, summarizeData } from './entry-columns';

/** Every row is this tall (one line each): no measuring, the cheapest scrolling over 10,000+ entries. */
const ROW_HEIGHT = 45;

/** Every key of the search set to undefined: opening a saved view replaces the filters, not merges into them. */
function clearedSearch(search: AuditLogSearch): Partial<AuditLogSearch> {
  return Object.fromEntries(Object.keys(search).map((k) => [k, undefined])) as Partial<AuditLogSearch>;
}

export function AuditLogsExplorer({
  search,
  onSearchChange,
}: {
  search: AuditLogSearch;
  onSearchChange: (patch: Partial<AuditLogSearch>) => void;
}) {
  const filters = useMemo(() => toFilters(search), [search]);
  const query = useInfiniteQuery(auditLogsInfiniteQueryOptions(filters));
  const queryClient = useQueryClient();
  const orgsQuery = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const [selected, setSelected] = useState<AuditLogEntry | null>(null);
  const [showPeople, setShowPeople] = useState(false);

  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const consolePeople = useConsolePeople(items, showPeople);
  const peopleKey = [...consolePeople.people].map(([k, v]) => `${k}:${v.id}`).join(',');
  const firstPage = query.data?.pages[0];
  const bounds = firstPage?.bounds;
  const orgNames = useMemo(
    () => new Map(orgsQuery.data?.pages.flatMap((p) => p.items).map((o) => [o.org_id, o.name]) ?? []),
    [orgsQuery.data],
  );
  const filtered = isFiltered(search);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- peopleKey stands for the map's content.
  const columns = useMemo(() => entryColumns(orgNames, setSelected, consolePeople.people), [orgNames, peopleKey]);
  const sorting = useMemo(() => [{ id: 'created_at', desc: search.order === 'desc' }], [search.order]);

  return (
    <>
      <PageHeader
        title="Audit logs"
        description="Who changed what, and when, across the enterprise. Times are in your local time zone, with UTC alongside."
        actions={
          <>
            <label className="flex items-center gap-2 text-sm">
              <Switch checked={showPeople} onCheckedChange={setShowPeople} />
              People behind the console
            </label>
            <SavedViews
              screen="audit-logs"
              current={search}
              onOpen={(view) => onSearchChange({ ...clearedSearch(search), ...view })}
            />
            <Button
              size="sm"
              onClick={() => void queryClient.resetQueries({ queryKey: auditLogKeys.infinite(filters) })}
              disabled={query.isFetching}
            >
              <RefreshCw className={cn('size-3.5', query.isFetching && 'animate-spin')} aria-hidden />
              Refresh
            </Button>
          </>
        }
      />
      <AuditLogFilters
        search={search}
        onSearchChange={onSearchChange}
        filters={filters}
        items={items}
        bounds={bounds}
        orgNames={orgNames}
      />
      {showPeople && (
        <p role="status" className="mb-2 text-sm text-muted">
          {consolePeople.pending
            ? 'Reading Console activity…'
            : consolePeople.error
              ? 'Console activity could not be read (your console role may not allow ViewAccountAuditLogs): entries show the API’s principal only.'
              : `Entries the console made show the person who made them, from Console activity (${consolePeople.people.size} of the loaded entries).`}
        </p>
      )}
      <DataTable
        label="Audit-log entries"
        tableId="audit-logs"
        columns={columns}
        query={query}
        getRowId={(e) => e.audit_log_id}
        manualSorting
        sorting={sorting}
        onSortingChange={(next) => onSearchChange({ order: next[0]?.desc === false ? 'asc' : 'desc' })}
        onRowOpen={setSelected}
        fixedRowHeight
        estimateRowHeight={ROW_HEIGHT}
        minWidth="62rem"
        empty={{
          title: 'No audit-log entries match these filters',
          hint: filtered
            ? 'Widen the time range or clear a filter.'
            : 'Entries appear here as admins and service users make changes.',
        }}
        className="h-[calc(100dvh-22rem)] min-h-96"
      />
      <EntryDetail
        entry={selected}
        orgName={(id) => orgNames.get(id)}
        onClose={() => setSelected(null)}
        onFilterPrincipal={(p) => {
          setSelected(null);
          onSearchChange({ service_user_id: p.service_user_id, user_id: p.user_id });
        }}
      />
    </>
  );
}
