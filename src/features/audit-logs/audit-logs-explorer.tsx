/**
 * The audit-log explorer: filters in the URL (time range, order, action, principal, organization), a
 * virtualized infinite list that loads pages as it scrolls, an entry's detail with its data as JSON, and
 * export of the current query.
 */
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDownWideNarrow, ArrowUpNarrowWide, RefreshCw } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { KNOWN_AUDIT_ACTIONS, type AuditLogEntry } from '@/api/operations/audit-logs';
import { Badge } from '@/components/badge';
import { Button } from '@/components/button';
import { CursorList, cursorListState } from '@/components/cursor-list';
import { inputClass } from '@/components/field';
import { PageHeader } from '@/components/page-header';
import { organizationsInfiniteQueryOptions } from '@/features/organizations/api';
import { cn } from '@/lib/cn';
import { formatDateTime, formatUtc } from '@/lib/format';
import { auditLogKeys, auditLogsInfiniteQueryOptions } from './api';
import { EntryDetail } from './entry-detail';
import { ExportPanel } from './export-panel';
import { parsePrincipalValue, principalValue, resolveBounds, toFilters, type AuditLogSearch } from './search';
import { RangeSummary, TimeRangePicker } from './time-range-picker';

const COLUMNS = 'minmax(13rem,1.2fr) minmax(10rem,1fr) minmax(11rem,1.3fr) minmax(9rem,1fr) minmax(12rem,2fr) 5rem';

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
  const id = useId();

  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
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

  return (
    <>
      <PageHeader
        title="Audit logs"
        description="Who changed what, and when, across the enterprise. Times are in your local time zone, with UTC alongside."
        actions={
          <Button
            size="sm"
            onClick={() => void queryClient.resetQueries({ queryKey: auditLogKeys.infinite(filters) })}
            disabled={query.isFetching}
          >
            <RefreshCw className={cn('size-3.5', query.isFetching && 'animate-spin')} aria-hidden />
            Refresh
          </Button>
        }
      />
      <section aria-label="Filters" className="mb-3 flex flex-col gap-3 rounded-lg border border-line bg-surface p-3">
        <TimeRangePicker
          key={`${search.range}:${search.time_after}:${search.time_before}`}
          value={{ range: search.range, time_after: search.time_after, time_before: search.time_before }}
          bounds={bounds}
          onChange={(v) => onSearchChange({ range: v.range, time_after: v.time_after, time_before: v.time_before })}
        />
        <RangeSummary bounds={bounds} range={search.range} />
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1">
            <span className="text-sm font-medium" id="audit-order-label">
              Order
            </span>
            <div role="group" aria-labelledby="audit-order-label" className="flex gap-1">
              <Button
                size="sm"
                variant={search.order === 'desc' ? 'primary' : 'secondary'}
                aria-pressed={search.order === 'desc'}
                onClick={() => onSearchChange({ order: 'desc' })}
              >
                <ArrowDownWideNarrow className="size-3.5" aria-hidden />
                Newest first
              </Button>
              <Button
                size="sm"
                variant={search.order === 'asc' ? 'primary' : 'secondary'}
                aria-pressed={search.order === 'asc'}
                onClick={() => onSearchChange({ order: 'asc' })}
              >
                <ArrowUpNarrowWide className="size-3.5" aria-hidden />
                Oldest first
              </Button>
            </div>
          </div>
          <div className="flex w-full flex-col gap-1 sm:w-auto">
            <label htmlFor={`${id}-action`} className="text-sm font-medium">
              Action
            </label>
            <select
              id={`${id}-action`}
              className={cn(inputClass, 'w-full font-normal sm:w-56')}
              value={search.action ?? ''}
              onChange={(e) => onSearchChange({ action: e.target.value || undefined })}
            >
              <option value="">All actions</option>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <div className="flex w-full flex-col gap-1 sm:w-auto">
            <label htmlFor={`${id}-principal`} className="text-sm font-medium">
              Principal
            </label>
            <select
              id={`${id}-principal`}
              className={cn(inputClass, 'w-full font-normal sm:w-64')}
              value={currentPrincipal}
              onChange={(e) => onSearchChange(parsePrincipalValue(e.target.value))}
            >
              <option value="">Any principal</option>
              {principals.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex w-full flex-col gap-1 sm:w-auto">
            <label htmlFor={`${id}-scope`} className="text-sm font-medium">
              Scope
            </label>
            <select
              id={`${id}-scope`}
              className={cn(inputClass, 'w-full font-normal sm:w-52')}
              value={search.org_id ?? ''}
              onChange={(e) => onSearchChange({ org_id: e.target.value || undefined })}
            >
              <option value="">Whole enterprise</option>
              {[...orgNames].map(([orgId, name]) => (
                <option key={orgId} value={orgId}>
                  {name}
                </option>
              ))}
              {search.org_id && !orgNames.has(search.org_id) && <option value={search.org_id}>{search.org_id}</option>}
            </select>
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
            <ExportPanel filters={filters} bounds={() => bounds ?? resolveBounds(filters, Date.now())} />
          </div>
        </div>
      </section>
      <CursorList
        ariaLabel="Audit-log entries"
        items={items}
        getKey={(e) => e.audit_log_id}
        columns={COLUMNS}
        minWidth="62rem"
        estimateSize={45}
        header={
          <>
            <span role="columnheader">Time</span>
            <span role="columnheader">Action</span>
            <span role="columnheader">Principal</span>
            <span role="columnheader">Organization</span>
            <span role="columnheader">Data</span>
            <span role="columnheader">
              <span className="sr-only">Details</span>
            </span>
          </>
        }
        renderRow={(e) => (
          <>
            <span role="cell" className="truncate tabular-nums" title={`${formatUtc(e.created_at)} (UTC)`}>
              {formatDateTime(e.created_at)}
            </span>
            <span role="cell" className="truncate">
              <Badge
                tone={
                  e.action.startsWith('delete') || e.action.startsWith('reject') || e.action.startsWith('terminate')
                    ? 'danger'
                    : e.action.startsWith('create')
                      ? 'success'
                      : 'neutral'
                }
              >
                {e.action}
              </Badge>
            </span>
            <span role="cell" className={cn('truncate', !e.user_id && !e.service_user_id && 'text-muted')}>
              {principalLabel(e)}
            </span>
            <span role="cell" className="truncate">
              {e.org_id ? (orgNames.get(e.org_id) ?? e.org_id) : <span className="text-muted">Enterprise</span>}
            </span>
            <span role="cell" className="truncate font-mono text-xs text-muted">
              {summarizeData(e.data)}
            </span>
            <span role="cell">
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setSelected(e)}
                aria-label={`Details of ${e.action} at ${formatDateTime(e.created_at)}`}
              >
                Details
              </Button>
            </span>
          </>
        )}
        total={firstPage?.total}
        {...cursorListState(query)}
        emptyTitle="No audit-log entries match these filters"
        emptyHint={
          filtered
            ? 'Widen the time range or clear a filter.'
            : 'Entries appear here as admins and service users make changes.'
        }
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
