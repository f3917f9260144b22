/**
 * The audit-log explorer: filters in the URL (time range, order, action, principal, organization), the
 * entries on the data table (virtualized, the next page loading as it scrolls, the time header sorting through
 * the URL's order), an entry's detail with its data as JSON (Enter or a click on the row), and export of the
 * current query.
 */
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { KNOWN_AUDIT_ACTIONS, type AuditLogEntry } from '@/api/operations/audit-logs';
import { Badge, type Tone } from '@/components/badge';
import { Button } from '@/components/ui/button';
import { columnHelper, DataTable } from '@/components/data-table';
import { Select } from '@/components/ui/select';
import { PageHeader } from '@/components/page-header';
import { SavedViews } from '@/components/saved-views';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { cn } from '@/lib/cn';
import { formatDateTime, formatUtc } from '@/lib/format';
import { auditLogKeys, auditLogsInfiniteQueryOptions } from './api';
import { EntryDetail } from './entry-detail';
import { ExportPanel } from './export-panel';
import { parsePrincipalValue, principalValue, resolveBounds, toFilters, type AuditLogSearch } from './search';
import { RangeSummary, TimeRangePicker } from './time-range-picker';
import { FilterBar } from '@/components/filter-bar';
import { OrderToggle } from '@/components/order-toggle';
import { Switch } from '@/components/ui/switch';
import type { ActivityEntry } from '@/api/console/activity';
import { personLabel, useConsolePeople } from './console-people';

/** Every row is this tall (one line each): no measuring, the cheapest scrolling over 10,000+ entries. */
const ROW_HEIGHT = 45;

/** A one-line preview of `data`: its first few scalar fields. */
export function summarizeData(data: Record<string, unknown> | null | undefined): string {
  if (!data) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(data)) {
    if (v === null || typeof v === 'object') continue;
    parts.push(`${k}: ${String(v)}`);
    if (parts.length === 3) break;
  }
  return parts.join(' · ');
}

interface PrincipalOption {
  value: string;
  label: string;
}

function collectPrincipals(items: readonly AuditLogEntry[], current: string): PrincipalOption[] {
  const map = new Map<string, string>();
  for (const e of items) {
    if (e.service_user_id && !map.has(`service_user:${e.service_user_id}`)) {
      map.set(`service_user:${e.service_user_id}`, `${e.service_user_name || e.service_user_id} (service user)`);
    }
    if (e.user_id && !map.has(`user:${e.user_id}`)) map.set(`user:${e.user_id}`, `${e.user_email || e.user_id} (user)`);
  }
  if (current && !map.has(current))
    map.set(current, current.replace(/^service_user:/, 'service user ').replace(/^user:/, 'user '));
  return [...map].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
}

/** Who acted, on one line: the user, the service user, both ("user via service user"), or the system. */
export function principalLabel(e: AuditLogEntry): string {
  const user = e.user_id ? e.user_email || e.user_id : '';
  const service = e.service_user_id ? e.service_user_name || e.service_user_id : '';
  if (user && service) return `${user} via ${service}`;
  return user || service || 'System';
}

function actionTone(action: string): Tone {
  if (action.startsWith('delete') || action.startsWith('reject') || action.startsWith('terminate')) return 'danger';
  return action.startsWith('create') ? 'success' : 'neutral';
}

const col = columnHelper<AuditLogEntry>();

