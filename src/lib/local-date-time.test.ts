/** Typed local date-times (the one-stop date-time field): what is read as a date-time, and what is refused. */
import { describe, expect, it } from 'vitest';
import { parseTypedDateTime } from './local-date-time';

describe('parseTypedDateTime', () => {
  it('reads a date with a time, with seconds, with a T, or alone (midnight)', () => {
    expect(parseTypedDateTime(' 2026-03-01 14:05 ')).toBe('2026-03-01T14:05');
    expect(parseTypedDateTime('2026-3-1 9:05:07')).toBe('2026-03-01T09:05:07');
    expect(parseTypedDateTime('2026-03-01T14:05')).toBe('2026-03-01T14:05');
    expect(parseTypedDateTime('2026-03-01')).toBe('2026-03-01T00:00');
    expect(parseTypedDateTime('')).toBe('');
  });

  it('refuses what is not a date-time, impossible days and hours included', () => {
    for (const t of ['2026-02-30', '2026-13-01 10:00', '2026-03-01 24:00', '2026-03-01 10:60', 'yesterday', '2026-03'])
      expect(parseTypedDateTime(t), t).toBeNull();
  });
});
