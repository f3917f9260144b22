/**
 * Each member's and service user's daily consumption over a range, for the screens that set people beside their
 * compute units (consumption per person, stale access). The API answers it one principal at a time only, so the
 * console server reads them all and this makes one call (`console.consumption.principals.get`). A principal the
 * answer leaves out (added since it was read, or in a list the upstream serves at another path) is read on its
 * own, eight at a time. A refused credential fails the whole read, as it would fail every row alike; any other
 * failure leaves that principal without figures, saying why.
 *
 * Both screens ask for a window ending with today. The console is asked for at least the last `SHARED_DAYS`
 * billing days, so the two screens' reads are one and the same read (which the server keeps a short while), and
 * each principal's days are cut back to the window asked for here.
 */
import { DAY_SECONDS, type TimeRange } from '@/api/billing-day';
import type { PrincipalConsumption } from '@/api/console/principal-consumption';
import type { ConsumptionResponse } from '@/api/operations/consumption';
import { apiCall } from './api-client';
import { errorMessage, isApiError } from './api-error';
import { pool } from '@/api/pool';

export type PrincipalKind = PrincipalConsumption['kind'];

/** Who to read: a member (`user_id`) or a service user (`service_user_id`). */
export interface PrincipalRef {
  kind: PrincipalKind;
  id: string;
}

/** One principal's consumption over the window (its days with compute units), or why it could not be read. */
export type PrincipalRead = { resp: ConsumptionResponse } | { error: string };

/** The window every read asks the console for at least: the longest either screen shows, and a little more. */
export const SHARED_DAYS = 100;

const keyOf = (p: PrincipalRef) => `${p.kind}:${p.id}`;
const refused = (err: unknown) => isApiError(err) && (err.status === 401 || err.status === 403);

/** The days of `days` inside `range`, with their total (in hundredths, so it adds up exactly). */
export function cut(days: ReadonlyArray<{ date: number; acus: number }>, range: TimeRange): ConsumptionResponse {
  const inside = days.filter((d) => d.date >= range.time_after && d.date < range.time_before);
  const cents = inside.reduce((n, d) => n + Math.round(d.acus * 100), 0);
  return { total_acus: cents / 100, consumption_by_date: inside.map((d) => ({ date: d.date, acus: d.acus })) };
}

/** The window asked of the console for `range`: the same for every window ending at the same moment. */
export function sharedWindow(range: TimeRange): TimeRange {
  return {
    time_after: Math.min(range.time_after, range.time_before - SHARED_DAYS * DAY_SECONDS),
    time_before: range.time_before,
  };
}

/** One principal read on its own, from the API. */
async function readOne(p: PrincipalRef, range: TimeRange, signal: AbortSignal): Promise<PrincipalRead> {
  try {
    const resp =
      p.kind === 'member'
        ? await apiCall('consumption.daily.user.get', { params: { user_id: p.id }, query: range, signal })
        : await apiCall('consumption.daily.serviceUser.get', {
            params: { service_user_id: p.id },
            query: range,
            signal,
          });
    return { resp };
  } catch (err) {
    if (signal.aborted || refused(err)) throw err;
    return { error: errorMessage(err) };
  }
}

/** Each principal's consumption over `range`, in the order given. */
export async function readPrincipalConsumption(
  principals: readonly PrincipalRef[],
  range: TimeRange,
  signal: AbortSignal,
): Promise<PrincipalRead[]> {
  // Should the console's read itself fail (other than by a refusal), every principal is read on its own.
  const items = await apiCall('console.consumption.principals.get', { query: sharedWindow(range), signal }).then(
    (answer) => answer.items,
    (err: unknown) => {
      if (signal.aborted || refused(err)) throw err;
      return [];
    },
  );
  const read = new Map(items.map((i) => [keyOf(i), i] as const));
  return pool(principals, 8, async (p): Promise<PrincipalRead> => {
    const found = read.get(keyOf(p));
    if (!found) return readOne(p, range, signal);
    if (found.error !== null || found.days === null) return { error: found.error ?? 'Not read' };
    return { resp: cut(found.days, range) };
  });
}
