/**
 * The guardrail-violation screens' search as the routes read it (guardrail, action, session, time range, order,
 * chart): the definition and the filters that key the list's query. Without zod and without the screens'
 * helpers (src/features/guardrails/search.ts), so the first screen carries only this.
 */
import {
  AUDIT_LOG_ORDERS as VIOLATION_ORDERS,
  GUARDRAIL_ACTIONS,
  GUARDRAIL_ID_MAX,
  type GuardrailAction,
} from '@/api/values';
import { defineSearch, integer, oneOf, oneOfOr, text, type SearchOut } from '@/lib/search-params';

export const RANGES = ['all', '24h', '7d', '30d', '90d', 'custom'] as const;
export type Range = (typeof RANGES)[number];

const id = text({ trim: true, min: 1, max: GUARDRAIL_ID_MAX });
const unixSeconds = integer({ coerce: true });

const fields = {
  guardrail: id,
  action: oneOf(GUARDRAIL_ACTIONS),
  session: id,
  range: oneOfOr(RANGES, 'all'),
  /** Custom range: inclusive start, Unix seconds. */
  time_after: unixSeconds,
  /** Custom range: exclusive end, Unix seconds. */
  time_before: unixSeconds,
  order: oneOfOr(VIOLATION_ORDERS, 'desc'),
  /** `table`: the chart's text alternative instead of the chart. */
  chart: oneOfOr(['chart', 'table'], 'chart'),
};
export type ViolationSearch = SearchOut<typeof fields>;

/** What one list (and its chart and export) runs with. */
export interface ViolationFilters {
  guardrail_id?: string;
  action?: GuardrailAction;
  session_id?: string;
  range: Range;
  time_after?: number;
  time_before?: number;
  order: 'asc' | 'desc';
}

export function toFilters(s: ViolationSearch): ViolationFilters {
  const f: ViolationFilters = { range: s.range, order: s.order };
  if (s.guardrail) f.guardrail_id = s.guardrail;
  if (s.action) f.action = s.action;
  if (s.session) f.session_id = s.session;
  if (s.range === 'custom') {
    if (s.time_after !== undefined) f.time_after = s.time_after;
    if (s.time_before !== undefined) f.time_before = s.time_before;
  }
  return f;
}

/** The violation screens' search (enterprise and organization); defaults stay out of the URL. */
export const ViolationSearch = defineSearch({
  operation: 'guardrails.violations.list',
  fields,
  defaults: { range: 'all', order: 'desc', chart: 'chart' },
  filters: toFilters,
});
