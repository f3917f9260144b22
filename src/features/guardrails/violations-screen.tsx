/**
 * Guardrail violations, enterprise-wide or of one organization: filters in the URL (guardrail, action, session,
 * time range, order), the violations on the data table (confidence as a bar, the triggering message expandable,
 * a link to the session), a chart of violations per billing day by guardrail with a table as its text
 * alternative, and a CSV export of the filtered list.
 */
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Download, RefreshCw } from 'lucide-react';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { GUARDRAIL_ACTIONS, type GuardrailViolation } from '@/api/operations/guardrails';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper, DataTable } from '@/components/data-table';
import { FilterBar } from '@/components/filter-bar';
import { OrderToggle } from '@/components/order-toggle';
import { PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { DateTimeInput } from '@/components/ui/date-time-input';
import { FilterSelect } from '@/components/filter-select';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { downloadText } from '@/lib/download';
import { formatDateTime, formatNumber, formatUtc } from '@/lib/format';
import { fromLocalInput, toLocalInput } from '@/lib/local-date-time';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import {
  ENTERPRISE,
  everyViolation,
  everyViolationQueryOptions,
  guardrailKeys,
  guardrailsQueryOptions,
  violationsInfiniteQueryOptions,
  type ViolationScope,
} from './api';
import { BILLING_DAY_NOTE, perDayByGuardrail, type DayRow } from './billing-day';
import { exportFileName, violationsCsv } from './export';
import {
  ACTION_LABELS,
  hasFilters,
  RANGE_PRESETS,
  RANGES,
  resolveBounds,
  toFilters,
  type Range,
  type ViolationSearch,
} from './search';

const ViolationsChart = lazy(() => import('./violations-chart'));

/** Distinguishable in light and dark themes. */
const SERIES_COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777', '#65a30d'];

const ACTION_TONES: Record<string, Tone> = {
  log_only: 'neutral',
  warn_user: 'warn',
  block_message: 'accent',
  kill_session: 'danger',
};

const RANGE_LABELS: Record<Range, string> = {
  all: 'All time',
  ...Object.fromEntries(Object.entries(RANGE_PRESETS).map(([k, v]) => [k, v.label])),
  custom: 'Custom range',
} as Record<Range, string>;

function ConfidenceBar({ value }: { value: number }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <span className="flex items-center gap-2" title={`Confidence ${value}`}>
      <span className="h-2 w-16 shrink-0 overflow-hidden rounded-full bg-surface-2" aria-hidden>
        <span
          className={cn('block h-full rounded-full', pct >= 80 ? 'bg-danger' : pct >= 50 ? 'bg-warn' : 'bg-muted')}
          style={{ width: `${pct}%` }}
        />
      </span>
      <span className="text-xs tabular-nums">{pct}%</span>
    </span>
  );
}

const col = columnHelper<GuardrailViolation>();

function violationColumns(scope: ViolationScope, orgNames: ReadonlyMap<string, string>) {
  return col.columns([
    col.accessor('created_at', {
      header: 'Time',
      enableSorting: true,
      enableHiding: false,
      meta: {
        width: 'minmax(12.5rem,1fr)',
        className: 'text-xs tabular-nums',
        cellTitle: (v: GuardrailViolation) => `${formatUtc(v.created_at)} (UTC)`,
      },
      cell: ({ getValue }) => formatDateTime(getValue()),
    }),
    col.accessor('guardrail_name', {
      header: 'Guardrail',
      meta: { width: 'minmax(10rem,1.2fr)' },
      cell: ({ row: { original: v } }) => (
        <span className="flex min-w-0 flex-col">
          <span className="truncate font-medium">{v.guardrail_name}</span>
          {v.guardrail_type && <span className="truncate font-mono text-xs text-muted">{v.guardrail_type}</span>}
        </span>
      ),
    }),
    ...(scope === ENTERPRISE
      ? [
          col.accessor((v) => orgNames.get(v.org_id) ?? v.org_id, {
            id: 'organization',
            header: 'Organization',
            meta: { width: 'minmax(8rem,1fr)', className: 'truncate text-xs' },
          }),
        ]
      : []),
    col.accessor('action_taken', {
      header: 'Action',
      meta: { width: '9.5rem' },
      cell: ({ getValue }) => (
        <Badge
          tone={ACTION_TONES[getValue()] ?? 'neutral'}
          title={(ACTION_LABELS as Record<string, string | undefined>)[getValue()] ?? getValue()}
        >
          {getValue()}
        </Badge>
      ),
    }),
    col.accessor('confidence_score', {
      header: 'Confidence',
      meta: { width: '8rem' },
      cell: ({ getValue }) => <ConfidenceBar value={getValue()} />,
    }),
    col.accessor('user_message', {
      header: 'Triggering message',
      meta: { width: 'minmax(14rem,3fr)', className: 'min-w-0' },
      cell: ({ row: { original: v } }) => (
        <details className="group min-w-0 text-sm">
          <summary className="cursor-pointer truncate rounded outline-offset-2 group-open:whitespace-normal">
            <span className="sr-only">Triggering message: </span>
            {v.user_message}
          </summary>
          <div className="mt-1 flex flex-col gap-1 rounded-md bg-surface-2 p-2 text-xs">
            <p className="break-words whitespace-pre-wrap">{v.user_message}</p>
            <p>
              <span className="font-semibold">Reasoning:</span> {v.reasoning}
            </p>
            <p className="font-mono text-muted">
              event {v.event_id} · violation {v.violation_id}
            </p>
          </div>
        </details>
      ),
    }),
    col.display({
      id: 'session',
      header: 'Session',
      meta: { width: 'minmax(9rem,1fr)', className: 'truncate' },
      cell: ({ row: { original: v } }) =>
        v.session_id ? (
          <Link
            to="/orgs/$orgId/sessions/$sessionId"
            params={{ orgId: v.org_id, sessionId: v.session_id }}
            className="font-mono text-xs text-accent underline underline-offset-2 hover:no-underline"
            aria-label={`Open session ${v.session_id}`}
            data-row-link
          >
            {v.session_id}
          </Link>
        ) : (
          <span className="text-muted">—</span>
        ),
    }),
  ]);
}

