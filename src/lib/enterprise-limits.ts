/**
 * The enterprise's ACU limits and org group limits: query keys and options. In lib/ because organizations
 * carry their cycle limit too: a change on either screen refreshes both.
 */
import { queryOptions } from '@tanstack/react-query';
import { readAllPages } from '@/api/page-walk';
import { apiCall } from '@/lib/api-client';

export const acuLimitKeys = {
  all: ['acu-limits'] as const,
  lists: () => [...acuLimitKeys.all, 'list'] as const,
};

export const orgGroupLimitKeys = {
  all: ['org-group-limits'] as const,
  config: () => [...orgGroupLimitKeys.all, 'config'] as const,
};

/** Every ACU limit (enterprise, organizations, users): a short list, read whole. */
export const acuLimitsQueryOptions = () =>
  queryOptions({
    queryKey: acuLimitKeys.lists(),
    queryFn: ({ signal }) =>
      readAllPages((after, s) => apiCall('acuLimits.list', { query: { first: 200, after }, signal: s ?? signal }), {
        maxPages: 50,
        signal,
        what: 'The ACU limits',
      }),
    staleTime: 30_000,
  });

export const orgGroupLimitsQueryOptions = () =>
  queryOptions({
    queryKey: orgGroupLimitKeys.config(),
    queryFn: ({ signal }) => apiCall('orgGroupLimits.get', { signal }),
    staleTime: 30_000,
    // 403 "not enabled" is an answer, not a blip.
    retry: false,
  });
