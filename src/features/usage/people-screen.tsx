/**
 * Consumption per person and service user: every member and service user with their compute units in this
 * billing cycle so far, in the same days of the previous cycle, the change, and the previous cycle's whole total.
 * Names beside ids, never an id alone; a row whose figures could not be read says why and the others still show.
 * No chart library here: a table, its CSV, and the enterprise's own total for the same days beside the sum, so
 * this screen can be checked against the dashboard.
 */
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { BILLING_DAY_NOTE } from '@/api/billing-day';
import { columnHelper, DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { principalColumns } from '@/components/principal-cells';
import { ProblemView } from '@/components/problem-view';
import { FilterSelect } from '@/components/filter-select';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toCsv } from '@/lib/csv';
import { downloadText } from '@/lib/download';
import { formatNumber } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { cyclesQueryOptions, dailyConsumptionQueryOptions, peopleConsumptionQueryOptions } from './api';
import { cycleWindows, daysOf, totals, type PersonRow } from './people-data';
import type { PeopleKind } from './people-search';
import { formatRange } from './range';

const KIND_OPTIONS = [
  { value: 'all', label: 'Members and service users' },
  { value: 'member', label: 'Members' },
  { value: 'service_user', label: 'Service users' },
];

const acus = (v: number | null) => (v === null ? '—' : formatNumber(v, 2));

function Change({ row }: { row: PersonRow }) {
  if (row.error) return <span className="text-muted">—</span>;
  const pct = row.change_percent;
  if (pct === null) {
    return <span className="text-muted">{row.this_cycle ? 'New this cycle' : 'None either cycle'}</span>;
  }
  if (pct === 0) return <span className="text-muted">No change</span>;
  return (
    <span className={pct > 0 ? 'text-warn' : 'text-success'}>
      {pct > 0 ? '+' : '−'}
      {formatNumber(Math.abs(pct), 1)} %
    </span>
  );
}

const col = columnHelper<PersonRow>();
const COLUMNS = col.columns([
  ...principalColumns(col),
  col.accessor((r) => r.this_cycle ?? -1, {
    id: 'this_cycle',
    header: 'This cycle (ACUs)',
    enableSorting: true,
    sortDescFirst: true,
    meta: { width: '8.5rem', align: 'end', className: 'tabular-nums' },
    cell: ({ row }) =>
      row.original.error ? (
        <span className="text-danger" title={row.original.error}>
          Not read
        </span>
      ) : (
        acus(row.original.this_cycle)
      ),
  }),
  col.accessor((r) => r.previous_same_days ?? -1, {
    id: 'previous_same_days',
    header: 'Same days, previous cycle',
    enableSorting: true,
    sortDescFirst: true,
    meta: { width: '10rem', align: 'end', className: 'tabular-nums' },
    cell: ({ row }) => acus(row.original.previous_same_days),
  }),
  col.accessor((r) => r.change_percent ?? Number.NEGATIVE_INFINITY, {
    id: 'change',
    header: 'Change',
    enableSorting: true,
    sortDescFirst: true,
    meta: { width: '8rem', align: 'end', className: 'tabular-nums' },
    cell: ({ row }) => <Change row={row.original} />,
  }),
  col.accessor((r) => r.previous_cycle ?? -1, {
    id: 'previous_cycle',
    header: 'Whole previous cycle',
    enableSorting: true,
    sortDescFirst: true,
    meta: { width: '9rem', align: 'end', className: 'tabular-nums' },
    cell: ({ row }) => acus(row.original.previous_cycle),
  }),
]);

function csvOf(rows: readonly PersonRow[]): string {
  return toCsv(
    [
      'Name',
      'Email or id',
      'Kind',
      'Id',
      'This cycle (ACUs)',
      'Same days, previous cycle (ACUs)',
      'Change (%)',
      'Whole previous cycle (ACUs)',
      'Error',
    ],
    rows.map((r) => [
      r.name,
      r.secondary,
      r.kind === 'member' ? 'Member' : 'Service user',
      r.id,
      r.this_cycle,
      r.previous_same_days,
      r.change_percent,
      r.previous_cycle,
      r.error,
    ]),
  );
}

