/** Range labels: billing days with an inclusive end, whatever hour of the last day the range's end falls on. */
import { describe, expect, it } from 'vitest';
import { presetRange } from '@/api/billing-day';
import { formatBillingDayLong, formatRange, rangeSlug } from './range';

// 2026-11-27 02:21 UTC: still the billing day of Nov 26 (it runs to 08:00 UTC on the 27th).
const NOW = Date.UTC(2026, 10, 27, 2, 21) / 1000;

describe('range labels', () => {
  it('reads 30 days ending Nov 26 as "Oct 28 – Nov 26", not "… – Nov 27"', () => {
    const r = presetRange('30d', NOW);
    expect(formatRange(r)).toMatch(/^Oct 28 – Nov 26, 2026$/);
    expect(rangeSlug(r)).toBe('2026-10-28_2026-11-26');
  });

  it('names the billing day of any moment inside it, also its last hours', () => {
    expect(formatBillingDayLong(NOW)).toMatch(/Nov 26, 2026/);
    expect(formatBillingDayLong(Date.UTC(2026, 10, 27, 8) / 1000)).toMatch(/Nov 27, 2026/);
  });

  it('writes a one-day range as that day', () => {
    const day = Date.UTC(2026, 10, 26, 8) / 1000;
    expect(formatRange({ time_after: day, time_before: day + 86_400 })).toMatch(/^Nov 26, 2026$/);
  });
});
