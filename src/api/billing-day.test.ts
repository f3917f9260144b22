/**
 * The billing day: 08:00:00 UTC all year, whatever the browser's time zone. Each case runs under time zones far
 * from Pacific (UTC+14, UTC+5:30, UTC−11), in Pacific itself and in Berlin, and across the daylight-saving changes
 * of both; the buckets do not move.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  billingDayLabel,
  billingDayOf,
  billingDays,
  billingDayStart,
  bucketByBillingDay,
  cycleBounds,
  DAY_SECONDS,
  daysIn,
  presetRange,
  RANGE_PRESETS,
} from './billing-day';

const ZONES = ['Pacific/Kiritimati', 'Asia/Kolkata', 'Pacific/Pago_Pago', 'America/Los_Angeles', 'Europe/Berlin'];
const originalTz = process.env.TZ;
afterAll(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

const utc = (iso: string) => Date.parse(iso) / 1000;

/** Runs `fn` once per time zone, after checking that the zone took effect in this process. */
function inEveryZone(fn: (zone: string) => void) {
  for (const zone of ZONES) {
    process.env.TZ = zone;
    const offset = new Date(utc('2025-01-15T12:00:00Z') * 1000).getTimezoneOffset();
    const expected = {
      'Pacific/Kiritimati': -840,
      'Asia/Kolkata': -330,
      'Pacific/Pago_Pago': 660,
      'America/Los_Angeles': 480,
      'Europe/Berlin': -60,
    }[zone];
    expect(offset, `time zone ${zone} in effect`).toBe(expected);
    fn(zone);
  }
}

describe('billingDayStart', () => {
  it('starts every day at 08:00:00 UTC: 07:59:59 and 08:00:00 are different days', () => {
    inEveryZone(() => {
      expect(billingDayStart(utc('2025-06-10T07:59:59Z'))).toBe(utc('2025-06-09T08:00:00Z'));
      expect(billingDayStart(utc('2025-06-10T08:00:00Z'))).toBe(utc('2025-06-10T08:00:00Z'));
      expect(billingDayStart(utc('2025-06-11T07:59:59Z'))).toBe(utc('2025-06-10T08:00:00Z'));
      expect(billingDayLabel(utc('2025-06-10T08:00:00Z'))).toBe('2025-06-10');
      expect(billingDayLabel(utc('2025-06-10T07:59:59Z'))).toBe('2025-06-09');
    });
  });

  it('keeps the boundary at 08:00 UTC across the daylight-saving changes (US: 9 March and 2 November 2025)', () => {
    inEveryZone(() => {
      // Midnight Pacific is 08:00 UTC in winter and 07:00 UTC in summer; the billing day stays at 08:00 UTC.
      for (const day of [
        '2025-03-08',
        '2025-03-09',
        '2025-03-10',
        '2025-03-30',
        '2025-03-31',
        '2025-11-01',
        '2025-11-02',
        '2025-11-03',
      ]) {
        expect(billingDayOf(day)).toBe(utc(`${day}T08:00:00Z`));
        expect(billingDayStart(utc(`${day}T07:00:00Z`))).toBe(utc(`${day}T08:00:00Z`) - DAY_SECONDS);
      }
      // Every day across the change is 24 hours long.
      const days = billingDays(utc('2025-03-07T08:00:00Z'), utc('2025-03-12T08:00:00Z'));
      expect(days.map(billingDayLabel)).toEqual(['2025-03-07', '2025-03-08', '2025-03-09', '2025-03-10', '2025-03-11']);
      expect(days.every((d, i) => i === 0 || d - days[i - 1]! === DAY_SECONDS)).toBe(true);
    });
  });

  it('buckets the same events into the same days in every time zone, across a DST change', () => {
    const events = [
      { id: 'a', t: utc('2025-03-09T07:59:59Z') },
      { id: 'b', t: utc('2025-03-09T08:00:00Z') },
      { id: 'c', t: utc('2025-03-10T06:59:59Z') }, // midnight PDT is 07:00 UTC: still 9 March's billing day
      { id: 'd', t: utc('2025-03-10T07:30:00Z') },
      { id: 'e', t: utc('2025-03-10T08:00:00Z') },
      { id: 'f', t: utc('2025-03-11T12:00:00Z') }, // outside the range
    ];
    const expected = [
      ['2025-03-08', ['a']],
      ['2025-03-09', ['b', 'c', 'd']],
      ['2025-03-10', ['e']],
    ];
    inEveryZone(() => {
      const buckets = bucketByBillingDay(events, (e) => e.t, utc('2025-03-08T08:00:00Z'), utc('2025-03-11T08:00:00Z'));
      expect([...buckets].map(([d, es]) => [billingDayLabel(d), es.map((e) => e.id)])).toEqual(expected);
    });
  });
});

