/**
 * Stale access: which members and service users went unused for N days, or hold a credential that expires
 * within M days. Facts come only from what the API sent: "last used" is the last billing day with compute units
 * in the daily consumption of that person (their sessions), within the N days read; an expiry is the service
 * user's `expires_at` (null: never). A field the API did not send is "not published", never a guess.
 */
import { billingDayStart, presetRange, DAY_SECONDS, type TimeRange } from '@/api/billing-day';
import type { ConsumptionResponse } from '@/api/operations/consumption';

export type Kind = 'member' | 'service_user';

export interface Candidate {
  kind: Kind;
  id: string;
  name: string;
  /** Email of a member, id of a service user: beside the name. */
  secondary: string | null;
  /** The roles held, in words ("Enterprise Admin", "Org Member in Acme"). */
  roles: string[];
  /** Unix seconds; null: never expires; undefined: not published (the API sent no such field). */
  expires_at: number | null | undefined;
}

export interface ReviewRow extends Candidate {
  key: string;
  /** Start of the last billing day with compute units in the window; null: none in it. */
  last_used: number | null;
  /** Why the usage could not be read (the row is still listed, never dropped). */
  usage_error: string | null;
  unused: boolean;
  expiring: boolean;
}

/** The window of the last `days` whole billing days, today included. */
export function windowOf(days: number, now: number): TimeRange {
  const today = presetRange('7d', now);
  return { time_after: today.time_before - days * DAY_SECONDS, time_before: today.time_before };
}

export function lastUsed(resp: ConsumptionResponse): number | null {
  let last: number | null = null;
  for (const d of resp.consumption_by_date) if (d.acus > 0) last = Math.max(last ?? 0, billingDayStart(d.date));
  return last;
}

export function reviewRow(
  c: Candidate,
  read: { resp: ConsumptionResponse } | { error: string },
  now: number,
  expiringDays: number,
): ReviewRow {
  const last = 'resp' in read ? lastUsed(read.resp) : null;
  const error = 'error' in read ? read.error : null;
  return {
    ...c,
    key: `${c.kind}:${c.id}`,
    last_used: last,
    usage_error: error,
    unused: error === null && last === null,
    expiring: typeof c.expires_at === 'number' && c.expires_at - now <= expiringDays * DAY_SECONDS,
  };
}

/** The rows to review: unused in the window, or expiring soon (and those whose usage could not be read). */
export const needsReview = (r: ReviewRow) => r.unused || r.expiring || r.usage_error !== null;
