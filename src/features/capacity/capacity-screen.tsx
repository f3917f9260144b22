/**
 * Capacity: is the platform keeping up? The session queue (queued sessions and the indicator) and the
 * hypervisors with their utilization, filtered by status (in the URL; default `available`, `all` for every
 * one). Both refresh every 30 s while the tab is visible.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { HYPERVISOR_STATUS_FILTERS, type Hypervisor, type HypervisorStatusFilter } from '@/api/operations/capacity';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Skeleton } from '@/components/ui/skeleton';
import { FilterSelect } from '@/components/filter-select';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { useDocumentVisible } from '@/lib/use-document-visible';
import { CAPACITY_POLL_MS, hypervisorsInfiniteQueryOptions, queueQueryOptions } from './api';
import { CapacityTrends } from './trends';

const STATUS_TONES: Record<string, Tone> = {
  available: 'success',
  draining: 'warn',
  restarting: 'info',
  disconnected: 'danger',
  terminated: 'neutral',
  normal: 'success',
  elevated: 'warn',
  high: 'danger',
};
const STATUS_LABELS: Record<string, string> = {
  available: 'Available',
  draining: 'Draining',
  restarting: 'Restarting',
  disconnected: 'Disconnected',
  terminated: 'Terminated',
  all: 'All statuses',
};

function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{STATUS_LABELS[status] ?? status}</Badge>;
}

/** A utilization bar: the number in words, the bar beside it (its colour says how full). */
export function UtilizationBar({ value }: { value: number }) {
  const pct = Math.min(100, Math.max(0, value));
  return (
    <div className="flex w-full items-center gap-2">
      <div
        className="h-2 min-w-12 flex-1 overflow-hidden rounded-full bg-surface-2"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-label={`Utilization ${formatNumber(pct, 1)} %`}
      >
        <div
          className={cn('h-full rounded-full', pct >= 90 ? 'bg-danger' : pct >= 70 ? 'bg-warn' : 'bg-success')}
          style={{ width: `${pct}%` }}
        />
      </div>
      <span className="w-14 text-right text-xs tabular-nums">{formatNumber(pct, 1)} %</span>
    </div>
  );
}

const col = columnHelper<Hypervisor>();
const COLUMNS = col.columns([
  col.accessor('hypervisor_id', {
    header: 'Hypervisor',
    enableHiding: false,
    meta: { width: 'minmax(10rem,1fr)', className: 'truncate font-mono text-xs', card: 'title' },
  }),
  col.accessor('status', {
    header: 'Status',
    enableSorting: true,
    meta: { width: '8rem', card: 'aside' },
    cell: ({ getValue }) => <StatusBadge status={getValue()} />,
  }),
  col.accessor('utilization_percentage', {
    header: 'Utilization',
    enableSorting: true,
    sortDescFirst: true,
    meta: { width: 'minmax(11rem,1.2fr)' },
    cell: ({ getValue }) => <UtilizationBar value={getValue()} />,
  }),
  col.accessor((h) => h.cloud_provider_instance_id ?? '', {
    id: 'cloud_provider_instance_id',
    header: 'Instance',
    meta: { width: 'minmax(9rem,1fr)', className: 'truncate font-mono text-xs' },
  }),
  col.accessor('last_heartbeat', { header: 'Last heartbeat', ...timeColumn({ width: '8rem' }) }),
  col.accessor('created_at', { header: 'Created', ...timeColumn({ width: '7rem' }) }),
]);

const STATUS_OPTIONS = HYPERVISOR_STATUS_FILTERS.map((s) => ({ value: s, label: STATUS_LABELS[s] ?? s }));

function QueueCard() {
  const visible = useDocumentVisible();
  const q = useQuery(queueQueryOptions(visible));
  return (
    <section aria-labelledby="queue-heading" className="mb-4 max-w-xl rounded-lg border border-line bg-surface p-4">
      <h2 id="queue-heading" className="font-semibold">
        Session queue
      </h2>
      {q.error ? (
        <ProblemView error={q.error} onRetry={() => void q.refetch()} compact />
      ) : !q.data ? (
        <Skeleton className="mt-2 h-10 w-40" aria-label="Loading" />
      ) : (
        <div className="mt-2 flex flex-wrap items-center gap-3" data-testid="queue-state">
          <span className="text-3xl font-semibold tabular-nums">{formatNumber(q.data.queue_size)}</span>
          <span className="text-sm text-muted">sessions waiting to run (new, claimed or resuming)</span>
          <Badge tone={STATUS_TONES[q.data.status] ?? 'neutral'}>{q.data.status}</Badge>
        </div>
      )}
      <p className="mt-2 text-xs text-muted">
        {visible ? `Refreshed every ${CAPACITY_POLL_MS / 1000} s.` : 'Paused while the tab is hidden.'}
      </p>
    </section>
  );
}

export function CapacityScreen({
  status,
  onStatusChange,
}: {
  status: HypervisorStatusFilter;
  onStatusChange: (next: HypervisorStatusFilter) => void;
}) {
  const visible = useDocumentVisible();
  const query = useInfiniteQuery({
    ...hypervisorsInfiniteQueryOptions(status),
    refetchInterval: visible ? CAPACITY_POLL_MS : false,
  });
  const loaded = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const avg = loaded.length ? loaded.reduce((n, h) => n + h.utilization_percentage, 0) / loaded.length : null;
  return (
    <>
      <PageHeader
        title="Capacity"
        description="Whether the platform is keeping up: sessions waiting to run, and the hypervisors that run them."
      />
      <QueueCard />
      <CapacityTrends />
      <section aria-labelledby="hypervisors-heading">
        <h2 id="hypervisors-heading" className="mb-2 font-semibold">
          Hypervisors
        </h2>
        <div className="mb-3 flex flex-wrap items-end gap-4">
          <FilterSelect
            className="w-48"
            label="Status"
            value={status}
            options={STATUS_OPTIONS}
            onValueChange={(v) => onStatusChange(v as HypervisorStatusFilter)}
          />
          <p role="status" className="flex h-9 items-center text-xs text-muted">
            {query.isSuccess
              ? `${loaded.length} ${loaded.length === 1 ? 'hypervisor' : 'hypervisors'}${avg === null ? '' : `, ${formatNumber(avg, 1)} % used on average`}`
              : ''}
          </p>
        </div>
        <DataTable
          label="Hypervisors"
          tableId="hypervisors"
          columns={COLUMNS}
          query={query}
          getRowId={(h) => h.hypervisor_id}
          minWidth="52rem"
          empty={{
            title:
              status === 'all' ? 'No hypervisors' : `No ${STATUS_LABELS[status]?.toLowerCase() ?? status} hypervisors`,
          }}
          className="h-auto max-h-[calc(100dvh-22rem)] min-h-48"
        />
      </section>
    </>
  );
}
