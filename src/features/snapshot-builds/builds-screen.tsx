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
import { CursorList, cursorListState } from '@/components/cursor-list';
import { inputClass } from '@/components/field';
import { PageHeader } from '@/components/page-header';
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
  const builds = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const live = visible && anyInFlight(query.data);
  const active = useQuery({ ...activeBuildQueryOptions(orgId), refetchInterval: live ? LIVE_REFRESH_MS : false });
  const activeId = active.data?.build_id;
  const inFlight = builds.filter((b) => IN_FLIGHT_BUILD_STATUSES.includes(b.status)).length;
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
      />
      <div className="mb-3 flex flex-wrap items-end gap-4">
        <label className="flex w-48 flex-col gap-1 text-sm font-medium">
          Status
          <select
            className={inputClass}
            value={filters.status ?? ''}
            onChange={(e) =>
              onFiltersChange({ ...filters, status: (e.target.value || undefined) as SnapshotBuildStatus | undefined })
            }
          >
            <option value="">All statuses</option>
            {SNAPSHOT_BUILD_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex h-9 items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            className="size-4 accent-accent"
            checked={!!filters.active}
            onChange={(e) => onFiltersChange({ ...filters, active: e.target.checked || undefined })}
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
      <CursorList
        ariaLabel="Snapshot builds"
        items={builds}
        getKey={(b) => b.build_id}
        columns="minmax(11rem,1.2fr) 7rem minmax(10rem,1fr) 8rem 8rem 8rem 7rem"
        minWidth="60rem"
        header={
          <>
            <span role="columnheader">Build</span>
            <span role="columnheader">Status</span>
            <span role="columnheader">Triggered by</span>
            <span role="columnheader">Created</span>
            <span role="columnheader">Started</span>
            <span role="columnheader">Duration</span>
            <span role="columnheader">Marks</span>
          </>
        }
        renderRow={(b) => (
          <>
            <span role="cell" className="truncate font-mono text-xs" title={b.build_id}>
              {b.build_id}
            </span>
            <span role="cell">
              <BuildStatusBadge status={b.status} />
            </span>
            <span role="cell" className="flex min-w-0 flex-col">
              <span className="truncate font-mono text-xs">{b.triggered_by_user_id ?? '—'}</span>
              <span className="text-xs text-muted">
                {b.trigger === 'auto' ? 'Automatic' : b.trigger === 'manual' ? 'Manual' : (b.trigger ?? '')}
              </span>
            </span>
            <span role="cell">
              <RelativeTime value={b.created_at} />
            </span>
            <span role="cell">
              {b.started_at != null ? <RelativeTime value={b.started_at} /> : <span className="text-muted">—</span>}
            </span>
            <span
              role="cell"
              title={b.completed_at != null ? `Completed ${formatDateTime(b.completed_at)}` : undefined}
            >
              <Duration build={b} />
            </span>
            <span role="cell" className="flex flex-wrap gap-1">
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
            </span>
          </>
        )}
        total={query.data?.pages[0]?.total}
        {...cursorListState(query)}
        emptyTitle={
          filters.active
            ? filters.status
              ? `The active build is not ${STATUS_LABELS[filters.status]?.toLowerCase()}`
              : 'No build is active yet'
            : filters.status
              ? `No ${STATUS_LABELS[filters.status]?.toLowerCase()} builds`
              : 'No snapshot builds yet'
        }
        className="h-auto max-h-[calc(100dvh-18rem)] min-h-60"
      />
    </>
  );
}
