/**
 * A schedule's frequency in words and its next runs: cronstrue for the words (with plainer phrasing for the
 * common shapes: "Every weekday at 09:00 UTC"), cron-parser for the run times, both in UTC as the API evaluates
 * a frequency. The contract's `cronProblem` says why an expression is refused.
 */
import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue';
import { cronFields, cronProblem } from '@/api/cron';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const pad = (n: string) => n.padStart(2, '0');
const isNum = (s: string) => /^\d+$/.test(s);

function dayIndex(s: string): number | null {
  if (isNum(s)) return Number(s);
  const i = DAY_NAMES.indexOf(s.toUpperCase());
  return i >= 0 ? i : null;
}

/** The frequency in words, in UTC; null when the expression is not a valid five-field cron. */
export function describeFrequency(expr: string): string | null {
  if (cronProblem(expr)) return null;
  const [m, h, dom, mon, dow] = cronFields(expr) as [string, string, string, string, string];
  const at = isNum(m) && isNum(h) ? `${pad(h)}:${pad(m)} UTC` : null;
  if (dom === '*' && mon === '*') {
    if (m === '*' && h === '*' && dow === '*') return 'Every minute';
    const step = /^\*\/(\d+)$/.exec(m);
    if (step && h === '*' && dow === '*')
      return Number(step[1]) === 1 ? 'Every minute' : `Every ${Number(step[1])} minutes`;
    if (isNum(m) && h === '*' && dow === '*') return `Every hour at minute ${Number(m)}`;
    if (at && dow === '*') return `Every day at ${at}`;
    if (at && /^(1-5|MON-FRI)$/i.test(dow)) return `Every weekday at ${at}`;
    if (at && /^(0,6|6,0|SAT,SUN|SUN,SAT)$/i.test(dow)) return `Every weekend day at ${at}`;
    const d = dayIndex(dow);
    if (at && d !== null) return `Every ${DAYS[d]} at ${at}`;
  }
  if (at && isNum(dom) && mon === '*' && dow === '*') return `Monthly on day ${Number(dom)} at ${at}`;
  try {
    return `${cronstrue.toString(expr, { use24HourTimeFormat: true, verbose: false })} (UTC)`;
  } catch {
    return null;
  }
}

/** The next `count` runs of `expr` after `from`; empty when it is not valid or never runs. */
export function nextRuns(expr: string, count: number, from: Date = new Date()): Date[] {
  if (cronProblem(expr)) return [];
  try {
    const it = CronExpressionParser.parse(expr.trim(), { tz: 'UTC', currentDate: from });
    return it.take(count).map((d) => d.toDate());
  } catch {
    return [];
  }
}
