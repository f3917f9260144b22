/**
 * Configuration as code: query keys, queries and mutations over the console's `/console/configuration/*`
 * endpoints — export, plan, apply (with an apply_id to follow its progress and cancel it), drift against the last
 * applied revision (refreshed on demand), the revisions and recording live state as a new one.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CONFIG_REVISIONS_PAGE_SIZE,
  type ConfigApplyRequest,
  type ConfigPlanRequest,
} from '@/api/console/configuration';
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export const configurationKeys = {
  all: ['configuration'] as const,
  drift: () => [...configurationKeys.all, 'drift'] as const,
  revisions: () => [...configurationKeys.all, 'revisions'] as const,
  revision: (id: number) => [...configurationKeys.revisions(), 'detail', id] as const,
  progress: (applyId: string) => [...configurationKeys.all, 'progress', applyId] as const,
};

/** Drift is read when asked for (it reads live state whole): never on focus or on an interval. */
export const driftQueryOptions = () =>
  queryOptions({
    queryKey: configurationKeys.drift(),
    queryFn: ({ signal }) => apiCall('console.configuration.drift.get', { signal }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const revisionsInfiniteQueryOptions = () =>
  cursorInfiniteQueryOptions({
    queryKey: configurationKeys.revisions(),
    page: (after, signal) =>
      apiCall('console.configuration.revisions.list', { query: { first: CONFIG_REVISIONS_PAGE_SIZE, after }, signal }),
    staleTime: 0,
  });

export const progressQueryOptions = (applyId: string | null) =>
  queryOptions({
    queryKey: configurationKeys.progress(applyId ?? ''),
    queryFn: ({ signal }) => apiCall('console.configuration.progress.get', { params: { apply_id: applyId! }, signal }),
    enabled: applyId !== null,
    refetchInterval: (q) => (q.state.data?.finished ? false : 500),
    retry: false,
  });

export const fetchRevision = (id: number) =>
  apiCall('console.configuration.revisions.get', { params: { revision_id: String(id) } });
export const fetchExport = () => apiCall('console.configuration.export', {});

export function usePlan() {
  return useMutation({ mutationFn: (body: ConfigPlanRequest) => apiCall('console.configuration.plan', { body }) });
}

export function useApply() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfigApplyRequest) => apiCall('console.configuration.apply', { body }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: configurationKeys.revisions() });
      void qc.invalidateQueries({ queryKey: configurationKeys.drift() });
    },
  });
}

export function useCancelApply() {
  return useMutation({
    mutationFn: (applyId: string) => apiCall('console.configuration.cancel', { params: { apply_id: applyId } }),
  });
}

export function useExportRevision() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('console.configuration.revisions.export', {}),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: configurationKeys.revisions() });
      void qc.invalidateQueries({ queryKey: configurationKeys.drift() });
    },
  });
}
