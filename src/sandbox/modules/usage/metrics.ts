/**
 * Usage metrics computed from the sessions and searches tables: sessions by creation time, pull requests at
 * their session's last activity, searches by when they were made, active users by who created sessions or made
 * searches, in windows that follow billing days.
 */
import type { ActiveUsers, PrMetrics, SessionMetrics, UsageMetrics } from '../../../api/operations/metrics';
import { BILLING_DAY_START_HOUR_UTC, billingDayStart, DAY_SECONDS } from '../../../api/billing-day';
import type { Db } from '../../../node/db';

export interface MetricsFilter {
  after?: number | undefined;
  before?: number | undefined;
  orgIds?: string[] | undefined;
}

type Cond = [string, ...Array<string | number>];

function where(col: string, orgCol: string, f: MetricsFilter): { sql: string; params: Array<string | number> } {
  const conds: Cond[] = [];
  if (f.after !== undefined) conds.push([`${col} >= ?`, f.after]);
  if (f.before !== undefined) conds.push([`${col} < ?`, f.before]);
  if (f.orgIds && f.orgIds.length > 0)
    conds.push([`${orgCol} IN (${f.orgIds.map(() => '?').join(', ')})`, ...f.orgIds]);
  return {
    sql: conds.length ? `WHERE ${conds.map(([s]) => s).join(' AND ')}` : '',
    params: conds.flatMap(([, ...p]) => p),
  };
}

function prCounts(db: Db, f: MetricsFilter): Required<PrMetrics> {
  const w = where('s.updated_at', 's.org_id', f);
  const rows = db
    .prepare(
      `SELECT json_extract(p.value, '$.pr_state') AS state, count(*) AS n
       FROM sessions s, json_each(s.pull_requests) p ${w.sql} GROUP BY state`,
    )
    .all(...w.params) as Array<{ state: string | null; n: number }>;
  const of = (s: string) => rows.find((r) => r.state === s)?.n ?? 0;
  return {
    prs_created_count: rows.reduce((n, r) => n + r.n, 0),
    prs_merged_count: of('merged'),
    prs_opened_count: of('open'),
    prs_closed_count: of('closed'),
  };
}

function sessionCount(db: Db, f: MetricsFilter): number {
  const w = where('s.created_at', 's.org_id', f);
  return (db.prepare(`SELECT count(*) AS n FROM sessions s ${w.sql}`).get(...w.params) as { n: number }).n;
}

export function searchCount(db: Db, f: MetricsFilter): number {
  const w = where('created_at', 'org_id', f);
  return (db.prepare(`SELECT count(*) AS n FROM searches ${w.sql}`).get(...w.params) as { n: number }).n;
}

export function usageMetrics(db: Db, f: MetricsFilter): UsageMetrics {
  const prs = prCounts(db, f);
  return {
    prs_created_count: prs.prs_created_count,
    prs_merged_count: prs.prs_merged_count,
    searches_count: searchCount(db, f),
    sessions_count: sessionCount(db, f),
  };
}

export function prMetrics(db: Db, f: MetricsFilter): PrMetrics {
  return prCounts(db, f);
}

const sizeOf = (messages: number) =>
  messages < 4 ? 'xs' : messages < 8 ? 's' : messages < 16 ? 'm' : messages < 32 ? 'l' : 'xl';

export function sessionMetrics(db: Db, f: MetricsFilter): SessionMetrics {
  const w = where('s.created_at', 's.org_id', f);
  const rows = db
    .prepare(
      `SELECT s.origin, s.acus_consumed AS acus,
         (SELECT count(*) FROM session_messages m WHERE m.session_id = s.session_id) AS messages,
         EXISTS (SELECT 1 FROM json_each(s.pull_requests) p WHERE json_extract(p.value, '$.pr_state') = 'merged') AS merged
       FROM sessions s ${w.sql}`,
    )
    .all(...w.params) as Array<{ origin: string; acus: number; messages: number; merged: number }>;
  const byOrigin: Record<string, number> = {};
  const bySize: Record<string, number> = { xs: 0, s: 0, m: 0, l: 0, xl: 0 };
  let cents = 0;
  let merged = 0;
  for (const r of rows) {
    byOrigin[r.origin] = (byOrigin[r.origin] ?? 0) + 1;
    const size = sizeOf(r.messages);
    bySize[size] = (bySize[size] ?? 0) + 1;
    cents += Math.round(r.acus * 100);
    if (r.merged) merged++;
  }
  return {
    sessions_created_count: rows.length,
    sessions_created_by_origin: byOrigin,
    sessions_created_by_size: bySize,
    sessions_with_merged_prs_count: merged,
    avg_acus_per_session: rows.length ? Math.round(cents / rows.length) / 100 : 0,
  };
}

/** The windows of an active-users list: days, 7-day runs from the first day, or calendar months. */
export type WindowKind = 'range' | 'day' | 'week' | 'month';

function monthStart(t: number): number {
  const d = new Date(billingDayStart(t) * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1, BILLING_DAY_START_HOUR_UTC) / 1000;
}

function nextMonth(start: number): number {
  const d = new Date(start * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, BILLING_DAY_START_HOUR_UTC) / 1000;
}

/** Windows over [after, before), each clipped to it. */
export function windows(kind: WindowKind, after: number, before: number): Array<[number, number]> {
  if (kind === 'range') return [[after, before]];
  const out: Array<[number, number]> = [];
  let start = kind === 'month' ? monthStart(after) : billingDayStart(after);
  while (start < before && out.length < 1_000) {
    const end = kind === 'day' ? start + DAY_SECONDS : kind === 'week' ? start + 7 * DAY_SECONDS : nextMonth(start);
    out.push([Math.max(start, after), Math.min(end, before)]);
    start = end;
  }
  return out;
}

export interface ActiveUsersFilter {
  after: number;
  before: number;
  orgIds?: string[] | undefined;
  minSessions: number;
  minSearches: number;
}

/**
 * Active users per window: a user who created at least `minSessions` sessions, or made at least `minSearches`
 * searches, in the window (a threshold of 0 is not a criterion).
 */
export function activeUsers(db: Db, kind: WindowKind, f: ActiveUsersFilter): ActiveUsers[] {
  const range = { after: f.after, before: f.before, orgIds: f.orgIds };
  const ws = where('created_at', 'org_id', range);
  const and = ws.sql ? `${ws.sql} AND user_id IS NOT NULL` : 'WHERE user_id IS NOT NULL';
  const sessions =
    f.minSessions > 0
      ? (db.prepare(`SELECT user_id, created_at FROM sessions ${and}`).all(...ws.params) as Activity[])
      : [];
  const searches =
    f.minSearches > 0
      ? (db.prepare(`SELECT user_id, created_at FROM searches ${and}`).all(...ws.params) as Activity[])
      : [];
  return windows(kind, f.after, f.before).map(([start, end]) => {
    const active = new Set<string>();
    for (const [rows, min] of [
      [sessions, f.minSessions],
      [searches, f.minSearches],
    ] as const) {
      if (min <= 0) continue;
      const counts = new Map<string, number>();
      for (const r of rows) {
        if (r.created_at < start || r.created_at >= end) continue;
        counts.set(r.user_id, (counts.get(r.user_id) ?? 0) + 1);
      }
      for (const [user, n] of counts) if (n >= min) active.add(user);
    }
    return { active_users: active.size, start_time: start, end_time: end };
  });
}

interface Activity {
  user_id: string;
  created_at: number;
}
