/** The Doctor screen's queries: the last report with the run in progress, and starting a run. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DoctorState } from '@/api/console/doctor';
import { apiCall } from '@/lib/api-client';
import { doctorKeys } from '@/lib/doctor-summary';

/** How often the screen asks for progress while a run goes on. */
export const DOCTOR_POLL_MS = 1_000;

export const doctorStateQueryOptions = () =>
  queryOptions({
    queryKey: doctorKeys.state(),
    queryFn: ({ signal }) => apiCall('console.doctor.get', { signal }),
    refetchInterval: (query) => (query.state.data?.running ? DOCTOR_POLL_MS : false),
  });

/** Starts a run (or joins the one in progress); the state query follows it from there. */
export function useRunDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('console.doctor.runs.create'),
    onSuccess: (state: DoctorState) => {
      queryClient.setQueryData(doctorKeys.state(), state);
    },
  });
}