function DayTable({ rows, series }: { rows: readonly DayRow[]; series: ReadonlyArray<{ id: string; name: string }> }) {
  const shown = rows.filter((r) => r.total > 0);
  return (
    <div className="max-h-72 overflow-auto rounded-md border border-line">
      <table className="w-full text-left text-xs">
        <caption className="sr-only">Violations per billing day by guardrail. {BILLING_DAY_NOTE}</caption>
        <thead className="sticky top-0 bg-surface-2">
          <tr>
            <th scope="col" className="px-2 py-1.5 font-semibold">
              Billing day
            </th>
            {series.map((s) => (
              <th key={s.id} scope="col" className="px-2 py-1.5 text-right font-semibold">
                {s.name}
              </th>
            ))}
            <th scope="col" className="px-2 py-1.5 text-right font-semibold">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.day} className="border-t border-line">
              <th scope="row" className="px-2 py-1 font-normal whitespace-nowrap tabular-nums">
                {r.label}
              </th>
              {series.map((s) => (
                <td key={s.id} className="px-2 py-1 text-right tabular-nums">
                  {r.counts[s.id] ?? 0}
                </td>
              ))}
              <td className="px-2 py-1 text-right font-semibold tabular-nums">{r.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length === 0 && <p className="p-3 text-sm text-muted">No violations in this range.</p>}
    </div>
  );
}

function ChartSection({
  scope,
  search,
  onSearchChange,
}: {
  scope: ViolationScope;
  search: ViolationSearch;
  onSearchChange: (patch: Partial<ViolationSearch>) => void;
}) {
  const filters = useMemo(() => toFilters(search), [search]);
  const every = useQuery(everyViolationQueryOptions(scope, filters));
  const guardrails = useQuery(guardrailsQueryOptions());
  const items = every.data?.items;
  const bounds = every.data?.bounds;
  const rows = useMemo(
    () => (items ? perDayByGuardrail(items, { from: bounds?.time_after, to: bounds?.time_before }) : []),
    [items, bounds],
  );
  const series = useMemo(() => {
    const names = new Map<string, string>();
    for (const g of guardrails.data ?? []) names.set(g.guardrail_id, g.name);
    for (const v of items ?? []) if (!names.has(v.guardrail_id)) names.set(v.guardrail_id, v.guardrail_name);
    const used = new Set((items ?? []).map((v) => v.guardrail_id));
    // Colors follow each guardrail's place among all of them, so a guardrail keeps its color when filtered.
    return [...names]
      .map(([id, name], i) => ({ id, name, color: SERIES_COLORS[i % SERIES_COLORS.length]! }))
      .filter((s) => used.has(s.id));
  }, [guardrails.data, items]);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mb-4 rounded-lg border border-line bg-surface p-3">
      <div className="mb-2 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={headingId} className="text-base font-semibold">
            Violations per day by guardrail
          </h2>
          <p className="text-xs text-muted">
            {BILLING_DAY_NOTE}
            {items
              ? ` ${formatNumber(items.length)} ${items.length === 1 ? 'violation' : 'violations'} in this view.`
              : ''}
          </p>
        </div>
        <div role="group" aria-label="Show the chart as" className="flex gap-1">
          <Button
            size="sm"
            variant={search.chart === 'chart' ? 'primary' : 'secondary'}
            aria-pressed={search.chart === 'chart'}
            onClick={() => onSearchChange({ chart: 'chart' })}
          >
            Chart
          </Button>
          <Button
            size="sm"
            variant={search.chart === 'table' ? 'primary' : 'secondary'}
            aria-pressed={search.chart === 'table'}
            onClick={() => onSearchChange({ chart: 'table' })}
          >
            Table
          </Button>
        </div>
      </div>
      {every.isPending ? (
        <Spinner label="Counting violations…" />
      ) : every.error ? (
        <ProblemView compact error={every.error} onRetry={() => void every.refetch()} />
      ) : search.chart === 'table' ? (
        <DayTable rows={rows} series={series} />
      ) : (
        <>
          <Suspense fallback={<Spinner label="Loading the chart…" />}>
            <ViolationsChart rows={rows} series={series} />
          </Suspense>
          <p className="sr-only">
            A stacked bar chart of violations per billing day. Choose Table for the same figures as a table.
          </p>
        </>
      )}
    </section>
  );
}

