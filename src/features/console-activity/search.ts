/**
 * The Console activity screen's filters, in the URL: person (part of a name, email or subject), operation id,
 * organization id, outcome, and a time range (a preset, or `from`/`to` in Unix seconds). Read without a
 * schema library: every value is bounded, an unreadable one is dropped.
 */
import { ACTIVITY_OUTCOMES, type ActivityOutcome } from '@/api/values';

export const ACTIVITY_RANGES = ['all', '1h', '24h', '7d', '30d', 'custom'] as const;
export type ActivityRange = (typeof ACTIVITY_RANGES)[number];

export interface ActivitySearch {
  person?: string;
  operation?: string;
  org?: string;
  outcome?: ActivityOutcome;
  range?: ActivityRange;
  from?: number;
  to?: number;
}

const text = (v: unknown, max: number) => {
  const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
  return s && s.length <= max ? s : undefined;
};
const seconds = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,12}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};
const oneOf = <T extends string>(values: readonly T[], v: unknown) => (values.includes(v as T) ? (v as T) : undefined);

export function parseActivitySearch(raw: Record<string, unknown>): ActivitySearch {
  const out: ActivitySearch = {};
  const put = <K extends keyof ActivitySearch>(k: K, v: ActivitySearch[K]) => {
    if (v !== undefined) out[k] = v;
  };
  put('person', text(raw.person, 200));
  put('operation', text(raw.operation, 200));
  put('org', text(raw.org, 200));
  put('outcome', oneOf(ACTIVITY_OUTCOMES, raw.outcome));
  put('range', oneOf(ACTIVITY_RANGES, raw.range));
  if (out.range === 'custom') {
    put('from', seconds(raw.from));
    put('to', seconds(raw.to));
  }
  return out;
}

const RANGE_SECONDS: Record<Exclude<ActivityRange, 'all' | 'custom'>, number> = {
  '1h': 3_600,
  '24h': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
};

/** What the list operation is asked: the filters with the time range as Unix seconds (a preset from `now`). */
export interface ActivityFilters {
  person?: string;
  operation?: string;
  org_id?: string;
  outcome?: ActivityOutcome;
  from?: string;
  to?: string;
}

export function activityFilters(s: ActivitySearch, nowS = Math.floor(Date.now() / 1000)): ActivityFilters {
  const f: ActivityFilters = {};
  if (s.person) f.person = s.person;
  if (s.operation) f.operation = s.operation;
  if (s.org) f.org_id = s.org;
  if (s.outcome) f.outcome = s.outcome;
  if (s.range && s.range !== 'all' && s.range !== 'custom') {
    // Rounded to the minute: the query key stays the same while the screen is open.
    f.from = String(Math.floor((nowS - RANGE_SECONDS[s.range]) / 60) * 60);
  } else if (s.range === 'custom') {
    if (s.from !== undefined) f.from = String(s.from);
    if (s.to !== undefined) f.to = String(s.to);
  }
  return f;
}
