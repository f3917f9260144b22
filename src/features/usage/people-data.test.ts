/** The per-person comparison: cycle windows, sums by billing day, change against the same days before. */
import { describe, expect, it } from 'vitest';
import { DAY_SECONDS } from '@/api/billing-day';
import { changePercent, cycleWindows, personRow, sortRows, sumIn, totals } from './people-data';

const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 8) / 1000;
// Cycles start on the 10th; now is the 12th, 10:00 UTC: three billing days of this cycle so far.
const cycles = [
  { after: day(2026, 11, 10), before: day(2026, 12, 10) },
  { after: day(2026, 10, 10), before: day(2026, 11, 10) },
];
const NOW = Date.UTC(2026, 10, 12, 10) / 1000;

describe('per-person consumption', () => {
  const w = cycleWindows(NOW, cycles);

  it('compares this cycle so far with as many days of the previous one', () => {
    expect(w.current).toEqual({ time_after: day(2026, 11, 10), time_before: day(2026, 11, 13) });
    expect(w.previous).toEqual({ time_after: day(2026, 10, 10), time_before: day(2026, 11, 10) });
    expect(w.previousSameDays).toEqual({ time_after: day(2026, 10, 10), time_before: day(2026, 10, 13) });
    expect(w.query).toEqual({ time_after: day(2026, 10, 10), time_before: day(2026, 11, 13) });
  });

  it('sums the days of each window exactly, and gives the change', () => {
    const resp = {
      total_acus: 0,
      consumption_by_date: [
        { date: day(2026, 10, 10), acus: 0.1 },
        { date: day(2026, 10, 12), acus: 0.2 },
        { date: day(2026, 10, 20), acus: 5 },
        { date: day(2026, 11, 11), acus: 0.45 },
      ],
    };
    expect(sumIn(resp, w.previousSameDays)).toBe(0.3);
    const row = personRow({ kind: 'member', id: 'user-1', name: 'Carmen Bauer', secondary: 'c@x' }, w, { resp });
    expect(row).toMatchObject({ this_cycle: 0.45, previous_same_days: 0.3, previous_cycle: 5.3, change_percent: 50 });
    expect(changePercent(1, 0)).toBeNull();
    expect(changePercent(0, 2)).toBe(-100);
  });

  it('keeps a row that could not be read, without figures, and puts it last', () => {
    const failed = personRow({ kind: 'service_user', id: 'su-1', name: 'CI Bot', secondary: 'su-1' }, w, {
      error: 'Rate limited',
    });
    const ok = personRow({ kind: 'member', id: 'u', name: 'A', secondary: null }, w, {
      resp: { total_acus: 0, consumption_by_date: [{ date: w.current.time_after, acus: 0 }] },
    });
    expect(sortRows([failed, ok]).map((r) => r.key)).toEqual(['member:u', 'service_user:su-1']);
    expect(failed).toMatchObject({ this_cycle: null, error: 'Rate limited' });
    expect(totals([failed, ok]).this_cycle).toBe(0);
    expect(w.current.time_before - w.current.time_after).toBe(3 * DAY_SECONDS);
  });
});
