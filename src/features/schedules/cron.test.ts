/** A frequency in words and its next runs, as the schedule form and table show them. */
import { describe, expect, it } from 'vitest';
import { describeFrequency, nextRuns } from './cron';

describe('describeFrequency', () => {
  it.each([
    ['0 9 * * 1-5', 'Every weekday at 09:00 UTC'],
    ['* * * * *', 'Every minute'],
    ['*/15 * * * *', 'Every 15 minutes'],
    ['*/1 * * * *', 'Every minute'],
    ['*/05 * * * *', 'Every 5 minutes'],
    ['15 * * * *', 'Every hour at minute 15'],
    ['0 2 * * *', 'Every day at 02:00 UTC'],
    ['30 6 * * 1', 'Every Monday at 06:30 UTC'],
    ['0 15 * * FRI', 'Every Friday at 15:00 UTC'],
    ['0 8 1 * *', 'Monthly on day 1 at 08:00 UTC'],
  ])('%s reads “%s”', (expr, words) => {
    expect(describeFrequency(expr)).toBe(words);
  });

  it('falls back to cronstrue, saying UTC', () => {
    expect(describeFrequency('0 9-17/2 * * 1-5')).toMatch(/\(UTC\)$/);
  });

  it('is null for an expression the API refuses', () => {
    expect(describeFrequency('61 * * * *')).toBeNull();
    expect(describeFrequency('0 0 * * * *')).toBeNull();
  });
});

describe('nextRuns', () => {
  it('lists the next runs in UTC', () => {
    const runs = nextRuns('0 9 * * 1-5', 5, new Date('2030-01-04T10:00:00Z'));
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2030-01-07T09:00:00.000Z',
      '2030-01-08T09:00:00.000Z',
      '2030-01-09T09:00:00.000Z',
      '2030-01-10T09:00:00.000Z',
      '2030-01-11T09:00:00.000Z',
    ]);
  });

  it('is empty for an invalid expression or one that never runs', () => {
    expect(nextRuns('61 * * * *', 5)).toEqual([]);
    expect(nextRuns('0 0 31 2 *', 5)).toEqual([]);
  });
});
