/**
 * The guardrail-violation screens' state as it lives in the URL (guardrail, action, session, time range, order),
 * and the pure helpers that turn it into the API's query: presets resolved to Unix-second bounds (`time_after`
 * inclusive, `time_before` exclusive, as the contract says).
 */
import type { GuardrailAction } from '@/api/values';
import type { ViolationFilters, ViolationSearch } from './route-search';

export { RANGES, toFilters, ViolationSearch, type Range, type ViolationFilters } from './route-search';

export const RANGE_PRESETS = {
  '24h': { label: 'Last 24 hours', seconds: 86_400 },
  '7d': { label: 'Last 7 days', seconds: 7 * 86_400 },
  '30d': { label: 'Last 30 days', seconds: 30 * 86_400 },
  '90d': { label: 'Last 90 days', seconds: 90 * 86_400 },
} as const;
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
