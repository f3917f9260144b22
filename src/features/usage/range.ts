/**
 * The usage screens' time range, resolved from its preset (see `search.ts`) to whole billing days with the API's
 * billing cycles, and how billing days and ranges are written.
 */
import { useQuery } from '@tanstack/react-query';
import {
  billingDayLabel,
  billingDayStart,
  DAY_SECONDS,
  presetRange,
  type BillingCycle,
  type RangePreset,
  type TimeRange,
} from '@/api/billing-day';
import { useNow } from '@/lib/use-now';
import { cyclesQueryOptions } from './api';
import { needsCycles } from './search';

export { DEFAULT_PRESET } from './search';

/**
 * The range of a preset, now. Cycle presets wait for the cycles list (and fall back to calendar months when the
 * credential cannot read it); `range` is undefined meanwhile.
 */
export function useUsageRange(preset: RangePreset): {
  range: TimeRange | undefined;
  cycles: BillingCycle[] | undefined;
  now: number;
} {
  const now = Math.floor(useNow(60_000) / 1000);
  const cycles = useQuery(cyclesQueryOptions());
  const settled = cycles.isSuccess || cycles.isError;
  const range = !needsCycles(preset) || settled ? presetRange(preset, now, cycles.data ?? []) : undefined;
  return { range, cycles: cycles.data, now };
}

const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayYearFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/**
 * "Mar 9": the date of the billing day holding `t`. A billing day starts at 08:00 UTC, so the UTC date of its
 * start is its date; any later moment of the day (up to 07:59:59 UTC the next morning) is first brought back to
 * that start, or the last hours of a day would read as the next date.
 */
export const formatBillingDay = (t: number) => dayFormat.format(billingDayStart(t) * 1000);
export const formatBillingDayLong = (t: number) => dayYearFormat.format(billingDayStart(t) * 1000);

/** The start of a range's last billing day (its end is exclusive: the day before `time_before`'s day). */
export const lastBillingDay = (range: TimeRange) => billingDayStart(range.time_before - 1);

/**
 * "Oct 28 – Nov 26, 2026": the billing days of a range, both ends inclusive (30 days ending Nov 26 read so, not
 * "… – Nov 27": `time_before` is the exclusive start of the day after).
 */
export function formatRange(range: TimeRange): string {
  const last = lastBillingDay(range);
  const first = billingDayStart(range.time_after);
  return last - first < DAY_SECONDS
    ? formatBillingDayLong(first)
    : `${formatBillingDay(first)} – ${formatBillingDayLong(last)}`;
}

/** File-name part of a range: `2025-03-01_2025-03-30` (inclusive, as the label). */
export const rangeSlug = (range: TimeRange) =>
  `${billingDayLabel(range.time_after)}_${billingDayLabel(lastBillingDay(range))}`;
