/**
 * Capacity over time: the queue and the hypervisors as the console server sampled them (every few minutes, into
 * its own store; the API itself only answers "now"). Each chart has a sentence saying what it shows (also its
 * accessible name) and the samples can be read as a table; an interval the console could not sample is named
 * as such, with why, rather than left as a silent hole.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import type { CapacitySample } from '@/api/console/capacity-samples';
import { columnHelper, DataTable } from '@/components/data-table';
import { ProblemView } from '@/components/problem-view';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatNumber } from '@/lib/format';
import { useDocumentVisible } from '@/lib/use-document-visible';
import { capacitySamplesQueryOptions } from './api';
import { TrendChart } from './trend-charts';
import { formatSampleTime, gapsOf, hypervisorSummary, queueSummary, trendRows, type TrendRow } from './trend-data';

/** "5 min", "90 s", "2 h": an interval in words. */
const every = (s: number) => (s % 3_600 === 0 ? `${s / 3_600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`);

const WINDOWS = [
  { value: '6', label: 'Last 6 hours' },
  { value: '24', label: 'Last 24 hours' },
  { value: '168', label: 'Last 7 days' },
  { value: '720', label: 'Last 30 days' },
];

const col = columnHelper<TrendRow>();
const COLUMNS = col.columns([
  col.accessor('label', {
    header: 'Interval from',
    enableHiding: false,
    meta: { width: 'minmax(9rem,1fr)', card: 'title' },
  }),
  col.accessor('queued', {
    header: 'Queued',
    meta: { width: '6rem', align: 'end', className: 'tabular-nums' },
    cell: ({ getValue }) => formatNumber(getValue()),
  }),
  col.accessor('status', {
    header: 'Indicator',
    meta: { width: '7rem' },
    cell: ({ getValue }) => getValue() ?? '—',
  }),
  col.accessor('available', {
    header: 'Available hypervisors',
    meta: { width: '9rem', align: 'end', className: 'tabular-nums' },
    cell: ({ getValue }) => formatNumber(getValue()),
  }),
  col.accessor('utilization_avg', {
    header: 'Average utilization',
    meta: { width: '9rem', align: 'end', className: 'tabular-nums' },
    cell: ({ getValue }) => (getValue() === null ? '—' : `${formatNumber(getValue(), 1)} %`),
  }),
  col.accessor('utilization_max', {
    header: 'Highest utilization',
    meta: { width: '9rem', align: 'end', className: 'tabular-nums' },
    cell: ({ getValue }) => (getValue() === null ? '—' : `${formatNumber(getValue(), 1)} %`),
  }),
]);

function Gaps({ gaps }: { gaps: CapacitySample[] }) {
  if (gaps.length === 0) return null;
  const shown = gaps.slice(0, 5);
  return (
    <div className="mt-3 rounded-md border border-warn/50 bg-warn/5 p-3 text-sm" data-testid="capacity-gaps">
      <p className="font-medium">
        {gaps.length} {gaps.length === 1 ? 'interval was' : 'intervals were'} not sampled (the lines break there):
      </p>
      <ul className="mt-1 list-disc pl-5">
        {shown.map((g) => (
          <li key={g.sampled_at}>
            {formatSampleTime(g.sampled_at)}: {g.error}
          </li>
        ))}
      </ul>
      {gaps.length > shown.length && <p className="mt-1 text-muted">and {gaps.length - shown.length} more.</p>}
    </div>
  );
}

function Figure({ title, summary, children }: { title: string; summary: string; children: ReactNode }) {
  return (
    <figure className="m-0 min-w-0">
      <h3 className="text-sm font-medium">{title}</h3>
      <div role="img" aria-label={`${title}. ${summary}`} className="mt-1 h-56 w-full min-w-0">
        {children}
      </div>
      <figcaption className="mt-1 text-sm text-muted">{summary}</figcaption>
    </figure>
  );
}

export function CapacityTrends() {
  const [hours, setHours] = useState('24');
  const selectId = useId();
  const visible = useDocumentVisible();
  const q = useQuery(capacitySamplesQueryOptions(Number(hours), visible));
  const rows = useMemo(() => (q.data ? trendRows(q.data.samples) : []), [q.data]);
  const gaps = useMemo(() => (q.data ? gapsOf(q.data.samples) : []), [q.data]);
  const interval = q.data?.interval_s ?? 0;
  return (
    <section aria-labelledby="trends-heading" className="mb-4 rounded-lg border border-line bg-surface p-4">
      <div className="mb-2 flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id="trends-heading" className="font-semibold">
            Over time
          </h2>
          <p className="text-sm text-muted">
            {q.data && interval === 0
              ? 'Sampling is off on this console server (CAPACITY_SAMPLE_INTERVAL_S=0): only what was sampled before shows.'
              : `The console server samples the queue and the hypervisors every ${interval ? every(interval) : 'few minutes'} and keeps 30 days.`}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={selectId} className="text-sm font-medium">
            Window
          </label>
          <Select id={selectId} className="w-44" value={hours} onValueChange={setHours} options={WINDOWS} />
        </div>
      </div>
      {q.error ? (
        <ProblemView error={q.error} onRetry={() => void q.refetch()} compact />
      ) : !q.data ? (
        <div role="status" aria-label="Loading capacity over time">
          <Skeleton className="h-56 w-full" />
        </div>
      ) : q.data.samples.length === 0 ? (
        <p
          className="rounded-md border border-line bg-surface-2 p-3 text-sm text-muted"
          data-testid="capacity-no-samples"
        >
          No sample in this window yet. The first is taken shortly after the console server starts, then one every{' '}
          {interval ? every(interval) : 'interval'}.
        </p>
      ) : (
        <Tabs defaultValue="chart">
          <TabsList aria-label="Capacity over time: view">
            <TabsTrigger value="chart">Charts</TabsTrigger>
            <TabsTrigger value="table">Table</TabsTrigger>
          </TabsList>
          <TabsContent value="chart">
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2" data-testid="capacity-trends">
              <Figure title="Queued sessions" summary={queueSummary(rows)}>
                <TrendChart rows={rows} series={[{ key: 'queued', label: 'Queued sessions' }]} />
              </Figure>
              <Figure title="Hypervisors" summary={hypervisorSummary(rows)}>
                <TrendChart
                  rows={rows}
                  rightUnit=" %"
                  series={[
                    { key: 'available', label: 'Available' },
                    { key: 'utilization_avg', label: 'Average utilization (%)', right: true },
                    { key: 'utilization_max', label: 'Highest utilization (%)', right: true },
                  ]}
                />
              </Figure>
            </div>
            {q.data.thinned && (
              <p className="mt-2 text-xs text-muted">
                A long window: {formatNumber(rows.length)} evenly spaced samples are drawn, not every one.
              </p>
            )}
          </TabsContent>
          <TabsContent value="table">
            <DataTable
              label="Capacity samples"
              tableId="capacity-samples"
              columns={COLUMNS}
              data={[...rows].reverse()}
              getRowId={(r) => String(r.sampled_at)}
              empty={{ title: 'No samples' }}
              estimateRowHeight={36}
              minWidth="48rem"
              className="h-auto max-h-80 min-h-24"
            />
          </TabsContent>
        </Tabs>
      )}
      {q.data && <Gaps gaps={gaps} />}
    </section>
  );
}
