/**
 * Agent ACU limits. The enterprise's and users' limits live in `acu_limits`; an organization's limit is its
 * `organizations.max_cycle_acu_limit`, so the organizations operations and these always agree, and deleting an
 * organization removes its limit. Users' limits of users no longer in the store are not listed.
 */
import type { AcuLimit } from '../../../api/operations/acu-limits';
import type { Db } from '../../../node/db';
import { unprocessable } from '../../../node/problem-writer';
import { paginate } from '../../cursor';
import type { Principal, SandboxContext, SandboxModule } from '../../context';

interface LimitRow extends Record<string, unknown> {
  rank: number;
  k: string;
  scope: AcuLimit['scope'];
  org_id: string | null;
  user_id: string | null;
  cycle_acu_limit: number;
}

/** Seeded enterprise limit and the users' limits (a few heavy users capped). */
export const SEED_ENTERPRISE_ACU_LIMIT = 250_000;

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

const LIST_SELECT = `SELECT * FROM (
  SELECT 0 AS rank, 'enterprise' AS k, 'enterprise' AS scope, NULL AS org_id, NULL AS user_id, cycle_acu_limit
    FROM acu_limits WHERE scope = 'enterprise'
  UNION ALL
  SELECT 1, org_id, 'org', org_id, NULL, max_cycle_acu_limit FROM organizations WHERE max_cycle_acu_limit IS NOT NULL
  UNION ALL
  SELECT 2, a.user_id, 'user', NULL, a.user_id, a.cycle_acu_limit
    FROM acu_limits a JOIN users u ON u.user_id = a.user_id WHERE a.scope = 'user'
)`;

function enterpriseLimit(db: Db): number | null {
  const row = db.prepare(`SELECT cycle_acu_limit FROM acu_limits WHERE scope = 'enterprise'`).get() as
    { cycle_acu_limit: number } | undefined;
  return row?.cycle_acu_limit ?? null;
}

function orgLimits(db: Db, orgId: string) {
  return db
    .prepare('SELECT max_cycle_acu_limit, max_session_acu_limit FROM organizations WHERE org_id = ?')
    .get(orgId) as {
    max_cycle_acu_limit: number | null;
    max_session_acu_limit: number | null;
  };
}

function audit(
  ctx: SandboxContext,
  principal: Principal,
  action: 'update_acu_limit' | 'delete_acu_limit',
  orgId: string | null,
  next: number | null,
  previous: number | null,
) {
  ctx.audit({
    action,
    org_id: orgId,
    principal: actor(principal),
    data: {
      scope: orgId === null ? 'enterprise' : 'org',
      ...(orgId === null ? {} : { org_id: orgId }),
      cycle_acu_limit: next,
      previous_cycle_acu_limit: previous,
    },
  });
}

function setEnterprise(ctx: SandboxContext, principal: Principal, value: number | null) {
  const previous = enterpriseLimit(ctx.db);
  ctx.db.transaction(() => {
    ctx.db.prepare(`DELETE FROM acu_limits WHERE scope = 'enterprise'`).run();
    if (value !== null) {
      ctx.db
        .prepare(
          `INSERT INTO acu_limits (limit_key, scope, user_id, cycle_acu_limit) VALUES ('enterprise', 'enterprise', NULL, ?)`,
        )
        .run(value);
    }
    audit(ctx, principal, value === null ? 'delete_acu_limit' : 'update_acu_limit', null, value, previous);
  })();
}

function setOrg(ctx: SandboxContext, principal: Principal, orgId: string, value: number | null) {
  const before = orgLimits(ctx.db, orgId);
  if (value !== null && before.max_session_acu_limit !== null && value < before.max_session_acu_limit) {
    throw unprocessable([
      {
        loc: ['body', 'cycle_acu_limit'],
        msg: `cycle_acu_limit (${value}) cannot be below the organization's max_session_acu_limit (${before.max_session_acu_limit})`,
        type: 'value_error',
      },
    ]);
  }
  ctx.db.transaction(() => {
    ctx.db
      .prepare('UPDATE organizations SET max_cycle_acu_limit = ?, updated_at = ? WHERE org_id = ?')
      .run(value, ctx.now(), orgId);
    audit(
      ctx,
      principal,
      value === null ? 'delete_acu_limit' : 'update_acu_limit',
      orgId,
      value,
      before.max_cycle_acu_limit,
    );
  })();
}

export const acuLimitsModule: SandboxModule = {
  name: 'acu-limits',
  migrations: [
    {
      id: 'acu-limits-001-create',
      sql: `CREATE TABLE acu_limits (
        limit_key TEXT PRIMARY KEY,
        scope TEXT NOT NULL CHECK (scope IN ('enterprise', 'user')),
        user_id TEXT,
        cycle_acu_limit INTEGER NOT NULL
      );`,
    },
  ],
  seed({ db, rng }) {
    const insert = db.prepare(
      'INSERT INTO acu_limits (limit_key, scope, user_id, cycle_acu_limit) VALUES (?, ?, ?, ?)',
    );
    insert.run('enterprise', 'enterprise', null, SEED_ENTERPRISE_ACU_LIMIT);
    const users = (db.prepare('SELECT user_id FROM users ORDER BY user_id').all() as { user_id: string }[]).map(
      (u) => u.user_id,
    );
    for (const userId of rng.sample(users, Math.min(4, users.length))) {
      insert.run(`user:${userId}`, 'user', userId, rng.pick([500, 1_000, 2_500]));
    }
  },
  handlers: {
    'acuLimits.list': ({ query }, { db }) =>
      paginate<LimitRow, AcuLimit>(db, {
        scope: 'acu-limits',
        select: LIST_SELECT,
        order: [
          { col: 'rank', dir: 'asc' },
          { col: 'k', dir: 'asc' },
        ],
        first: query.first,
        after: query.after,
        map: (r) => ({ cycle_acu_limit: r.cycle_acu_limit, scope: r.scope, org_id: r.org_id, user_id: r.user_id }),
      }),
    'acuLimits.enterprise.update': ({ body, principal }, ctx) => setEnterprise(ctx, principal, body.cycle_acu_limit),
    'acuLimits.enterprise.delete': ({ principal }, ctx) => setEnterprise(ctx, principal, null),
    'acuLimits.organization.update': ({ params, body, principal }, ctx) =>
      setOrg(ctx, principal, params.org_id, body.cycle_acu_limit),
    'acuLimits.organization.delete': ({ params, principal }, ctx) => setOrg(ctx, principal, params.org_id, null),
  },
};
