/**
 * The sessions list filters as they live in the URL (shareable links): origins, status, tags, archived and
 * the created time range, plus organizations on the enterprise list. Lists are comma-joined strings in the
 * URL (`?origins=slack,api`); a repeated or JSON-array value is read too, and anything unreadable falls back
 * to "no filter" rather than an error.
 */
import { z } from 'zod';
import type { EnterpriseSessionListQuery } from '@/api/operations/sessions';
import { SESSION_ORIGINS } from '@/api/values';

const csv = z
  .preprocess((v) => {
    if (v === undefined || v === null || v === '') return undefined;
    const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(','));
    const clean = [...new Set(parts.map((x) => x.trim()).filter((x) => x.length > 0 && x.length <= 200))];
    return clean.length ? clean.join(',') : undefined;
  }, z.string().optional())
  .catch(undefined);

const unixSeconds = z
  .preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), z.number().int().nonnegative().optional())
  .catch(undefined);

export const sessionSearchSchema = z.object({
  origins: csv,
  status: csv,
  tags: csv,
  /** `true`: archived only; `false`: not archived; absent: both. */
  archived: z
    .preprocess((v) => (v === undefined ? undefined : String(v)), z.enum(['true', 'false']).optional())
    .catch(undefined),
  created_after: unixSeconds,
  created_before: unixSeconds,
  /** Enterprise list only. */
  org_ids: csv,
});
export type SessionSearch = z.output<typeof sessionSearchSchema>;

export function splitList(value: string | undefined): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

export function joinList(values: readonly string[]): string | undefined {
  return values.length ? [...new Set(values)].join(',') : undefined;
}

/** The API filters of a URL search. Unknown origins are dropped (the API would refuse them). */
export type SessionListFilters = Omit<EnterpriseSessionListQuery, 'first' | 'after'>;

export function toListFilters(search: SessionSearch, scope: 'org' | 'enterprise'): SessionListFilters {
  const origins = splitList(search.origins).filter((o) => (SESSION_ORIGINS as readonly string[]).includes(o));
  const status = splitList(search.status);
  const tags = splitList(search.tags);
  const orgIds = scope === 'enterprise' ? splitList(search.org_ids) : [];
  const filters: SessionListFilters = {};
  if (origins.length) filters.origins = origins as SessionListFilters['origins'];
  if (status.length) filters.status = status;
  if (tags.length) filters.tags = tags;
  if (search.archived) filters.is_archived = search.archived;
  if (search.created_after !== undefined) filters.created_after = search.created_after;
  if (search.created_before !== undefined) filters.created_before = search.created_before;
  if (orgIds.length) filters.org_ids = orgIds;
  return filters;
}

export function hasFilters(search: SessionSearch): boolean {
  return Object.values(search).some((v) => v !== undefined);
}

/** Quick ranges for the created time filter, in seconds back from now. */
export const TIME_PRESETS: ReadonlyArray<{ label: string; seconds: number }> = [
  { label: 'Last hour', seconds: 3_600 },
  { label: 'Last 24 hours', seconds: 86_400 },
  { label: 'Last 7 days', seconds: 7 * 86_400 },
  { label: 'Last 30 days', seconds: 30 * 86_400 },
];

/** `<input type="datetime-local">` value (local time) ↔ Unix seconds. */
export function toLocalInput(unixSeconds: number | undefined): string {
  if (unixSeconds === undefined) return '';
  const d = new Date(unixSeconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
