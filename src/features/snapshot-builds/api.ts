/**
 * Snapshot builds: query keys and options. Lists refresh on their own while a build shown is pending or
 * running, and stop when none is (or the tab is hidden).
 */
import { infiniteQueryOptions, queryOptions, type InfiniteData } from '@tanstack/react-query';
import {
  IN_FLIGHT_BUILD_STATUSES,
  type SnapshotBuild,
  type SnapshotBuildStatus,
} from '@/api/operations/snapshot-builds';
import { nextCursor, type Page } from '@/api/cursor';
import { apiCall } from '@/lib/api-client';

export interface BuildFilters {
  status?: SnapshotBuildStatus;
  /** Only the build new sessions use. */
  active?: boolean;
}

export const BUILDS_PAGE_SIZE = 50;
/** How often builds in flight are refreshed. */
export const LIVE_REFRESH_MS = 5_000;

export const snapshotBuildKeys = {
  all: ['snapshot-builds'] as const,
  org: (orgId: string) => [...snapshotBuildKeys.all, orgId] as const,
  lists: (orgId: string) => [...snapshotBuildKeys.org(orgId), 'list'] as const,
  list: (orgId: string, filters: BuildFilters) => [...snapshotBuildKeys.lists(orgId), filters] as const,
  active: (orgId: string) => [...snapshotBuildKeys.org(orgId), 'active'] as const,
};

export function anyInFlight(data: InfiniteData<Page<SnapshotBuild>> | undefined): boolean {
  return !!data?.pages.some((p) => p.items.some((b) => IN_FLIGHT_BUILD_STATUSES.includes(b.status)));
}

export const buildsInfiniteQueryOptions = (orgId: string, filters: BuildFilters, visible = true) =>
  infiniteQueryOptions({
    queryKey: snapshotBuildKeys.list(orgId, filters),
    queryFn: ({ pageParam, signal }) =>
      apiCall('snapshotBuilds.list', {
        params: { org_id: orgId },
        query: {
          first: BUILDS_PAGE_SIZE,
          after: pageParam,
          status: filters.status,
          active: filters.active ? 'true' : undefined,
        },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    refetchInterval: (q) => (visible && anyInFlight(q.state.data) ? LIVE_REFRESH_MS : false),
  });

/** The build whose image new sessions use (0 or 1). */
export const activeBuildQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: snapshotBuildKeys.active(orgId),
    queryFn: ({ signal }) =>
      apiCall('snapshotBuilds.list', { params: { org_id: orgId }, query: { active: 'true', first: 1 }, signal }),
    select: (page) => page.items[0] ?? null,
    staleTime: LIVE_REFRESH_MS,
  });