describe('billingDayOf', () => {
  it('refuses what is not a real date', () => {
    expect(billingDayOf('2025-02-30')).toBeNull();
    expect(billingDayOf('2025-2-3')).toBeNull();
    expect(billingDayOf('yesterday')).toBeNull();
  });
});

describe('cycles and presets', () => {
  it('finds the cycle of a time, from its anchor day at 08:00 UTC', () => {
    inEveryZone(() => {
      expect(cycleBounds(utc('2025-03-05T08:00:00Z'), 5)).toEqual({
        after: utc('2025-03-05T08:00:00Z'),
        before: utc('2025-04-05T08:00:00Z'),
      });
      expect(cycleBounds(utc('2025-03-05T07:59:59Z'), 5)).toEqual({
        after: utc('2025-02-05T08:00:00Z'),
        before: utc('2025-03-05T08:00:00Z'),
      });
      expect(cycleBounds(utc('2025-01-02T00:00:00Z'), 28)).toEqual({
        after: utc('2024-12-28T08:00:00Z'),
        before: utc('2025-01-28T08:00:00Z'),
      });
    });
  });

  it('gives whole, non-empty billing-day ranges for every preset at any moment and in any zone', () => {
    const cycles = [
      { after: utc('2025-03-05T08:00:00Z'), before: utc('2025-04-05T08:00:00Z') },
      { after: utc('2025-02-05T08:00:00Z'), before: utc('2025-03-05T08:00:00Z') },
    ];
    inEveryZone(() => {
      for (const now of [
        utc('2025-03-05T08:00:00Z'),
        utc('2025-03-09T07:59:59Z'),
        utc('2025-03-09T10:00:00Z'),
        utc('2025-04-05T07:59:59Z'),
      ]) {
        for (const preset of RANGE_PRESETS) {
          const r = presetRange(preset, now, cycles);
          expect(r.time_after, `${preset} at ${now}`).toBeLessThan(r.time_before);
          expect(billingDayStart(r.time_after)).toBe(r.time_after);
          expect(billingDayStart(r.time_before)).toBe(r.time_before);
        }
      }
      const now = utc('2025-03-09T10:00:00Z');
      expect(presetRange('7d', now, cycles)).toEqual({
        time_after: utc('2025-03-03T08:00:00Z'),
        time_before: utc('2025-03-10T08:00:00Z'),
      });
      expect(daysIn(presetRange('30d', now, cycles))).toBe(30);
      expect(daysIn(presetRange('90d', now, cycles))).toBe(90);
      expect(presetRange('this_cycle', now, cycles)).toEqual({
        time_after: cycles[0]!.after,
        time_before: utc('2025-03-10T08:00:00Z'),
      });
      expect(presetRange('last_cycle', now, cycles)).toEqual({
        time_after: cycles[1]!.after,
        time_before: cycles[1]!.before,
      });
      // Without the cycles list: cycles from the 1st of the month.
      expect(presetRange('this_cycle', now).time_after).toBe(utc('2025-03-01T08:00:00Z'));
      expect(presetRange('last_cycle', now)).toEqual({
        time_after: utc('2025-02-01T08:00:00Z'),
        time_before: utc('2025-03-01T08:00:00Z'),
      });
    });
  });
});
