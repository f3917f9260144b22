/**
 * Snapshot builds of one organization: status and "active only" filters in the URL, duration, who triggered
 * each build, the pinned mark and the active build; refreshed live while any build shown is in flight.
 */
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pin, Zap } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import {
  IN_FLIGHT_BUILD_STATUSES,
  SNAPSHOT_BUILD_STATUSES,
  type SnapshotBuild,
  type SnapshotBuildStatus,
} from '@/api/operations/snapshot-builds';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { Checkbox } from '@/components/ui/checkbox';
import { FilterSelect } from '@/components/filter-select';
import { PageHeader } from '@/components/page-header';
import { SavedViews } from '@/components/saved-views';
import { RelativeTime } from '@/components/relative-time';
import { formatDateTime, formatDuration } from '@/lib/format';
import { useDocumentVisible } from '@/lib/use-document-visible';
import { useNow } from '@/lib/use-now';
import {
  activeBuildQueryOptions,
  anyInFlight,
  buildsInfiniteQueryOptions,
  LIVE_REFRESH_MS,
  snapshotBuildKeys,
  type BuildFilters,
} from './api';

const STATUS_TONES: Record<string, Tone> = {
  pending: 'warn',
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};
const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function BuildStatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{STATUS_LABELS[status] ?? status}</Badge>;
}

/** Completed − started; for a running build, the time so far. */
export function buildDuration(b: SnapshotBuild, nowMs: number): { seconds: number | null; running: boolean } {
  if (b.started_at == null) return { seconds: null, running: false };
  if (b.completed_at != null) return { seconds: b.completed_at - b.started_at, running: false };
  if (b.status === 'running') return { seconds: nowMs / 1000 - b.started_at, running: true };
  return { seconds: null, running: false };
}

function Duration({ build }: { build: SnapshotBuild }) {
  const now = useNow(build.status === 'running' ? 1_000 : 60_000);
  const d = buildDuration(build, now);
  if (d.seconds === null) return <span className="text-muted">{build.status === 'pending' ? 'Not started' : '—'}</span>;
  return (
    <span className={d.running ? 'text-info' : undefined}>
      {d.running ? `${formatDuration(d.seconds)} so far` : formatDuration(d.seconds)}
    </span>
  );
}

const col = columnHelper<SnapshotBuild>();

function buildColumns(activeId: string | undefined) {
  return col.columns([
    col.accessor('build_id', {
      header: 'Build',
      enableHiding: false,
      meta: {
        width: 'minmax(11rem,1.2fr)',
        className: 'truncate font-mono text-xs',
        cellTitle: (b: SnapshotBuild) => b.build_id,
      },
    }),
    col.accessor('status', {
      header: 'Status',
      enableSorting: true,
      meta: { width: '7rem' },
      cell: ({ getValue }) => <BuildStatusBadge status={getValue()} />,
    }),
    col.display({
      id: 'triggered_by',
      header: 'Triggered by',
      meta: { width: 'minmax(10rem,1fr)', className: 'flex flex-col' },
      cell: ({ row: { original: b } }) => (
        <>
          <span className="truncate font-mono text-xs">{b.triggered_by_user_id ?? '—'}</span>
          <span className="text-xs text-muted">
            {b.trigger === 'auto' ? 'Automatic' : b.trigger === 'manual' ? 'Manual' : (b.trigger ?? '')}
          </span>
        </>
      ),
    }),
    col.accessor('created_at', { header: 'Created', ...timeColumn({ width: '8rem' }) }),
    col.accessor((b) => b.started_at ?? undefined, {
      id: 'started_at',
      header: 'Started',
      enableSorting: true,
      sortDescFirst: true,
      sortUndefined: 'last',
      meta: { width: '8rem' },
      cell: ({ getValue }) => {
        const started = getValue();
        return started != null ? <RelativeTime value={started} /> : <span className="text-muted">—</span>;
      },
    }),
    col.display({
      id: 'duration',
      header: 'Duration',
      meta: {
        width: '8rem',
        cellTitle: (b: SnapshotBuild) =>
          b.completed_at != null ? `Completed ${formatDateTime(b.completed_at)}` : undefined,
      },
      cell: ({ row }) => <Duration build={row.original} />,
    }),
    col.display({
      id: 'marks',
      header: 'Marks',
      meta: { width: '7rem', className: 'flex flex-wrap gap-1' },
      cell: ({ row: { original: b } }) => (
        <>
          {b.pinned && (
            <Badge tone="accent" title="Pinned">
              <Pin className="size-3" aria-hidden /> Pinned
            </Badge>
          )}
          {b.build_id === activeId && (
            <Badge tone="success" title="New sessions use this build">
              <Zap className="size-3" aria-hidden /> Active
            </Badge>
          )}
        </>
      ),
    }),
  ]);
}

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...SNAPSHOT_BUILD_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] ?? s })),
];

