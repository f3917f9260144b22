/** The cycle forecast: burn rate, the cycle's end, and the day a limit is (or would be) reached. */
import { describe, expect, it } from 'vitest';
import { billingDayOf, DAY_SECONDS } from '@/api/billing-day';
import { forecastCycle } from './cycle-forecast';

const cycleStart = billingDayOf('2025-03-05')!; // 08:00 UTC
const cycle = { after: cycleStart, before: billingDayOf('2025-04-05')! }; // 31 days
const day = (i: number) => cycleStart + i * DAY_SECONDS;

describe('forecastCycle', () => {
  it('projects the cycle end at the average of the last 7 complete days, today left out', () => {
    // Ten complete days of 10 ACUs, then 100 ACUs on the last three of them, and today 5 so far.
    const days = [
      ...Array.from({ length: 7 }, (_, i) => ({ date: day(i), acus: 10 })),
      ...Array.from({ length: 3 }, (_, i) => ({ date: day(7 + i), acus: 100 })),
      { date: day(10), acus: 5 },
    ];
    const now = day(10) + 12 * 3_600; // halfway through day 10
    const f = forecastCycle({ cycle, now, days, limit: null });
    expect(f.cycleToDate).toBe(375);
    expect(f.rateDays).toBe(7);
    expect(f.burnRate).toBeCloseTo((4 * 10 + 3 * 100) / 7, 2);
    const remaining = (cycle.before - now) / DAY_SECONDS; // 20.5 days
    expect(f.forecastAtEnd).toBeCloseTo(375 + f.burnRate * remaining, 1);
    expect(f.limitReachedOn).toBeNull();
    expect(f.overLimit).toBe(false);
  });

  it('names the billing day on which the limit would be reached at that rate', () => {
    const days = Array.from({ length: 5 }, (_, i) => ({ date: day(i), acus: 100 }));
    const now = day(5); // 08:00 on day 5: 500 used, 100 a day
    // 1,000 is reached 5 days later, on day 10 (at 08:00 exactly: that day).
    expect(forecastCycle({ cycle, now, days, limit: 1_000 }).limitReachedOn).toBe(day(10));
    // 1,050: halfway through day 10.
    expect(forecastCycle({ cycle, now, days, limit: 1_050 }).limitReachedOn).toBe(day(10));
    // 1,101: on day 11.
    expect(forecastCycle({ cycle, now, days, limit: 1_101 }).limitReachedOn).toBe(day(11));
    // Beyond the cycle's end: not this cycle.
    expect(forecastCycle({ cycle, now, days, limit: 10_000 }).limitReachedOn).toBeNull();
  });

  it('says when the limit is already reached, and on which day it was crossed', () => {
    const days = [
      { date: day(0), acus: 300 },
      { date: day(1), acus: 300 },
      { date: day(2), acus: 300 },
    ];
    const f = forecastCycle({ cycle, now: day(3), days, limit: 500 });
    expect(f.overLimit).toBe(true);
    expect(f.limitReachedOn).toBe(day(1));
  });

  it("uses the time elapsed on the cycle's first day, and never divides by zero", () => {
    const f = forecastCycle({ cycle, now: cycle.after + 6 * 3_600, days: [{ date: day(0), acus: 12 }], limit: 100 });
    expect(f.rateDays).toBe(0);
    expect(f.burnRate).toBe(48); // 12 ACUs in a quarter of a day
    expect(f.limitReachedOn).toBe(day(2)); // 88 more at 48 a day: 1.83 days after 14:00 UTC on day 0
    const idle = forecastCycle({ cycle, now: cycle.after, days: [], limit: 100 });
    expect(idle.burnRate).toBe(0);
    expect(idle.forecastAtEnd).toBe(0);
    expect(idle.limitReachedOn).toBeNull();
  });

  it('ignores days outside the cycle', () => {
    const f = forecastCycle({
      cycle,
      now: day(2),
      days: [
        { date: cycle.after - DAY_SECONDS, acus: 999 },
        { date: day(0), acus: 10 },
        { date: day(1), acus: 10 },
      ],
      limit: null,
    });
    expect(f.cycleToDate).toBe(20);
  });
});
