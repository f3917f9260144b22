/**
 * The usage screens' time range, resolved from its preset (see `search.ts`) to whole billing days with the API's
 * billing cycles, and how billing days and ranges are written.
 */
import { useQuery } from '@tanstack/react-query';
import { billingDayLabel, presetRange, type BillingCycle, type RangePreset, type TimeRange } from '@/api/billing-day';
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

/** "Mar 9": a billing day's date (its start is 08:00 UTC, so the UTC date is the billing date). */
export const formatBillingDay = (dayStart: number) => dayFormat.format(dayStart * 1000);
export const formatBillingDayLong = (dayStart: number) => dayYearFormat.format(dayStart * 1000);

/** "Mar 1 – Mar 30, 2025": the billing days of a range (its end is exclusive). */
export function formatRange(range: TimeRange): string {
  return `${formatBillingDay(range.time_after)} – ${formatBillingDayLong(range.time_before - 1)}`;
}

/** File-name part of a range: `2025-03-01_2025-03-30`. */
export const rangeSlug = (range: TimeRange) =>
  `${billingDayLabel(range.time_after)}_${billingDayLabel(range.time_before - 1)}`;
