/** Git connections of the enterprise: query keys and the cursor query of `gitConnections.list`. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { nextCursor } from '@/api/page';
import { apiCall } from '@/lib/api-client';

/** Connections per page. */
export const GIT_CONNECTIONS_PAGE_SIZE = 100;

export const gitConnectionListKeys = {
  all: ['git-connection-list'] as const,
};

export const gitConnectionsInfiniteQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: gitConnectionListKeys.all,
    queryFn: ({ pageParam, signal }) =>
      apiCall('gitConnections.list', { query: { first: GIT_CONNECTIONS_PAGE_SIZE, after: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    staleTime: 60_000,
  });
