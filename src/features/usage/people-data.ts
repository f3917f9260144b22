/**
 * Consumption per person and service user, this billing cycle against the previous one. Pure functions over API
 * answers: one daily-consumption answer per principal covering both cycles, split here by billing day. The
 * previous cycle is compared over the same number of days as this cycle has had so far (a cycle to date against
 * a whole cycle would always look like a drop), and its whole total is given beside it.
 */
import { billingDayStart, DAY_SECONDS, presetRange, type BillingCycle, type TimeRange } from '@/api/billing-day';
import type { ConsumptionResponse } from '@/api/operations/consumption';

export type PrincipalKind = 'member' | 'service_user';

export interface Principal {
  kind: PrincipalKind;
  id: string;
  /** What a person reads first: a name, else the address, else a note saying neither is known. */
  name: string;
  /** Beside the name: the email of a member, the id of a service user. */
  secondary: string | null;
}

export interface CycleWindows {
  /** This cycle, from its start to the end of today. */
  current: TimeRange;
  /** The whole previous cycle. */
  previous: TimeRange;
  /** The previous cycle's first days, as many as this cycle has had so far. */
  previousSameDays: TimeRange;
  /** One query covering both cycles. */
  query: TimeRange;
}

/** The windows of the comparison at `now`, from the API's cycles (calendar months without them). */
export function cycleWindows(now: number, cycles: readonly BillingCycle[]): CycleWindows {
  const current = presetRange('this_cycle', now, cycles);
  const previous = presetRange('last_cycle', now, cycles);
  const elapsed = current.time_before - current.time_after;
  const previousSameDays = {
    time_after: previous.time_after,
    time_before: Math.min(previous.time_before, previous.time_after + elapsed),
  };
  return {
    current,
    previous,
    previousSameDays,
    query: { time_after: previous.time_after, time_before: current.time_before },
  };
}

/** Hundredths of an ACU, summed as integers so totals add up exactly. */
const cents = (x: number) => Math.round(x * 100);

/** ACUs of the days of `resp` inside `range`. */
export function sumIn(resp: ConsumptionResponse, range: TimeRange): number {
  let c = 0;
  for (const d of resp.consumption_by_date) {
    const day = billingDayStart(d.date);
    if (day >= range.time_after && day < range.time_before) c += cents(d.acus);
  }
  return c / 100;
}

/** The change from `before` to `now` in percent, or null when there was nothing before (no ratio to give). */
export function changePercent(now: number, before: number): number | null {
  if (before === 0) return null;
  return Math.round(((now - before) / before) * 1000) / 10;
}

export interface PersonRow extends Principal {
  /** Unique across members and service users (their ids could in theory collide). */
  key: string;
  this_cycle: number | null;
  previous_same_days: number | null;
  previous_cycle: number | null;
  change_percent: number | null;
  /** Why this row's figures could not be read (the rest of the table still shows). */
  error: string | null;
}

export function personRow(
  p: Principal,
  w: CycleWindows,
  read: { resp: ConsumptionResponse } | { error: string },
): PersonRow {
  const key = `${p.kind}:${p.id}`;
  if ('error' in read) {
    return {
      ...p,
      key,
      this_cycle: null,
      previous_same_days: null,
      previous_cycle: null,
      change_percent: null,
      error: read.error,
    };
  }
  const { resp } = read;
  const now = sumIn(resp, w.current);
  const same = sumIn(resp, w.previousSameDays);
  return {
    ...p,
    key,
    this_cycle: now,
    previous_same_days: same,
    previous_cycle: sumIn(resp, w.previous),
    change_percent: changePercent(now, same),
    error: null,
  };
}

/** Largest consumer first; then by name, so the order is stable. */
export function sortRows(rows: PersonRow[]): PersonRow[] {
  return rows.sort(
    (a, b) => (b.this_cycle ?? -1) - (a.this_cycle ?? -1) || a.name.localeCompare(b.name) || a.key.localeCompare(b.key),
  );
}

/** Totals of the rows that could be read. */
export function totals(rows: readonly PersonRow[]): { this_cycle: number; previous_same_days: number } {
  let a = 0;
  let b = 0;
  for (const r of rows) {
    a += cents(r.this_cycle ?? 0);
    b += cents(r.previous_same_days ?? 0);
  }
  return { this_cycle: a / 100, previous_same_days: b / 100 };
}

/** Days a range spans. */
export const daysOf = (r: TimeRange) => Math.round((r.time_before - r.time_after) / DAY_SECONDS);
