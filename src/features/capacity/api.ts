/**
 * Capacity: the session queue and the hypervisors. The queue is polled every 30 s while the tab is visible
 * (the shell's indicator); the hypervisors list refreshes every 30 s the same way.
 */
import { queryOptions } from '@tanstack/react-query';
import type { HypervisorStatusFilter } from '@/api/operations/capacity';
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

/** How often the queue and the hypervisors are read again while the tab is visible. */
export const CAPACITY_POLL_MS = 30_000;
export const HYPERVISORS_PAGE_SIZE = 100;

export const capacityKeys = {
  all: ['capacity'] as const,
  queue: () => [...capacityKeys.all, 'queue'] as const,
  hypervisors: (status: HypervisorStatusFilter) => [...capacityKeys.all, 'hypervisors', status] as const,
  samples: (hours: number) => [...capacityKeys.all, 'samples', hours] as const,
};

export const queueQueryOptions = (visible = true) =>
  queryOptions({
    queryKey: capacityKeys.queue(),
    queryFn: ({ signal }) => apiCall('queue.get', { signal }),
    refetchInterval: visible ? CAPACITY_POLL_MS : false,
    staleTime: CAPACITY_POLL_MS / 2,
    retry: false,
  });

export const hypervisorsInfiniteQueryOptions = (status: HypervisorStatusFilter) =>
  cursorInfiniteQueryOptions({
    queryKey: capacityKeys.hypervisors(status),
    page: (after, signal) =>
      apiCall('hypervisors.list', { query: { first: HYPERVISORS_PAGE_SIZE, after, status }, signal }),
    staleTime: CAPACITY_POLL_MS / 2,
  });

/** The queue and the hypervisors as the console server sampled them over the last `hours`. */
export const capacitySamplesQueryOptions = (hours: number, visible = true) =>
  queryOptions({
    queryKey: capacityKeys.samples(hours),
    queryFn: ({ signal }) => apiCall('console.capacity.samples.list', { query: { hours }, signal }),
    // A new sample lands once an interval; a minute is often enough to show it soon after.
    refetchInterval: visible ? 60_000 : false,
    staleTime: 30_000,
  });
