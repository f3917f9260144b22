/**
 * The cycle forecast, shared by the usage screen and the console server's alerts (a consumption rule fires on
 * the same figures the screen shows): compute units used so far in the billing cycle, the current burn rate,
 * where the cycle ends at that rate, and the billing day on which a limit would be reached. Pure, in Unix
 * seconds.
 *
 * The burn rate is the average of the last `windowDays` complete billing days of the cycle (today is still
 * filling up, so it is left out); in a cycle's first day, the ACUs so far over the time elapsed.
 */
import { billingDayStart, DAY_SECONDS, type BillingCycle } from './billing-day';

export interface ForecastInput {
  cycle: BillingCycle;
  now: number;
  /** ACUs per billing day of the cycle so far (`date` = the day's start). */
  days: ReadonlyArray<{ date: number; acus: number }>;
  /** The cycle's ACU limit, or null for none. */
  limit: number | null;
  windowDays?: number;
}

export interface Forecast {
  cycleToDate: number;
  /** ACUs per day at the current rate. */
  burnRate: number;
  /** The days the rate was taken over (0: from the time elapsed today). */
  rateDays: number;
  /** ACUs at the cycle's end at that rate. */
  forecastAtEnd: number;
  limit: number | null;
  /** The billing day (its start) on which the limit is, or would be, reached; null when it is not this cycle. */
  limitReachedOn: number | null;
  /** True when the cycle to date is already at or over the limit. */
  overLimit: boolean;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function forecastCycle({ cycle, now, days, limit, windowDays = 7 }: ForecastInput): Forecast {
  const t = Math.min(Math.max(now, cycle.after), cycle.before);
  const inCycle = days.filter((d) => d.date >= billingDayStart(cycle.after) && d.date < cycle.before && d.date <= t);
  const cycleToDate = inCycle.reduce((n, d) => n + d.acus, 0);
  const today = billingDayStart(t);
  const complete = inCycle.filter((d) => d.date < today).slice(-windowDays);
  let burnRate: number;
  if (complete.length > 0) {
    burnRate = complete.reduce((n, d) => n + d.acus, 0) / complete.length;
  } else {
    const elapsedDays = Math.max(t - cycle.after, 3_600) / DAY_SECONDS;
    burnRate = cycleToDate / elapsedDays;
  }
  const remainingDays = Math.max(0, cycle.before - t) / DAY_SECONDS;
  const forecastAtEnd = cycleToDate + burnRate * remainingDays;

  let limitReachedOn: number | null = null;
  const overLimit = limit !== null && cycleToDate >= limit;
  if (limit !== null) {
    if (overLimit) {
      // The day the running total first reached it.
      let sum = 0;
      for (const d of inCycle) {
        sum += d.acus;
        if (sum >= limit) {
          limitReachedOn = d.date;
          break;
        }
      }
    } else if (burnRate > 0) {
      const at = t + ((limit - cycleToDate) / burnRate) * DAY_SECONDS;
      limitReachedOn = at < cycle.before ? billingDayStart(at) : null;
    }
  }
  return {
    cycleToDate: round2(cycleToDate),
    burnRate: round2(burnRate),
    rateDays: complete.length,
    forecastAtEnd: round2(forecastAtEnd),
    limit,
    limitReachedOn,
    overLimit,
  };
}
