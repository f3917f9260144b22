/**
 * Violations per billing day by guardrail, over every violation the filters select: a stacked bar chart
 * (loaded when shown) or the same figures as a table, its text alternative.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useMemo } from 'react';
import { Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';
import { everyViolationQueryOptions, guardrailsQueryOptions, type ViolationScope } from './api';
import { BILLING_DAY_NOTE, perDayByGuardrail, type DayRow } from './billing-day';
import { toFilters, type ViolationSearch } from './search';

const ViolationsChart = lazy(() => import('./violations-chart'));

/** Distinguishable in light and dark themes. */
const SERIES_COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777', '#65a30d'];

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

export function ChartSection({
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