function entryColumns(
  orgNames: ReadonlyMap<string, string>,
  open: (e: AuditLogEntry) => void,
  people: ReadonlyMap<string, ActivityEntry>,
) {
  return col.columns([
    col.accessor('created_at', {
      header: 'Time',
      // The API orders by time (`order`): the header sorts through the URL.
      enableSorting: true,
      enableHiding: false,
      meta: {
        width: 'minmax(13rem,1.2fr)',
        className: 'truncate tabular-nums',
        cellTitle: (e: AuditLogEntry) => `${formatUtc(e.created_at)} (UTC)`,
      },
      cell: ({ getValue }) => formatDateTime(getValue()),
    }),
    col.accessor('action', {
      header: 'Action',
      meta: { width: 'minmax(10rem,1fr)', className: 'truncate' },
      cell: ({ getValue }) => <Badge tone={actionTone(getValue())}>{getValue()}</Badge>,
    }),
    col.display({
      id: 'principal',
      header: 'Principal',
      meta: { width: 'minmax(11rem,1.3fr)', className: 'truncate' },
      cell: ({ row: { original: e } }) => {
        const person = people.get(e.audit_log_id);
        // Beside the console's activity: the person whose write it was, then the credential the console used.
        if (person) {
          return (
            <span
              title={`Made through the console by ${personLabel(person)} (${person.operation_id}); the API saw ${principalLabel(e)}`}
            >
              <span className="font-medium">{personLabel(person)}</span>
              <span className="text-muted"> via {principalLabel(e)}</span>
            </span>
          );
        }
        return <span className={cn(!e.user_id && !e.service_user_id && 'text-muted')}>{principalLabel(e)}</span>;
      },
    }),
    col.display({
      id: 'organization',
      header: 'Organization',
      meta: { width: 'minmax(9rem,1fr)', className: 'truncate' },
      cell: ({ row: { original: e } }) =>
        e.org_id ? (orgNames.get(e.org_id) ?? e.org_id) : <span className="text-muted">Enterprise</span>,
    }),
    col.display({
      id: 'data',
      header: 'Data',
      meta: { width: 'minmax(12rem,2fr)', className: 'truncate font-mono text-xs text-muted' },
      cell: ({ row }) => summarizeData(row.original.data),
    }),
    col.display({
      id: 'details',
      header: () => <span className="sr-only">Details</span>,
      enableHiding: false,
      meta: { width: '5rem', label: 'Details' },
      cell: ({ row: { original: e } }) => (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => open(e)}
          aria-label={`Details of ${e.action} at ${formatDateTime(e.created_at)}`}
        >
          Details
        </Button>
      ),
    }),
  ]);
}

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
  const id = useId();

  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const consolePeople = useConsolePeople(items, showPeople);
  const peopleKey = [...consolePeople.people].map(([k, v]) => `${k}:${v.id}`).join(',');
  const firstPage = query.data?.pages[0];
  const bounds = firstPage?.bounds;
  const orgNames = useMemo(
    () => new Map(orgsQuery.data?.pages.flatMap((p) => p.items).map((o) => [o.org_id, o.name]) ?? []),
    [orgsQuery.data],
  );
  const currentPrincipal = principalValue(search);
  const principals = useMemo(() => collectPrincipals(items, currentPrincipal), [items, currentPrincipal]);
  const actions = useMemo(() => {
    const set = new Set<string>(KNOWN_AUDIT_ACTIONS);
    for (const e of items.slice(0, 2_000)) set.add(e.action);
    if (search.action) set.add(search.action);
    return [...set].sort();
  }, [items, search.action]);
  const filtered = !!(search.action || currentPrincipal || search.org_id || search.range !== 'all');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- peopleKey stands for the map's content.
  const columns = useMemo(() => entryColumns(orgNames, setSelected, consolePeople.people), [orgNames, peopleKey]);
  const sorting = useMemo(() => [{ id: 'created_at', desc: search.order === 'desc' }], [search.order]);
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
              <div className="flex w-full flex-col gap-1 sm:w-56">
                <label htmlFor={`${id}-action`} className="text-sm font-medium">
                  Action
                </label>
                <Select
                  id={`${id}-action`}
                  value={search.action ?? ''}
                  options={actionOptions}
                  onValueChange={(v) => onSearchChange({ action: v || undefined })}
                />
              </div>
              <div className="flex w-full flex-col gap-1 sm:w-64">
                <label htmlFor={`${id}-principal`} className="text-sm font-medium">
                  Principal
                </label>
                <Select
                  id={`${id}-principal`}
                  value={currentPrincipal}
                  options={principalOptions}
                  onValueChange={(v) => onSearchChange(parsePrincipalValue(v))}
                />
              </div>
              <div className="flex w-full flex-col gap-1 sm:w-52">
                <label htmlFor={`${id}-scope`} className="text-sm font-medium">
                  Scope
                </label>
                <Select
                  id={`${id}-scope`}
                  value={search.org_id ?? ''}
                  options={scopeOptions}
                  onValueChange={(v) => onSearchChange({ org_id: v || undefined })}
                />
              </div>
              {filtered && (
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
