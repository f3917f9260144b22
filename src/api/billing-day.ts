/**
 * The billing day and the billing cycle, shared by the sandbox (which buckets consumption) and the browser
 * (which picks ranges and labels days). Spec, Limits: a consumption day starts at midnight in the Pacific time
 * zone, 08:00:00 UTC. The boundary is 08:00:00 UTC all year, as the spec states it — also while the Pacific
 * zone is on daylight time — and whatever the time zone of the browser: every function here works on Unix
 * seconds and UTC fields only, never on the local time zone.
 *
 * A billing cycle is a run of billing days from one cycle start to the next (the API's cycles list says where
 * they fall; `cycleBounds` computes them from a day of the month, as the sandbox does).
 */
import type { RangePreset } from './values';

/** Seconds in a (billing) day. */
export const DAY_SECONDS = 86_400;
/** The hour (UTC) at which every billing day starts. */
export const BILLING_DAY_START_HOUR_UTC = 8;
const OFFSET = BILLING_DAY_START_HOUR_UTC * 3_600;

/** How the boundary is stated next to every daily figure. */
export const BILLING_DAY_NOTE = 'Billing days start at 08:00 UTC (midnight Pacific standard time), all year.';

/** The start (Unix seconds) of the billing day holding `t`. */
export function billingDayStart(t: number): number {
  return Math.floor((t - OFFSET) / DAY_SECONDS) * DAY_SECONDS + OFFSET;
}

/** The start of the billing day after the one holding `t` (the exclusive end of `t`'s day). */
export function billingDayEnd(t: number): number {
  return billingDayStart(t) + DAY_SECONDS;
}

/** True when `t` falls exactly on a billing-day boundary. */
export function isBillingDayStart(t: number): boolean {
  return billingDayStart(t) === t;
}

/**
 * The billing day's date, `YYYY-MM-DD`: the date in the Pacific zone on which it starts (08:00 UTC is still the
 * same UTC date, so the UTC date of its start is that date).
 */
export function billingDayLabel(dayStart: number): string {
  return new Date(billingDayStart(dayStart) * 1000).toISOString().slice(0, 10);
}

/** The billing day that starts on a `YYYY-MM-DD` date, or null for a string that is not a real date. */
export function billingDayOf(label: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(label);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), BILLING_DAY_START_HOUR_UTC);
  const back = new Date(ms).toISOString().slice(0, 10);
  return back === label ? ms / 1000 : null;
}

/** The starts of every billing day that overlaps [after, before), oldest first; at most `max` of them. */
export function billingDays(after: number, before: number, max = 1_000): number[] {
  const out: number[] = [];
  for (let d = billingDayStart(after); d < before && out.length < max; d += DAY_SECONDS) out.push(d);
  return out;
}

/**
 * Groups values by the billing day of their time, within [after, before): a map from each day's start (every
 * day of the range, also the empty ones, oldest first) to its values. Values outside the range are left out.
 */
export function bucketByBillingDay<T>(
  values: Iterable<T>,
  timeOf: (v: T) => number,
  after: number,
  before: number,
): Map<number, T[]> {
  const out = new Map<number, T[]>(billingDays(after, before).map((d) => [d, []]));
  for (const v of values) {
    const t = timeOf(v);
    if (t < after || t >= before) continue;
    out.get(billingDayStart(t))?.push(v);
  }
  return out;
}

/** A billing cycle: `after` (inclusive start) and `before` (exclusive end), Unix seconds, both day starts. */
export interface BillingCycle {
  after: number;
  before: number;
}

/** Days of the month a cycle may start on (1–28, so every month has it). */
export const CYCLE_ANCHOR_DAYS = { min: 1, max: 28 } as const;

const cycleStartIn = (year: number, month: number, anchorDay: number) =>
  Date.UTC(year, month, anchorDay, BILLING_DAY_START_HOUR_UTC) / 1000;

/** The cycle holding `t`, for cycles that start on `anchorDay` of every month at 08:00 UTC. */
export function cycleBounds(t: number, anchorDay: number): BillingCycle {
  const d = new Date(t * 1000);
  let year = d.getUTCFullYear();
  let month = d.getUTCMonth();
  if (t < cycleStartIn(year, month, anchorDay)) {
    month -= 1;
    if (month < 0) {
      month = 11;
      year -= 1;
    }
  }
  const after = cycleStartIn(year, month, anchorDay);
  const before = month === 11 ? cycleStartIn(year + 1, 0, anchorDay) : cycleStartIn(year, month + 1, anchorDay);
  return { after, before };
}

/** The cycle of `cycles` that holds `t`, if any. */
export function cycleContaining(cycles: readonly BillingCycle[], t: number): BillingCycle | undefined {
  return cycles.find((c) => c.after <= t && t < c.before);
}

/** The range presets of the usage screens; each gives whole billing days. */
export { RANGE_PRESETS, type RangePreset } from './values';

export const RANGE_PRESET_LABELS: Record<RangePreset, string> = {
  this_cycle: 'This billing cycle',
  last_cycle: 'Last billing cycle',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
};

/** A query range, half-open: `time_after` ≤ t < `time_before`, both billing-day starts, after < before. */
export interface TimeRange {
  time_after: number;
  time_before: number;
}

/**
 * The range of a preset at `now`. The last N days are N whole billing days ending with today's; this cycle runs
 * from its start to the end of today; the last cycle is the whole cycle before the one holding `now`. The cycles
 * come from the API; without them, cycles are taken to start on the 1st of each month. Every result is a
 * non-empty range of whole billing days (time_after < time_before), so a picker built on it cannot ask for a
 * bad one.
 */
export function presetRange(preset: RangePreset, now: number, cycles: readonly BillingCycle[] = []): TimeRange {
  const todayEnd = billingDayEnd(now);
  const days = preset === '7d' ? 7 : preset === '30d' ? 30 : preset === '90d' ? 90 : 0;
  if (days > 0) return { time_after: todayEnd - days * DAY_SECONDS, time_before: todayEnd };
  const current = cycleContaining(cycles, now) ?? cycleBounds(now, 1);
  if (preset === 'this_cycle') {
    return {
      time_after: billingDayStart(current.after),
      time_before: Math.min(billingDayEnd(current.before - 1), todayEnd),
    };
  }
  const previous =
    cycles.find((c) => c.before === current.after) ??
    cycleBounds(current.after - 1, new Date(current.after * 1000).getUTCDate());
  const after = billingDayStart(previous.after);
  const before = billingDayEnd(previous.before - 1);
  return { time_after: after, time_before: Math.max(before, after + DAY_SECONDS) };
}

/** Whole billing days in a range (rounded up). */
export function daysIn(range: TimeRange): number {
  return Math.ceil((range.time_before - range.time_after) / DAY_SECONDS);
}
