/**
 * The last doctor report's summary (`console.doctor.summary.get`): read by the shell's notice on every screen and
 * refreshed by the Doctor screen after a run. Small on purpose; the full report is the Doctor screen's own query.
 */
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from './api-client';

export const doctorKeys = {
  all: ['doctor'] as const,
  summary: () => [...doctorKeys.all, 'summary'] as const,
  state: () => [...doctorKeys.all, 'state'] as const,
};

export const doctorSummaryQueryOptions = () =>
  queryOptions({
    queryKey: doctorKeys.summary(),
    queryFn: ({ signal }) => apiCall('console.doctor.summary.get', { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
