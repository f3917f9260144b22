/**
 * The audit-log explorer's state as it lives in the URL (filters, order, time range), and the pure helpers
 * that turn it into the API's query: time presets resolved to Unix-second bounds, local ↔ UTC conversion.
 *
 * Bounds follow the contract: `time_after` inclusive, `time_before` exclusive.
 */
import { z } from 'zod';
import { AUDIT_LOG_ORDERS, type AuditLogOrder } from '@/api/values';

export const RANGE_PRESETS = {
  '1h': { label: 'Last hour', seconds: 3_600 },
  '24h': { label: 'Last 24 hours', seconds: 86_400 },
  '7d': { label: 'Last 7 days', seconds: 7 * 86_400 },
  '30d': { label: 'Last 30 days', seconds: 30 * 86_400 },
} as const;
export type RangePreset = keyof typeof RANGE_PRESETS;
export const RANGES = ['all', '1h', '24h', '7d', '30d', 'custom'] as const;
export type Range = (typeof RANGES)[number];

const optionalInt = z.number().int().nonnegative().optional().catch(undefined);
const optionalId = z.string().min(1).max(200).optional().catch(undefined);

/** The search params of `/audit-logs`; anything unreadable falls back to the default instead of failing. */
export const AuditLogSearch = z.object({
  range: z.enum(RANGES).default('all').catch('all'),
  /** Custom range only: inclusive start, Unix seconds. */
  time_after: optionalInt,
  /** Custom range only: exclusive end, Unix seconds. */
  time_before: optionalInt,
  order: z.enum(AUDIT_LOG_ORDERS).default('desc').catch('desc'),
  action: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/)
    .optional()
    .catch(undefined),
  service_user_id: optionalId,
  user_id: optionalId,
  org_id: z.string().startsWith('org-').optional().catch(undefined),
});
export type AuditLogSearch = z.infer<typeof AuditLogSearch>;

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

/** The filters one list (and one export) runs with: the search without presentation-only state. */
export interface AuditLogFilters {
  range: Range;
  time_after?: number;
  time_before?: number;
  order: AuditLogOrder;
  action?: string;
  service_user_id?: string;
  user_id?: string;
  org_id?: string;
}

/** Keeps only what changes the query, so equal filters give equal query keys. */
export function toFilters(s: AuditLogSearch): AuditLogFilters {
  const f: AuditLogFilters = { range: s.range, order: s.order };
  if (s.range === 'custom') {
    if (s.time_after !== undefined) f.time_after = s.time_after;
    if (s.time_before !== undefined) f.time_before = s.time_before;
  }
  if (s.action) f.action = s.action;
  if (s.service_user_id) f.service_user_id = s.service_user_id;
  if (s.user_id) f.user_id = s.user_id;
  if (s.org_id) f.org_id = s.org_id;
  return f;
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