export function BuildsScreen({
  orgId,
  orgName,
  filters,
  onFiltersChange,
}: {
  orgId: string;
  orgName?: string;
  filters: BuildFilters;
  onFiltersChange: (next: BuildFilters) => void;
}) {
  const visible = useDocumentVisible();
  const query = useInfiniteQuery(buildsInfiniteQueryOptions(orgId, filters, visible));
  const live = visible && anyInFlight(query.data);
  const active = useQuery({ ...activeBuildQueryOptions(orgId), refetchInterval: live ? LIVE_REFRESH_MS : false });
  const activeId = active.data?.build_id;
  const columns = useMemo(() => buildColumns(activeId), [activeId]);
  const inFlight = useMemo(
    () =>
      query.data?.pages.reduce(
        (n, p) => n + p.items.filter((b) => IN_FLIGHT_BUILD_STATUSES.includes(b.status)).length,
        0,
      ) ?? 0,
    [query.data],
  );
  const qc = useQueryClient();
  // Back in a visible tab: catch up at once rather than at the next interval.
  useEffect(() => {
    if (visible) void qc.invalidateQueries({ queryKey: snapshotBuildKeys.org(orgId), refetchType: 'active' });
  }, [visible, orgId, qc]);

  return (
    <>
      <PageHeader
        title="Snapshot builds"
        description={`Environment snapshot builds of ${orgName ?? 'this organization'}, newest first. New sessions start from the active build's image.`}
        actions={<SavedViews screen="snapshot-builds" current={filters} onOpen={(view) => onFiltersChange(view)} />}
      />
      <div className="mb-3 flex flex-wrap items-end gap-4">
        <FilterSelect
          className="w-48"
          label="Status"
          value={filters.status ?? ''}
          options={STATUS_OPTIONS}
          onValueChange={(v) =>
            onFiltersChange({ ...filters, status: (v || undefined) as SnapshotBuildStatus | undefined })
          }
        />
        <label className="flex h-9 items-center gap-2 text-sm font-medium">
          <Checkbox
            checked={!!filters.active}
            onCheckedChange={(v) => onFiltersChange({ ...filters, active: v === true || undefined })}
          />
          Active only
        </label>
        <p role="status" className="flex h-9 items-center gap-2 text-xs text-muted">
          {live ? (
            <>
              <span className="size-2 animate-pulse rounded-full bg-info" aria-hidden />
              Live: {inFlight} {inFlight === 1 ? 'build' : 'builds'} in flight, refreshing every{' '}
              {LIVE_REFRESH_MS / 1000} s
            </>
          ) : query.isSuccess ? (
            visible ? (
              'No build in flight; not refreshing'
            ) : (
              'Paused while the tab is hidden'
            )
          ) : null}
        </p>
      </div>
      {active.data && !filters.active && (
        <p className="mb-3 flex flex-wrap items-center gap-2 text-sm">
          <Zap className="size-4 text-accent" aria-hidden />
          <span>
            Active build (new sessions use it): <span className="font-mono text-xs">{active.data.build_id}</span>,
            completed <RelativeTime value={active.data.completed_at} />
          </span>
          {active.data.pinned && <Badge tone="accent">Pinned</Badge>}
        </p>
      )}
      <DataTable
        label="Snapshot builds"
        tableId="snapshot-builds"
        columns={columns}
        query={query}
        getRowId={(b) => b.build_id}
        minWidth="60rem"
        empty={{
          title: filters.active
            ? filters.status
              ? `The active build is not ${STATUS_LABELS[filters.status]?.toLowerCase()}`
              : 'No build is active yet'
            : filters.status
              ? `No ${STATUS_LABELS[filters.status]?.toLowerCase()} builds`
              : 'No snapshot builds yet',
        }}
        className="h-auto max-h-[calc(100dvh-18rem)] min-h-60"
      />
    </>
  );
}
