/**
 * The time-range query of the usage, consumption and metrics operations (spec: `time_after`, `time_before`,
 * integer Unix seconds). The range is half-open: `time_after` ≤ t < `time_before`; `time_after` must be earlier
 * than `time_before` (422 otherwise, on `time_after`), and a range is at most `MAX_RANGE_DAYS` long, so one call
 * stays bounded.
 */
import type { z } from 'zod';
import { DAY_SECONDS } from '../billing-day';
import { queryInt, whenFieldsParsed } from '../conventions';

/** Year 9999: the largest time any bound accepts. */
export const MAX_TIME = 253_402_300_799;
/** The longest range one call may ask for (a little over a year of billing days). */
export const MAX_RANGE_DAYS = 400;

export const TimeBound = (name: string) => queryInt({ min: 0, max: MAX_TIME, name });

type RangeShape = { time_after?: number; time_before?: number };

/**
 * The object-level checks of a time range: order, then length. Run even when other fields failed, so every
 * failing field is reported at once.
 */
export function withRangeChecks<T extends z.ZodObject>(schema: T) {
  return schema
    .refine(
      (q) => {
        const r = q as RangeShape;
        return r.time_after === undefined || r.time_before === undefined || r.time_after < r.time_before;
      },
      {
        path: ['time_after'],
        error: (iss) => {
          const q = iss.input as RangeShape;
          return `time_after (${q.time_after}) must be earlier than time_before (${q.time_before})`;
        },
        when: whenFieldsParsed('time_after', 'time_before'),
      },
    )
    .refine(
      (q) => {
        const r = q as RangeShape;
        return (
          r.time_after === undefined ||
          r.time_before === undefined ||
          r.time_before - r.time_after <= MAX_RANGE_DAYS * DAY_SECONDS
        );
      },
      {
        path: ['time_before'],
        message: `A range is at most ${MAX_RANGE_DAYS} days long`,
        when: whenFieldsParsed('time_after', 'time_before'),
      },
    );
}

/** Both bounds required (daily and per-window lists). */
export const RequiredRange = {
  time_after: TimeBound('time_after'),
  time_before: TimeBound('time_before'),
};

/** Both bounds optional (totals: without them, all time). */
export const OptionalRange = {
  time_after: TimeBound('time_after').optional(),
  time_before: TimeBound('time_before').optional(),
};
