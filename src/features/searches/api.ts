/** Searches: query keys and cursor-list options, enterprise-wide and per organization. */
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export const SEARCHES_PAGE_SIZE = 100;

export type SearchesScope = { kind: 'enterprise' } | { kind: 'org'; orgId: string };

export const searchKeys = {
  all: ['searches'] as const,
  lists: () => [...searchKeys.all, 'list'] as const,
  list: (scope: SearchesScope) =>
    [...searchKeys.lists(), scope.kind === 'enterprise' ? 'enterprise' : `org:${scope.orgId}`] as const,
};

export const searchesInfiniteQueryOptions = (scope: SearchesScope) =>
  cursorInfiniteQueryOptions({
    queryKey: searchKeys.list(scope),
    page: (after, signal) =>
      scope.kind === 'enterprise'
        ? apiCall('searches.enterprise.list', { query: { first: SEARCHES_PAGE_SIZE, after }, signal })
        : apiCall('searches.list', {
            params: { org_id: scope.orgId },
            query: { first: SEARCHES_PAGE_SIZE, after },
            signal,
          }),
    staleTime: 30_000,
  });
