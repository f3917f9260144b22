/** Git connections of the enterprise: query keys and the cursor query of `gitConnections.list`. */
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

/** Connections per page. */
export const GIT_CONNECTIONS_PAGE_SIZE = 100;

export const gitConnectionListKeys = {
  all: ['git-connection-list'] as const,
};

export const gitConnectionsInfiniteQueryOptions = () =>
  cursorInfiniteQueryOptions({
    queryKey: gitConnectionListKeys.all,
    page: (pageParam, signal) =>
      apiCall('gitConnections.list', { query: { first: GIT_CONNECTIONS_PAGE_SIZE, after: pageParam }, signal }),
    staleTime: 60_000,
  });
