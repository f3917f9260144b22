/**
 * The usage screens' URL state: a range preset (`?range=30d`). Only presets exist, so the picker cannot ask for
 * a range the API would refuse. Kept light (zod and the billing-day module only): route files read it at start.
 */
import { z } from 'zod';
import { RANGE_PRESETS, type RangePreset } from '@/api/billing-day';

export const DEFAULT_PRESET: RangePreset = '30d';

export const UsageSearch = z.object({
  range: z.enum(RANGE_PRESETS).optional().catch(undefined),
});
export type UsageSearch = z.infer<typeof UsageSearch>;

/** Leaves the default out of the URL. */
export const cleanUsageSearch = (s: UsageSearch): UsageSearch =>
  s.range && s.range !== DEFAULT_PRESET ? { range: s.range } : {};

/** Whether a preset needs the cycles list to resolve. */
export const needsCycles = (p: RangePreset) => p === 'this_cycle' || p === 'last_cycle';
