/**
 * Schedules of one organization: query keys, query options and mutations. Schedule times arrive as ISO 8601
 * strings (unlike the rest of the API); `isoSeconds` turns them into the Unix seconds the time components show.
 */
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { notFound } from '@tanstack/react-router';
import type { CreateScheduleBody, Schedule, UpdateScheduleBody } from '@/api/operations/schedules';
import { apiCall } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export const SCHEDULES_PAGE_SIZE = 100;
/** How often an open schedule and its runs are read again (the API has no events: polling, as its guidance says). */
export const SCHEDULE_POLL_MS = 5_000;

export const scheduleKeys = {
  all: ['schedules'] as const,
  org: (orgId: string) => [...scheduleKeys.all, orgId] as const,
  list: (orgId: string) => [...scheduleKeys.org(orgId), 'list'] as const,
  detail: (orgId: string, id: string) => [...scheduleKeys.org(orgId), 'detail', id] as const,
  runs: (orgId: string, id: string) => [...scheduleKeys.org(orgId), 'runs', id] as const,
};

/** An ISO 8601 time as Unix seconds; null when absent or unreadable. */
export function isoSeconds(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

export const schedulesInfiniteQueryOptions = (orgId: string) =>
  cursorInfiniteQueryOptions({
    queryKey: scheduleKeys.list(orgId),
    page: (after, signal) =>
      apiCall('schedules.list', { params: { org_id: orgId }, query: { first: SCHEDULES_PAGE_SIZE, after }, signal }),
  });

export const scheduleQueryOptions = (orgId: string, scheduleId: string) =>
  queryOptions({
    queryKey: scheduleKeys.detail(orgId, scheduleId),
    queryFn: ({ signal }) => apiCall('schedules.get', { params: { org_id: orgId, schedule_id: scheduleId }, signal }),
  });

/** The runs of a schedule, each with the session it started (a sandbox extension: absent upstream, a 404). */
export const scheduleRunsInfiniteQueryOptions = (orgId: string, scheduleId: string) =>
  cursorInfiniteQueryOptions({
    queryKey: scheduleKeys.runs(orgId, scheduleId),
    page: (after, signal) =>
      apiCall('schedules.runs.list', {
        params: { org_id: orgId, schedule_id: scheduleId },
        query: { first: 50, after },
        signal,
      }),
    retry: (count, error) => !(isApiError(error) && error.status === 404) && count < 2,
  });

function useSetSchedule(orgId: string) {
  const qc = useQueryClient();
  return (schedule: Schedule) => {
    qc.setQueryData(scheduleKeys.detail(orgId, schedule.scheduled_session_id), schedule);
    return qc.invalidateQueries({ queryKey: scheduleKeys.list(orgId) });
  };
}

export function useCreateSchedule(orgId: string) {
  const set = useSetSchedule(orgId);
  return useMutation({
    mutationFn: (body: CreateScheduleBody) => apiCall('schedules.create', { params: { org_id: orgId }, body }),
    onSuccess: set,
  });
}

export function useUpdateSchedule(orgId: string) {
  const set = useSetSchedule(orgId);
  return useMutation({
    mutationFn: ({ scheduleId, body }: { scheduleId: string; body: UpdateScheduleBody }) =>
      apiCall('schedules.update', { params: { org_id: orgId, schedule_id: scheduleId }, body }),
    onSuccess: set,
  });
}

export function useDeleteSchedule(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: string) =>
      apiCall('schedules.delete', { params: { org_id: orgId, schedule_id: scheduleId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: scheduleKeys.list(orgId) }),
  });
}

/** What the schedule's page must say once, after the form that created it (see `ScheduleForm`). */
export type ScheduleNotice = { kind: 'disable-failed'; error: unknown };

const notices = new Map<string, ScheduleNotice>();

/** Leaves a notice for the schedule's page, which takes it when it opens. */
export function leaveScheduleNotice(scheduleId: string, notice: ScheduleNotice): void {
  notices.set(scheduleId, notice);
}

/** The notice left for this schedule, if any (the page reads it when it opens, then drops it). */
export function peekScheduleNotice(scheduleId: string): ScheduleNotice | null {
  return notices.get(scheduleId) ?? null;
}

/** Drops the notice once the page holds it, so that it is shown once. */
export function dropScheduleNotice(scheduleId: string): void {
  notices.delete(scheduleId);
}

export function forgetSchedule(qc: QueryClient, orgId: string, scheduleId: string): void {
  qc.removeQueries({ queryKey: scheduleKeys.detail(orgId, scheduleId), exact: true });
  qc.removeQueries({ queryKey: scheduleKeys.runs(orgId, scheduleId), exact: true });
}

/** Route loader: fetches one schedule, turning a 404 into the router's not-found. */
export async function loadSchedule(queryClient: QueryClient, orgId: string, scheduleId: string): Promise<void> {
  try {
    await queryClient.query(scheduleQueryOptions(orgId, scheduleId));
  } catch (err) {
    if (isApiError(err) && err.status === 404) throw notFound();
    throw err;
  }
}

/** The most session ids one sessions-list request may filter on (the contract's bound). */
const TITLES_PER_REQUEST = 100;

/**
 * The titles of the sessions a schedule's runs started, by session id, read with the sessions list's
 * `session_ids` filter (100 ids a request): the runs list names each session as the sessions list does.
 */
export const sessionTitlesQueryOptions = (orgId: string, sessionIds: readonly string[]) =>
  queryOptions({
    queryKey: [...scheduleKeys.org(orgId), 'session-titles', [...sessionIds].sort()] as const,
    queryFn: async ({ signal }) => {
      const titles = new Map<string, string>();
      for (let i = 0; i < sessionIds.length; i += TITLES_PER_REQUEST) {
        const ids = sessionIds.slice(i, i + TITLES_PER_REQUEST);
        const page = await apiCall('sessions.list', {
          params: { org_id: orgId },
          query: { session_ids: [...ids], first: ids.length },
          signal,
        });
        for (const s of page.items) if (s.title?.trim()) titles.set(s.session_id, s.title.trim());
      }
      return titles;
    },
    enabled: sessionIds.length > 0,
    staleTime: 60_000,
    // Titles beside ids: when they cannot be read, the ids alone still identify the sessions.
    retry: 1,
  });
