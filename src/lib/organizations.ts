/** The enterprise's organizations: query keys and options, used by the shell and by every area that scopes by organization. */
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export const organizationKeys = {
  all: ['organizations'] as const,
  lists: () => [...organizationKeys.all, 'list'] as const,
  infinite: () => [...organizationKeys.lists(), 'infinite'] as const,
  detail: (orgId: string) => [...organizationKeys.all, 'detail', orgId] as const,
};

/** Organizations per page of the overview and the switcher. */
export const ORGANIZATIONS_PAGE_SIZE = 100;

export const organizationsInfiniteQueryOptions = () =>
  cursorInfiniteQueryOptions({
    queryKey: organizationKeys.infinite(),
    page: (pageParam, signal) =>
      apiCall('organizations.list', { query: { first: ORGANIZATIONS_PAGE_SIZE, after: pageParam }, signal }),
    staleTime: 5 * 60_000,
  });

export const organizationQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: organizationKeys.detail(orgId),
    queryFn: ({ signal }) => apiCall('organizations.get', { params: { org_id: orgId }, signal }),
    staleTime: 5 * 60_000,
  });
