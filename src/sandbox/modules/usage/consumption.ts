/**
 * Consumption per billing day from the ACU ledger, and the billing cycles. Figures are summed in hundredths of an
 * ACU (integers), so a day is exactly the sum of its products, the total exactly the sum of its days, and the
 * organizations' figures exactly the enterprise's.
 */
import type { ConsumptionCycle, ConsumptionResponse } from '../../../api/operations/consumption';
import { billingDays, cycleBounds, DAY_SECONDS } from '../../../api/billing-day';
import { MAX_RANGE_DAYS } from '../../../api/operations/time-range';
import type { Db } from '../../../node/db';
import { unprocessable } from '../../../node/problem-writer';
import { paginate } from '../../cursor';
import { getMeta, setMeta } from './store';

/** Which ledger rows: the enterprise's, or one organization's, user's or service user's. */
export type LedgerScope =
  | { kind: 'enterprise' }
  | { kind: 'org'; id: string }
  | { kind: 'user'; id: string }
  | { kind: 'service_user'; id: string };

const SCOPE_COLUMN = { org: 'org_id', user: 'user_id', service_user: 'service_user_id' } as const;

const FIRST_BILLING_DAY = 28_800;

export const CYCLE_ANCHOR_KEY = 'billing_cycle_anchor_day';

export function cycleAnchorDay(db: Db): number {
  const n = Number(getMeta(db, CYCLE_ANCHOR_KEY));
  return Number.isInteger(n) && n >= 1 && n <= 28 ? n : 1;
}

/**
 * The range a consumption query asks for, with the defaults (the current cycle's start; now) applied and
 * checked again: the defaults can make a range the schema could not see.
 */
export function resolveRange(
  db: Db,
  now: number,
  q: { time_after?: number | undefined; time_before?: number | undefined },
): { after: number; before: number } {
  const after = q.time_after ?? cycleBounds(now, cycleAnchorDay(db)).after;
  const before = q.time_before ?? now + 1;
  // Billing days start at 08:00 UTC: the first one of the Unix era starts at 28,800. A day before it would
  // have a negative start.
  if (after < FIRST_BILLING_DAY) {
    throw unprocessable([
      {
        loc: ['query', 'time_after'],
        msg: `time_after is at least ${FIRST_BILLING_DAY} (1970-01-01 08:00:00 UTC, the first billing day)`,
        type: 'value_error',
      },
    ]);
  }
  if (after >= before) {
    throw unprocessable([
      {
        loc: ['query', q.time_after === undefined ? 'time_before' : 'time_after'],
        msg: `time_after (${after}) must be earlier than time_before (${before})`,
        type: 'value_error',
      },
    ]);
  }
  if (before - after > MAX_RANGE_DAYS * DAY_SECONDS) {
    throw unprocessable([
      {
        loc: ['query', q.time_after === undefined ? 'time_before' : 'time_after'],
        msg: `A range is at most ${MAX_RANGE_DAYS} days long`,
        type: 'value_error',
      },
    ]);
  }
  return { after, before };
}

/** ACUs per billing day of [after, before), by product, every day listed. */
export function dailyConsumption(db: Db, scope: LedgerScope, after: number, before: number): ConsumptionResponse {
  const conds = ['at >= ?', 'at < ?'];
  const params: Array<string | number> = [after, before];
  if (scope.kind !== 'enterprise') {
    conds.push(`${SCOPE_COLUMN[scope.kind]} = ?`);
    params.push(scope.id);
  }
  const rows = db
    .prepare(
      `SELECT ((at - 28800) / 86400) * 86400 + 28800 AS day, product, SUM(CAST(ROUND(acus * 100) AS INTEGER)) AS cents
       FROM acu_ledger WHERE ${conds.join(' AND ')} GROUP BY day, product ORDER BY day, product`,
    )
    .all(...params) as Array<{ day: number; product: string; cents: number }>;
  const byDay = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const products = byDay.get(r.day) ?? new Map<string, number>();
    products.set(r.product, (products.get(r.product) ?? 0) + r.cents);
    byDay.set(r.day, products);
  }
  let totalCents = 0;
  const consumption_by_date = billingDays(after, before, MAX_RANGE_DAYS + 2).map((date) => {
    const products = byDay.get(date) ?? new Map<string, number>();
    let cents = 0;
    const acus_by_product: Record<string, number> = {};
    for (const [product, c] of [...products].sort(([a], [b]) => a.localeCompare(b))) {
      acus_by_product[product] = c / 100;
      cents += c;
    }
    totalCents += cents;
    return { date, acus: cents / 100, acus_by_product };
  });
  return { total_acus: totalCents / 100, consumption_by_date };
}

/** True when the enterprise knows this user: a member, or the creator of a session. */
export function userKnown(db: Db, userId: string): boolean {
  return !!(
    db.prepare('SELECT 1 FROM users WHERE user_id = ?').get(userId) ??
    db.prepare('SELECT 1 FROM sessions WHERE user_id = ? LIMIT 1').get(userId)
  );
}

/** True when the enterprise knows this service user: provisioned, or the starter of a session. */
export function serviceUserKnown(db: Db, serviceUserId: string): boolean {
  return !!(
    db.prepare('SELECT 1 FROM service_users WHERE service_user_id = ?').get(serviceUserId) ??
    db.prepare('SELECT 1 FROM sessions WHERE service_user_id = ? LIMIT 1').get(serviceUserId)
  );
}

/**
 * Keeps the cycles table complete, from the cycle in which the enterprise started (its first organization) up to
 * the one holding `now`.
 */
export function ensureCycles(db: Db, now: number): void {
  const anchor = cycleAnchorDay(db);
  const latest = db.prepare('SELECT max(after) AS a FROM billing_cycles').get() as { a: number | null };
  const current = cycleBounds(now, anchor);
  if (latest.a !== null && latest.a >= current.after) return;
  const first = db.prepare('SELECT min(created_at) AS t FROM organizations').get() as { t: number | null };
  const start = latest.a !== null ? cycleBounds(latest.a, anchor).before : cycleBounds(first.t ?? now, anchor).after;
  const insert = db.prepare('INSERT OR IGNORE INTO billing_cycles (after, before) VALUES (?, ?)');
  // At most ten years of cycles in one go (a store left alone for long catches up in steps).
  for (let t = start, n = 0; t <= current.after && n < 120; n++) {
    const c = cycleBounds(t, anchor);
    insert.run(c.after, c.before);
    t = c.before;
  }
}

export function listCycles(db: Db, now: number, first: number, after: string | null | undefined) {
  ensureCycles(db, now);
  return paginate<{ after: number; before: number }, ConsumptionCycle>(db, {
    scope: 'billing-cycles',
    select: 'SELECT after, before FROM billing_cycles',
    where: [['after <= ?', now]],
    order: [{ col: 'after', dir: 'desc' }],
    first,
    after,
    map: (r) => ({ after: r.after, before: r.before }),
  });
}

/** Sets the cycle anchor on a store that has none (seeded: a day from the 1st to the 28th). */
export function ensureCycleAnchor(db: Db, day: number): void {
  if (getMeta(db, CYCLE_ANCHOR_KEY) === undefined) setMeta(db, CYCLE_ANCHOR_KEY, String(day));
}
