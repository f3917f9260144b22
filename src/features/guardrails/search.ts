/**
 * The guardrail-violation screens' state as it lives in the URL (guardrail, action, session, time range, order),
 * and the pure helpers that turn it into the API's query: presets resolved to Unix-second bounds (`time_after`
 * inclusive, `time_before` exclusive, as the contract says).
 */
import { z } from 'zod';
import { GUARDRAIL_ACTIONS, VIOLATION_ORDERS, type GuardrailAction } from '@/api/operations/guardrails';

export const RANGE_PRESETS = {
  '24h': { label: 'Last 24 hours', seconds: 86_400 },
  '7d': { label: 'Last 7 days', seconds: 7 * 86_400 },
  '30d': { label: 'Last 30 days', seconds: 30 * 86_400 },
  '90d': { label: 'Last 90 days', seconds: 90 * 86_400 },
} as const;
export const RANGES = ['all', '24h', '7d', '30d', '90d', 'custom'] as const;
export type Range = (typeof RANGES)[number];

const optionalInt = z.coerce.number().int().nonnegative().optional().catch(undefined);
const optionalId = z
  .preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string().min(1).max(200))
  .optional()
  .catch(undefined);

export const ViolationSearch = z.object({
  guardrail: optionalId,
  action: z.enum(GUARDRAIL_ACTIONS).optional().catch(undefined),
  session: optionalId,
  range: z.enum(RANGES).default('all').catch('all'),
  /** Custom range: inclusive start, Unix seconds. */
  time_after: optionalInt,
  /** Custom range: exclusive end, Unix seconds. */
  time_before: optionalInt,
  order: z.enum(VIOLATION_ORDERS).default('desc').catch('desc'),
  /** `table`: the chart's text alternative instead of the chart. */
  chart: z.enum(['chart', 'table']).default('chart').catch('chart'),
});
export type ViolationSearch = z.infer<typeof ViolationSearch>;

/** Defaults stripped from the URL by the routes. */
export const VIOLATION_SEARCH_DEFAULTS = { range: 'all', order: 'desc', chart: 'chart' } as const;

/** Defaults and a custom range's bounds outside a custom range left out, so the URL stays short. */
export function toUrlSearch(s: ViolationSearch): ViolationSearch {
  const out: Partial<ViolationSearch> = { ...s };
  if (s.range !== 'custom') {
    delete out.time_after;
    delete out.time_before;
  }
  for (const k of Object.keys(out) as Array<keyof ViolationSearch>) if (out[k] === undefined) delete out[k];
  return out as ViolationSearch;
}

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

export function hasFilters(s: ViolationSearch): boolean {
  return !!(s.guardrail || s.action || s.session || s.range !== 'all');
}

export interface Bounds {
  time_after?: number;
  time_before?: number;
}

/**
 * A range's bounds at `nowMs`. A preset ends after the current second (so a violation recorded as the list
 * loads is in it); a custom range is taken as given.
 */
export function resolveBounds(
  f: Pick<ViolationFilters, 'range' | 'time_after' | 'time_before'>,
  nowMs: number,
): Bounds {
  if (f.range === 'custom') {
    return {
      ...(f.time_after !== undefined ? { time_after: f.time_after } : {}),
      ...(f.time_before !== undefined ? { time_before: f.time_before } : {}),
    };
  }
  if (f.range === 'all') return {};
  const now = Math.floor(nowMs / 1000);
  return { time_after: now - RANGE_PRESETS[f.range].seconds, time_before: now + 1 };
}

export const ACTION_LABELS: Record<GuardrailAction, string> = {
  log_only: 'Logged only',
  warn_user: 'Warned the user',
  block_message: 'Blocked the message',
  kill_session: 'Ended the session',
};
