/**
 * The audit-log explorer's state as it lives in the URL (filters, order, time range), and the pure helpers
 * that turn it into the API's query: time presets resolved to Unix-second bounds, local ↔ UTC conversion.
 *
 * Bounds follow the contract: `time_after` inclusive, `time_before` exclusive.
 */
import type { AuditLogFilters, AuditLogSearch } from './route-search';

export { AuditLogSearch, RANGES, toFilters, type AuditLogFilters, type Range } from './route-search';

export const RANGE_PRESETS = {
  '1h': { label: 'Last hour', seconds: 3_600 },
  '24h': { label: 'Last 24 hours', seconds: 86_400 },
  '7d': { label: 'Last 7 days', seconds: 7 * 86_400 },
  '30d': { label: 'Last 30 days', seconds: 30 * 86_400 },
} as const;
export type RangePreset = keyof typeof RANGE_PRESETS;

/** The search to put in the URL: defaults and a custom range's bounds outside a custom range left out. */
export function toUrlSearch(s: AuditLogSearch): AuditLogSearch {
  const out = { ...s } as Partial<AuditLogSearch>;
  if (out.range === 'all') delete out.range;
  if (out.order === 'desc') delete out.order;
  if (s.range !== 'custom') {
    delete out.time_after;
    delete out.time_before;
  }
  for (const k of Object.keys(out) as Array<keyof AuditLogSearch>) if (out[k] === undefined) delete out[k];
  return out as AuditLogSearch;
}

/** Concrete bounds a list was fetched with, and when they were resolved. */
export interface ResolvedBounds {
  time_after?: number;
  time_before?: number;
  resolved_at: number;
}

/**
 * Resolves a range to bounds. Presets end at the current second inclusive (`time_before` = now + 1), so an
 * entry written the moment the list loads is in it, and the range stays fixed while the admin pages, sorts
 * (reload re-resolves) or exports: the export then holds exactly the entries the list counts.
 */
export function resolveBounds(
  f: Pick<AuditLogFilters, 'range' | 'time_after' | 'time_before'>,
  nowMs: number,
): ResolvedBounds {
  const now = Math.floor(nowMs / 1000);
  if (f.range === 'custom') {
    return {
      resolved_at: now,
      ...(f.time_after !== undefined ? { time_after: f.time_after } : {}),
      ...(f.time_before !== undefined ? { time_before: f.time_before } : {}),
    };
  }
  const preset = f.range === 'all' ? undefined : RANGE_PRESETS[f.range];
  return { resolved_at: now, time_before: now + 1, ...(preset ? { time_after: now - preset.seconds } : {}) };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Unix seconds → the value of an `<input type="datetime-local">` (local time, to the second). */
export function toLocalInput(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** An `<input type="datetime-local">` value (local time) → Unix seconds, or undefined when empty or invalid. */
export function fromLocalInput(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return undefined;
  const ms = new Date(value).getTime(); // a date-time without an offset is read as local time
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** Principal filter values in one select: `service_user:<id>` or `user:<id>`. */
export function principalValue(s: Pick<AuditLogSearch, 'service_user_id' | 'user_id'>): string {
  if (s.service_user_id) return `service_user:${s.service_user_id}`;
  if (s.user_id) return `user:${s.user_id}`;
  return '';
}

export function parsePrincipalValue(v: string): { service_user_id?: string; user_id?: string } {
  if (v.startsWith('service_user:')) return { service_user_id: v.slice('service_user:'.length), user_id: undefined };
  if (v.startsWith('user:')) return { user_id: v.slice('user:'.length), service_user_id: undefined };
  return { service_user_id: undefined, user_id: undefined };
}