export function PeopleConsumptionScreen({
  kind,
  onKindChange,
}: {
  kind: PeopleKind;
  onKindChange: (next: PeopleKind) => void;
}) {
  const now = Math.floor(useNow(60_000) / 1000);
  const cycles = useQuery(cyclesQueryOptions());
  const settled = cycles.isSuccess || cycles.isError;
  // Recomputed hourly; the windows (and so the query's key) only change when the billing day does.
  const today = Math.floor(now / 3_600);
  const w = useMemo(
    () => (settled ? cycleWindows(today * 3_600, cycles.data ?? []) : undefined),
    [settled, today, cycles.data],
  );
  const people = useQuery({
    ...peopleConsumptionQueryOptions(w ?? cycleWindows(0, [])),
    enabled: !!w,
  });
  const enterprise = useQuery({
    ...dailyConsumptionQueryOptions({ kind: 'enterprise' }, w?.current ?? { time_after: 0, time_before: 1 }),
    enabled: !!w,
  });
  const rows = useMemo(() => (people.data ?? []).filter((r) => kind === 'all' || r.kind === kind), [people.data, kind]);
  const sum = useMemo(() => totals(rows), [rows]);
  const failed = rows.filter((r) => r.error).length;
  return (
    <>
      <PageHeader
        title="Consumption per person"
        description="Compute units of every member and service user in this billing cycle, against the same days of the previous cycle."
        actions={
          <Button
            size="sm"
            disabled={!people.data}
            aria-label="Export consumption per person as CSV"
            onClick={() => downloadText('consumption-per-person.csv', csvOf(rows))}
          >
            <Download className="size-3.5" aria-hidden />
            CSV
          </Button>
        }
      />
      <p className="mb-3 text-xs text-muted">
        {BILLING_DAY_NOTE} A member’s compute units are those of the sessions they created; a service user’s, those it
        started.
      </p>
      {w && (
        <dl className="mb-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2" data-testid="people-windows">
          <div className="flex gap-2">
            <dt className="text-muted">This cycle so far:</dt>
            <dd>
              {formatRange(w.current)} ({daysOf(w.current)} {daysOf(w.current) === 1 ? 'day' : 'days'})
            </dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-muted">Compared with:</dt>
            <dd>
              {formatRange(w.previousSameDays)} (previous cycle {formatRange(w.previous)})
            </dd>
          </div>
        </dl>
      )}
      <div className="mb-3 flex flex-wrap items-end gap-4">
        <FilterSelect
          className="w-64"
          label="Show"
          value={kind}
          options={KIND_OPTIONS}
          onValueChange={(v) => onKindChange(v as PeopleKind)}
        />
        <p role="status" className="flex min-h-9 items-center text-sm text-muted" data-testid="people-summary">
          {people.isSuccess
            ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}: ${formatNumber(sum.this_cycle, 2)} ACUs this cycle, ${formatNumber(sum.previous_same_days, 2)} in the same days before` +
              (kind === 'all' && enterprise.data
                ? `; the enterprise as a whole: ${formatNumber(enterprise.data.total_acus, 2)}`
                : '') +
              (failed ? `. ${failed} could not be read (hover “Not read” for why).` : '.')
            : people.isFetching
              ? 'Reading each member’s and service user’s compute units…'
              : ''}
        </p>
      </div>
      {people.error ? (
        <ProblemView error={people.error} onRetry={() => void people.refetch()} />
      ) : !people.data ? (
        <div role="status" aria-label="Loading consumption per person">
          <Skeleton className="h-64 w-full" />
        </div>
      ) : (
        <DataTable
          label="Consumption per person"
          tableId="usage-people"
          columns={COLUMNS}
          data={rows}
          getRowId={(r) => r.key}
          empty={{ title: 'Nobody to show' }}
          estimateRowHeight={52}
          minWidth="54rem"
          className="h-auto max-h-[calc(100dvh-20rem)] min-h-48"
        />
      )}
    </>
  );
}
