import { describe, expect, it } from 'vitest';
import { billingDayLabel, billingDayStart, perDayByGuardrail } from './billing-day';

const utc = (s: string) => Date.parse(s) / 1000;

describe('billing day', () => {
  it('starts at 08:00:00 UTC, in winter and in summer alike', () => {
    expect(billingDayStart(utc('2026-01-15T08:00:00Z'))).toBe(utc('2026-01-15T08:00:00Z'));
    expect(billingDayStart(utc('2026-01-15T07:59:59Z'))).toBe(utc('2026-01-14T08:00:00Z'));
    expect(billingDayStart(utc('2026-07-01T23:00:00Z'))).toBe(utc('2026-07-01T08:00:00Z'));
    expect(billingDayStart(utc('2026-07-02T07:00:00Z'))).toBe(utc('2026-07-01T08:00:00Z'));
    expect(billingDayLabel(utc('2026-07-01T08:00:00Z'))).toBe('2026-07-01');
  });

  it('counts per day and guardrail, with empty days as zeros', () => {
    const rows = perDayByGuardrail([
      { created_at: utc('2026-03-01T09:00:00Z'), guardrail_id: 'a' },
      { created_at: utc('2026-03-02T07:59:59Z'), guardrail_id: 'b' },
      { created_at: utc('2026-03-02T08:00:00Z'), guardrail_id: 'a' },
      { created_at: utc('2026-03-04T10:00:00Z'), guardrail_id: 'a' },
    ]);
    expect(rows.map((r) => [r.label, r.total])).toEqual([
      ['2026-03-01', 2],
      ['2026-03-02', 1],
      ['2026-03-03', 0],
      ['2026-03-04', 1],
    ]);
    expect(rows[0]!.counts).toEqual({ a: 1, b: 1 });
  });
});
