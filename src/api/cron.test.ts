/** The contract's five-field cron checker: what it accepts cron-parser parses; what it refuses it says why. */
import { CronExpressionParser } from 'cron-parser';
import { describe, expect, it } from 'vitest';
import { cronProblem } from './cron';

describe('cronProblem', () => {
  it.each([
    '* * * * *',
    '0 9 * * 1-5',
    '*/15 * * * *',
    '15 * * * *',
    '0 0 1 * *',
    '30 6 * * MON',
    '0 8-18/2 * JAN-MAR mon-fri',
    '0,30 9,17 * * 0,6',
    '0 0 * * 0-7',
    '*/5,3 * * * *',
    '  0   9 * *   1-5 ',
  ])('accepts %s, which cron-parser parses too', (expr) => {
    expect(cronProblem(expr)).toBeNull();
    expect(() => CronExpressionParser.parse(expr.trim(), { tz: 'UTC' })).not.toThrow();
  });

  it.each([
    ['61 * * * *', /minute value 61 is out of range 0–59/],
    ['0 24 * * *', /hour value 24 is out of range 0–23/],
    ['0 0 0 * *', /day-of-month value 0 is out of range 1–31/],
    ['0 0 * 13 *', /month value 13 is out of range 1–12/],
    ['0 0 * * 8', /day-of-week value 8 is out of range 0–7/],
    ['0 0 * * * *', /has 6 fields; write five.*seconds are not supported/],
    ['0 0 * *', /has 4 fields; write five/],
    ['', /frequency is empty/],
    ['@daily', /macro/],
    ['*/0 * * * *', /step “0” must be a whole number of 1 or more/],
    ['5-1 * * * *', /runs backwards/],
    ['0 0 L * *', /special character/],
    ['0 0 * * 1#2', /special character|not a number/],
    ['a * * * *', /minute value “a” is not a number/],
    ['0 0 * FOO *', /month value “FOO” is not a number \(1–12\) or a name \(JAN–DEC\)/],
    ['1,,2 * * * *', /empty list item/],
    ['1-5,3 * * * *', /minute value 3 is in both “1-5” and “3”/],
    ['0 0 * * 0,7', /day-of-week value 7 is in both/],
    [`${'1,'.repeat(60)}1 * * * *`, /at most 100 characters/],
  ])('refuses %s with a message naming the problem', (expr, message) => {
    expect(cronProblem(expr)).toMatch(message);
  });
});