function SessionFilter({ value, onChange }: { value: string | undefined; onChange: (v: string | undefined) => void }) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const apply = () => onChange(text.trim() || undefined);
  return (
    <div className="flex w-full flex-col gap-1 sm:w-60">
      <label htmlFor={id} className="text-sm font-medium">
        Session id
      </label>
      <Input
        id={id}
        value={text}
        maxLength={200}
        placeholder="session-…"
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
        }}
      />
    </div>
  );
}

export function ViolationsScreen({
  scope,
  orgName,
  search,
  onSearchChange,
}: {
  scope: ViolationScope;
  /** The organization's name, on its page. */
  orgName?: string;
  search: ViolationSearch;
  onSearchChange: (patch: Partial<ViolationSearch>) => void;
}) {
  const filters = useMemo(() => toFilters(search), [search]);
  const query = useInfiniteQuery(violationsInfiniteQueryOptions(scope, filters));
  const queryClient = useQueryClient();
  const guardrails = useQuery(guardrailsQueryOptions());
  const orgs = useInfiniteQuery({ ...organizationsInfiniteQueryOptions(), enabled: scope === ENTERPRISE });
  const orgNames = useMemo(
    () => new Map(orgs.data?.pages.flatMap((p) => p.items).map((o) => [o.org_id, o.name]) ?? []),
    [orgs.data],
  );
  const columns = useMemo(() => violationColumns(scope, orgNames), [scope, orgNames]);
  const sorting = useMemo(() => [{ id: 'created_at', desc: search.order === 'desc' }], [search.order]);
  const id = useId();
  const [exporting, setExporting] = useState<{ state: 'idle' | 'running' | 'done' | 'error'; text?: string }>({
    state: 'idle',
  });

  const guardrailOptions = useMemo(() => {
    const map = new Map<string, string>();
    for (const g of guardrails.data ?? []) map.set(g.guardrail_id, g.name);
    for (const p of query.data?.pages ?? [])
      for (const v of p.items) if (!map.has(v.guardrail_id)) map.set(v.guardrail_id, v.guardrail_name);
    if (search.guardrail && !map.has(search.guardrail)) map.set(search.guardrail, search.guardrail);
    return [{ value: '', label: 'All guardrails' }, ...[...map].map(([value, label]) => ({ value, label }))];
  }, [guardrails.data, query.data, search.guardrail]);
  const actionOptions = [
    { value: '', label: 'All actions' },
    ...GUARDRAIL_ACTIONS.map((a) => ({ value: a, label: `${a} · ${ACTION_LABELS[a]}` })),
  ];
  const rangeOptions = RANGES.map((r) => ({ value: r, label: RANGE_LABELS[r] }));
  const active = [search.guardrail, search.action, search.session, search.range !== 'all'].filter(Boolean).length;

  const runExport = async () => {
    setExporting({ state: 'running' });
    try {
      const bounds = query.data?.pages[0]?.bounds ?? resolveBounds(filters, Date.now());
      const items = await everyViolation(scope, filters, bounds);
      downloadText(exportFileName(scope, Date.now()), violationsCsv(items));
      setExporting({
        state: 'done',
        text: `Exported ${formatNumber(items.length)} ${items.length === 1 ? 'violation' : 'violations'}.`,
      });
    } catch (err) {
      setExporting({ state: 'error', text: `Export failed: ${errorMessage(err)}` });
    }
  };

  const title = orgName ? `Guardrail violations · ${orgName}` : 'Guardrail violations';
  return (
    <>
      <PageHeader
        title={title}
        description={
          scope === ENTERPRISE
            ? 'Which guardrails fired, on which sessions, and what the platform did, across the enterprise.'
            : 'Which guardrails fired in this organization, on which sessions, and what the platform did.'
        }
        actions={
          <>
            <Button
              size="sm"
              onClick={() => void queryClient.resetQueries({ queryKey: guardrailKeys.violations() })}
              disabled={query.isFetching}
            >
              <RefreshCw className={cn('size-3.5', query.isFetching && 'animate-spin')} aria-hidden />
              Refresh
            </Button>
            <Button size="sm" onClick={() => void runExport()} disabled={exporting.state === 'running'}>
              <Download className="size-3.5" aria-hidden />
              {exporting.state === 'running' ? 'Exporting…' : 'Export CSV'}
            </Button>
          </>
        }
      />
      {exporting.text ? (
        <p
          role="status"
          className={cn('mb-2 text-sm', exporting.state === 'error' ? 'text-danger' : 'text-muted')}
          data-testid="export-status"
        >
          {exporting.text}
        </p>
      ) : null}
      <FilterBar active={active} showLabel="Show violations">
        {(narrow) => (
          <section
            aria-label="Filters"
            className={
              narrow
                ? 'flex flex-col gap-3'
                : 'mb-3 flex flex-wrap items-end gap-3 rounded-lg border border-line bg-surface p-3'
            }
          >
            <FilterSelect
              className="w-full sm:w-56"
              label="Guardrail"
              value={search.guardrail ?? ''}
              options={guardrailOptions}
              onValueChange={(v) => onSearchChange({ guardrail: v || undefined })}
            />
            <FilterSelect
              className="w-full sm:w-56"
              label="Action"
              value={search.action ?? ''}
              options={actionOptions}
              onValueChange={(v) => onSearchChange({ action: (v || undefined) as ViolationSearch['action'] })}
            />
            <SessionFilter
              key={search.session ?? ''}
              value={search.session}
              onChange={(session) => onSearchChange({ session })}
            />
            <FilterSelect
              className="w-full sm:w-44"
              label="Time range"
              value={search.range}
              options={rangeOptions}
              onValueChange={(v) => onSearchChange({ range: v as Range })}
            />
            {search.range === 'custom' && (
              <>
                <div className="flex flex-col gap-1">
                  <label htmlFor={`${id}-from`} className="text-sm font-medium">
                    From (local time)
                  </label>
                  <CommitOnBlurDateTime
                    id={`${id}-from`}
                    seconds={search.time_after}
                    onCommit={(time_after) => onSearchChange({ time_after })}
                  />
                </div>
                <div className="flex flex-col gap-1">
                  <label htmlFor={`${id}-to`} className="text-sm font-medium">
                    Until (local time, not included)
                  </label>
                  <CommitOnBlurDateTime
                    id={`${id}-to`}
                    seconds={search.time_before}
                    onCommit={(time_before) => onSearchChange({ time_before })}
                  />
                </div>
              </>
            )}
            <OrderToggle value={search.order} onChange={(order) => onSearchChange({ order })} />
            {hasFilters(search) && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  onSearchChange({
                    guardrail: undefined,
                    action: undefined,
                    session: undefined,
                    range: 'all',
                    time_after: undefined,
                    time_before: undefined,
                  })
                }
              >
                Clear filters
              </Button>
            )}
          </section>
        )}
      </FilterBar>
      <ChartSection scope={scope} search={search} onSearchChange={onSearchChange} />
      <DataTable
        label="Guardrail violations"
        tableId={scope === ENTERPRISE ? 'guardrail-violations' : 'guardrail-violations-org'}
        columns={columns}
        query={query}
        getRowId={(v) => v.violation_id}
        manualSorting
        sorting={sorting}
        onSortingChange={(next) => onSearchChange({ order: next[0]?.desc === false ? 'asc' : 'desc' })}
        estimateRowHeight={52}
        minWidth={scope === ENTERPRISE ? '72rem' : '64rem'}
        empty={{
          title: hasFilters(search) ? 'No violation matches these filters' : 'No guardrail violations',
          hint: hasFilters(search)
            ? 'Widen the time range or clear a filter.'
            : 'Violations appear here as guardrails fire.',
        }}
        className="h-[calc(100dvh-20rem)] min-h-96"
      />
    </>
  );
}

/**
 * A bound of the custom range, typed as text (one Tab stop, not datetime-local's seven), put in the URL when the
 * admin leaves the field, so the list is not asked again on every keystroke.
 */
function CommitOnBlurDateTime({
  id,
  seconds,
  onCommit,
}: {
  id: string;
  seconds: number | undefined;
  onCommit: (seconds: number | undefined) => void;
}) {
  const [draft, setDraft] = useState(() => toLocalInput(seconds));
  return (
    <DateTimeInput
      id={id}
      value={draft}
      onValueChange={setDraft}
      onBlur={() => {
        const next = fromLocalInput(draft);
        if (next !== seconds) onCommit(next);
      }}
    />
  );
}
