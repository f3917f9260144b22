/**
 * Violations per billing day (the shared billing day of `@/api/billing-day`: 08:00:00 UTC to 08:00:00 UTC, all
 * year), so the chart lines up with the consumption figures.
 */
import { billingDayLabel, billingDayStart, DAY_SECONDS } from '@/api/billing-day';
import type { GuardrailViolation } from '@/api/operations/guardrails';

export { BILLING_DAY_NOTE, billingDayLabel, billingDayStart } from '@/api/billing-day';

export interface DayRow {
  /** Billing-day start, Unix seconds. */
  day: number;
  label: string;
  total: number;
  /** Count per guardrail id. */
  counts: Record<string, number>;
}

/**
 * Violations per billing day and guardrail, one row per day from the first to the last day of the range (days
 * without violations included, as zeros), oldest first. `from`/`to` bound the range (`to` exclusive); without
 * them the violations' own span is used.
 */
export function perDayByGuardrail(
  violations: readonly Pick<GuardrailViolation, 'created_at' | 'guardrail_id'>[],
  range: { from?: number; to?: number } = {},
  maxDays = 400,
): DayRow[] {
  if (violations.length === 0 && (range.from === undefined || range.to === undefined)) return [];
  let min = range.from ?? Infinity;
  let max = range.to !== undefined ? range.to - 1 : -Infinity;
  if (range.from === undefined || range.to === undefined) {
    for (const v of violations) {
      if (range.from === undefined) min = Math.min(min, v.created_at);
      if (range.to === undefined) max = Math.max(max, v.created_at);
    }
  }
  const first = billingDayStart(min);
  let last = billingDayStart(max);
  if ((last - first) / DAY_SECONDS + 1 > maxDays) last = first + (maxDays - 1) * DAY_SECONDS;
  const rows = new Map<number, DayRow>();
  for (let d = first; d <= last; d += DAY_SECONDS)
    rows.set(d, { day: d, label: billingDayLabel(d), total: 0, counts: {} });
  for (const v of violations) {
    const row = rows.get(billingDayStart(v.created_at));
    if (!row) continue;
    row.total += 1;
    row.counts[v.guardrail_id] = (row.counts[v.guardrail_id] ?? 0) + 1;
  }
  return [...rows.values()];
}
