/**
 * The people behind the console's service user: the API's audit log names the credential the console acts
 * with for every change made through it; the console's own activity record knows who made each one. Shown
 * beside the audit log, an entry of the console's service user reads as the person whose write it was: the
 * console write of the same organization closest in time (within a few seconds) that succeeded.
 */
import { useQuery } from '@tanstack/react-query';
import type { ActivityEntry } from '@/api/console/activity';
import type { AuditLogEntry } from '@/api/operations/audit-logs';
import { apiCall } from '@/lib/api-client';

/** How far apart in seconds the API's entry and the console's record of the same write may be. */
export const MATCH_WINDOW_S = 10;
const MAX_ACTIVITY = 500;

/** The console's record of the write an audit entry records, if one is close enough. */
export function matchConsoleWrite(
  entry: Pick<AuditLogEntry, 'created_at' | 'org_id' | 'user_id'>,
  activity: readonly ActivityEntry[],
): ActivityEntry | undefined {
  // An entry made by a person with their own API account is theirs already.
  if (entry.user_id) return undefined;
  let best: ActivityEntry | undefined;
  for (const a of activity) {
    if (a.outcome !== 'succeeded') continue;
    if ((a.org_id ?? null) !== (entry.org_id ?? null) && a.org_id !== null) continue;
    const gap = Math.abs(a.at - entry.created_at);
    if (gap > MATCH_WINDOW_S) continue;
    if (!best || gap < Math.abs(best.at - entry.created_at)) best = a;
  }
  return best;
}

/** The person a console record names, as the audit log shows them. */
export const personLabel = (a: ActivityEntry) =>
  a.name ??
  a.email ??
  a.subject ??
  (a.method === 'bearer' ? 'access token (script)' : a.method === 'off' ? 'access control off' : 'unknown person');

/**
 * The console's writes over the time the loaded audit entries span, when `enabled`; a map from audit-log id to
 * the person behind it.
 */
export function useConsolePeople(items: readonly AuditLogEntry[], enabled: boolean) {
  const times = items.map((e) => e.created_at);
  const from = times.length ? Math.min(...times.slice(0, 2_000)) - MATCH_WINDOW_S : 0;
  const to = times.length ? Math.max(...times.slice(0, 2_000)) + MATCH_WINDOW_S + 1 : 0;
  const activity = useQuery({
    queryKey: ['console-activity', 'beside-audit-log', from, to] as const,
    queryFn: ({ signal }) =>
      apiCall('console.activity.list', {
        query: { from: String(from), to: String(to), outcome: 'succeeded', first: String(MAX_ACTIVITY) },
        signal,
      }),
    enabled: enabled && times.length > 0,
    staleTime: 30_000,
    retry: false,
  });
  const people = new Map<string, ActivityEntry>();
  if (enabled && activity.data) {
    for (const e of items) {
      const match = matchConsoleWrite(e, activity.data.items);
      if (match) people.set(e.audit_log_id, match);
    }
  }
  return { people, error: activity.error, pending: enabled && activity.isPending && times.length > 0 };
}
