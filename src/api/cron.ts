/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week, in UTC), the form a schedule's
 * `frequency` takes. This checker runs in the contract (browser, sandbox, console alike) without a cron
 * library, so that a malformed expression is refused with a message that names the field and the value;
 * computing run times is left to cron-parser where it is needed (the sandbox and the schedule form).
 */

interface CronField {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

export const CRON_FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  // 0 and 7 are both Sunday.
  { name: 'day-of-week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

export const CRON_MAX_LENGTH = 100;

/** The expression's five fields, split on whitespace. */
export function cronFields(expr: string): string[] {
  return expr.trim().split(/\s+/).filter(Boolean);
}

function valueOf(token: string, field: CronField): number | string {
  if (/^\d+$/.test(token)) {
    const n = Number(token);
    if (n < field.min || n > field.max) {
      return `${field.name} value ${token} is out of range ${field.min}–${field.max}`;
    }
    return n;
  }
  const i = field.names?.indexOf(token.toUpperCase()) ?? -1;
  if (i >= 0) return field.name === 'month' ? i + 1 : i;
  return field.names
    ? `${field.name} value “${token}” is not a number (${field.min}–${field.max}) or a name (${field.names[0]}–${field.names.at(-1)})`
    : `${field.name} value “${token}” is not a number (${field.min}–${field.max})`;
}

function fieldProblem(text: string, field: CronField): string | null {
  // A value two list items both cover is refused (cron-parser does too); Sunday is both 0 and 7.
  const seen = new Map<number, string>();
  const norm = (v: number) => (field.name === 'day-of-week' && v === 7 ? 0 : v);
  for (const item of text.split(',')) {
    if (item === '') return `${field.name} has an empty list item in “${text}”`;
    const [range, step, extra] = item.split('/');
    if (extra !== undefined) return `${field.name} item “${item}” has more than one /`;
    if (step !== undefined) {
      if (!/^\d+$/.test(step) || Number(step) < 1)
        return `${field.name} step “${step}” must be a whole number of 1 or more`;
      if (Number(step) > field.max) return `${field.name} step ${step} is larger than ${field.max}`;
    }
    if (range === '*') continue;
    if (range === undefined || range === '') return `${field.name} item “${item}” has no value before /`;
    const bounds = range.split('-');
    if (bounds.length > 2) return `${field.name} range “${range}” has more than one -`;
    const values: number[] = [];
    for (const b of bounds) {
      if (b === '') return `${field.name} range “${range}” is missing a bound`;
      if (/[LW#H?]/i.test(b) && !field.names?.includes(b.toUpperCase())) {
        return `${field.name} value “${b}” uses a special character this API does not take: use numbers, *, lists (1,2), ranges (1-5) and steps (*/15)`;
      }
      const v = valueOf(b, field);
      if (typeof v === 'string') return v;
      values.push(v);
    }
    if (values.length === 2 && values[0]! > values[1]!) {
      return `${field.name} range “${range}” runs backwards; write the smaller value first`;
    }
    const from = values[0]!;
    const to = values.length === 2 || step !== undefined ? (values[1] ?? field.max) : from;
    for (let v = from; v <= to; v += step === undefined ? 1 : Number(step)) {
      const other = seen.get(norm(v));
      if (other !== undefined && other !== item) {
        return `${field.name} value ${v} is in both “${other}” and “${item}”; list each value once`;
      }
      seen.set(norm(v), item);
    }
  }
  return null;
}

/**
 * Why `expr` is not a five-field cron expression, in words a person understands; null when it is one.
 * Accepts numbers, `*`, lists, ranges, steps and month/day names; refuses six fields (seconds), macros such as
 * `@daily`, and the extensions `L`, `W`, `#`, `H`, `?`.
 */
export function cronProblem(expr: string): string | null {
  if (expr.length > CRON_MAX_LENGTH) return `frequency is at most ${CRON_MAX_LENGTH} characters`;
  const fields = cronFields(expr);
  if (fields.length === 0) return 'frequency is empty: write five fields, e.g. “0 9 * * 1-5” (weekdays at 09:00 UTC)';
  if (fields[0]!.startsWith('@')) {
    return `frequency “${fields[0]}” is a macro; write the five fields instead (e.g. “0 0 * * *” for daily at midnight UTC)`;
  }
  if (fields.length !== 5) {
    return `frequency has ${fields.length} field${fields.length === 1 ? '' : 's'}; write five: minute hour day-of-month month day-of-week${fields.length === 6 ? ' (seconds are not supported)' : ''}`;
  }
  for (let i = 0; i < 5; i++) {
    const problem = fieldProblem(fields[i]!, CRON_FIELDS[i]!);
    if (problem) return problem;
  }
  return null;
}

export function isCron(expr: string): boolean {
  return cronProblem(expr) === null;
}
