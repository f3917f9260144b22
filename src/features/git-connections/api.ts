/** Git connections of the enterprise: the cursor query of `gitConnections.list` (keys from `lib/git-connections`). */
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';
import { gitConnectionKeys } from '@/lib/git-connections';

/** Connections per page. */
export const GIT_CONNECTIONS_PAGE_SIZE = 100;

export const gitConnectionsInfiniteQueryOptions = () =>
  cursorInfiniteQueryOptions({
    queryKey: gitConnectionKeys.infinite(),
    page: (pageParam, signal) =>
      apiCall('gitConnections.list', { query: { first: GIT_CONNECTIONS_PAGE_SIZE, after: pageParam }, signal }),
    staleTime: 60_000,
  });
