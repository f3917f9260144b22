/**
 * The usage screens' URL state: a range preset (`?range=30d`). Only presets exist, so the picker cannot ask for
 * a range the API would refuse. Without zod: route files read it at start.
 */
import { RANGE_PRESETS, type RangePreset } from '@/api/values';
import { defineSearch, oneOf, type SearchOf } from '@/lib/search-params';

export const DEFAULT_PRESET: RangePreset = '30d';

export const UsageSearch = defineSearch({
  fields: { range: oneOf(RANGE_PRESETS) },
  filters: (s) => ({ preset: s.range ?? DEFAULT_PRESET }),
});
export type UsageSearch = SearchOf<typeof UsageSearch>;

/** Leaves the default out of the URL. */
export const cleanUsageSearch = (s: UsageSearch): UsageSearch =>
  s.range && s.range !== DEFAULT_PRESET ? { range: s.range } : {};

/** Whether a preset needs the cycles list to resolve. */
export const needsCycles = (p: RangePreset) => p === 'this_cycle' || p === 'last_cycle';
