/**
 * Enterprise organizations (list, get, create, update, delete) and `GET /v3/self`. Deleting an organization
 * removes what lives in it from every store table (`deleteOrganizationData`).
 */
import { sessionAboveCycleMessage, type Organization } from '../../../api/operations/organizations';
import { paginate } from '../../cursor';
import type { Principal, SandboxContext, SandboxModule } from '../../context';
import type { Db } from '../../../node/db';
import { HttpProblem, notFound, unprocessable } from '../../../node/problem-writer';

interface OrgRow extends Record<string, unknown> {
  org_id: string;
  name: string;
  created_at: number;
  updated_at: number;
  max_cycle_acu_limit: number | null;
  max_session_acu_limit: number | null;
}

const toOrganization = (r: OrgRow): Organization => ({
  org_id: r.org_id,
  name: r.name,
  created_at: r.created_at,
  updated_at: r.updated_at,
  max_cycle_acu_limit: r.max_cycle_acu_limit,
  max_session_acu_limit: r.max_session_acu_limit,
});

/** Realistic names of an enterprise's engineering organizations. */
export const SEED_ORGANIZATIONS = [
  'Platform Engineering',
  'Payments Core',
  'Mobile Apps',
  'Data Infrastructure',
  'Developer Experience',
  'Security Operations',
  'Growth Web',
  'Internal Tools',
] as const;

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

function getOrgRow(db: Db, orgId: string): OrgRow {
  const row = db.prepare('SELECT * FROM organizations WHERE org_id = ?').get(orgId) as OrgRow | undefined;
  if (!row) throw notFound('Organization', orgId);
  return row;
}

function requireUniqueName(db: Db, name: string, exceptOrgId: string | null): void {
  const other = db
    .prepare('SELECT org_id FROM organizations WHERE lower(name) = lower(?) AND org_id IS NOT ?')
    .get(name, exceptOrgId) as { org_id: string } | undefined;
  if (other) {
    throw new HttpProblem(409, `An organization named “${name}” already exists`, {
      org_id: other.org_id,
    });
  }
}

function requireSessionWithinCycle(cycle: number | null, session: number | null): void {
  if (cycle !== null && session !== null && session > cycle) {
    throw unprocessable([
      {
        loc: ['body', 'max_session_acu_limit'],
        msg: sessionAboveCycleMessage(session, cycle),
        type: 'value_error',
      },
    ]);
  }
}

/** Tables whose rows belong to an organization but must outlive it: the history, and soft-deleted principals. */
const KEPT_ON_DELETE = new Set(['organizations', 'audit_logs', 'service_users']);

/**
 * Removes everything of an organization from the store: every row of every table with an `org_id` column,
 * except the audit log (history stays) and service users (created in the organization: marked deleted, so their
 * credentials stop working and their history reads). Rows that reference a removed row through a foreign key
 * (session messages, a scan's findings, a schedule's runs, whatever modules add) go first, found from the
 * store's own foreign keys. The organization is taken out of org group limits. Answers the rows removed per table.
 */
export function deleteOrganizationData(db: Db, orgId: string, now: number): Record<string, number> {
  const removed: Record<string, number> = {};
  const count = (table: string, n: number) => {
    if (n > 0) removed[table] = (removed[table] ?? 0) + n;
  };
  const has = (table: string) =>
    !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
  const tables = (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as {
      name: string;
    }[]
  ).map((t) => t.name);
  // parent table → the tables (and columns) that reference it.
  const referencedBy = new Map<string, Array<{ child: string; from: string; to: string }>>();
  for (const child of tables) {
    const fks = db.prepare(`PRAGMA foreign_key_list("${child}")`).all() as {
      table: string;
      from: string;
      to: string;
    }[];
    for (const fk of fks) {
      if (fk.table === child) continue; // a self-reference goes in the same statement
      const list = referencedBy.get(fk.table) ?? [];
      list.push({ child, from: fk.from, to: fk.to });
      referencedBy.set(fk.table, list);
    }
  }
  const purge = (table: string, where: string, depth: number) => {
    if (depth > 8) return;
    for (const fk of referencedBy.get(table) ?? []) {
      purge(fk.child, `"${fk.from}" IN (SELECT "${fk.to}" FROM "${table}" WHERE ${where})`, depth + 1);
    }
    count(table, db.prepare(`DELETE FROM "${table}" WHERE ${where}`).run(orgId).changes);
  };
  for (const table of tables) {
    if (KEPT_ON_DELETE.has(table)) continue;
    const cols = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
    if (cols.includes('org_id')) purge(table, 'org_id = ?', 0);
  }
  if (has('service_users')) {
    count(
      'service_users',
      db.prepare('UPDATE service_users SET deleted_at = ? WHERE org_id = ? AND deleted_at IS NULL').run(now, orgId)
        .changes,
    );
  }
  if (has('org_group_limits')) {
    count('org_group_limits', removeFromOrgGroups(db, orgId));
  }
  return removed;
}

/** Takes an organization out of every org group (the groups stay, possibly empty). */
function removeFromOrgGroups(db: Db, orgId: string): number {
  const rows = db.prepare('SELECT group_name, org_ids FROM org_group_limits').all() as {
    group_name: string;
    org_ids: string;
  }[];
  let n = 0;
  for (const r of rows) {
    const ids = JSON.parse(r.org_ids) as string[];
    if (!ids.includes(orgId)) continue;
    db.prepare('UPDATE org_group_limits SET org_ids = ? WHERE group_name = ?').run(
      JSON.stringify(ids.filter((id) => id !== orgId)),
      r.group_name,
    );
    n++;
  }
  return n;
}

function audit(ctx: SandboxContext, principal: Principal, action: string, row: OrgRow, data: Record<string, unknown>) {
  ctx.audit({
    action,
    org_id: row.org_id,
    principal: actor(principal),
    data: { org_id: row.org_id, name: row.name, ...data },
  });
}

export const organizationsModule: SandboxModule = {
  name: 'organizations',
  migrations: [
    {
      id: 'organizations-001-create',
      sql: `CREATE TABLE organizations (
        org_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        max_cycle_acu_limit INTEGER,
        max_session_acu_limit INTEGER
      );
      CREATE INDEX organizations_created ON organizations (created_at, org_id);`,
    },
  ],
  seed({ db, rng, now }) {
    const insert = db.prepare(
      `INSERT INTO organizations (org_id, name, created_at, updated_at, max_cycle_acu_limit, max_session_acu_limit)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const t = now();
    SEED_ORGANIZATIONS.forEach((name, i) => {
      const created = t - (900 - i * 40) * 86_400 + rng.int(0, 86_000);
      insert.run(
        `org-${rng.hex(12)}`,
        name,
        created,
        created + rng.int(1, 200) * 86_400,
        rng.chance(0.5) ? rng.pick([5_000, 10_000, 25_000]) : null,
        rng.chance(0.5) ? rng.pick([50, 100, 250]) : null,
      );
    });
  },
  handlers: {
    'organizations.list': ({ query }, { db }) =>
      paginate<OrgRow, Organization>(db, {
        scope: 'organizations',
        select: 'SELECT * FROM organizations',
        order: [
          { col: 'created_at', dir: 'asc' },
          { col: 'org_id', dir: 'asc' },
        ],
        first: query.first,
        after: query.after,
        map: toOrganization,
      }),
    'organizations.get': ({ params }, { db }) => toOrganization(getOrgRow(db, params.org_id)),
    'organizations.create': ({ body, principal }, ctx) => {
      const { db } = ctx;
      const cycle = body.max_cycle_acu_limit ?? null;
      const session = body.max_session_acu_limit ?? null;
      requireSessionWithinCycle(cycle, session);
      const t = ctx.now();
      const row: OrgRow = {
        org_id: ctx.newId('org-'),
        name: body.name,
        created_at: t,
        updated_at: t,
        max_cycle_acu_limit: cycle,
        max_session_acu_limit: session,
      };
      db.transaction(() => {
        requireUniqueName(db, body.name, null);
        db.prepare(
          `INSERT INTO organizations (org_id, name, created_at, updated_at, max_cycle_acu_limit, max_session_acu_limit)
           VALUES (@org_id, @name, @created_at, @updated_at, @max_cycle_acu_limit, @max_session_acu_limit)`,
        ).run(row);
        audit(ctx, principal, 'create_organization', row, {
          max_cycle_acu_limit: cycle,
          max_session_acu_limit: session,
        });
      })();
      return toOrganization(row);
    },
    'organizations.update': ({ params, body, principal }, ctx) => {
      const { db } = ctx;
      const before = getOrgRow(db, params.org_id);
      const after: OrgRow = {
        ...before,
        name: body.name ?? before.name,
        max_cycle_acu_limit:
          body.max_cycle_acu_limit === undefined ? before.max_cycle_acu_limit : body.max_cycle_acu_limit,
        max_session_acu_limit:
          body.max_session_acu_limit === undefined ? before.max_session_acu_limit : body.max_session_acu_limit,
        updated_at: ctx.now(),
      };
      requireSessionWithinCycle(after.max_cycle_acu_limit, after.max_session_acu_limit);
      db.transaction(() => {
        if (after.name !== before.name) requireUniqueName(db, after.name, before.org_id);
        db.prepare(
          `UPDATE organizations SET name = @name, updated_at = @updated_at, max_cycle_acu_limit = @max_cycle_acu_limit,
           max_session_acu_limit = @max_session_acu_limit WHERE org_id = @org_id`,
        ).run(after);
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        for (const k of ['name', 'max_cycle_acu_limit', 'max_session_acu_limit'] as const) {
          if (before[k] !== after[k]) changes[k] = { from: before[k], to: after[k] };
        }
        audit(ctx, principal, 'update_organization', after, { changes });
      })();
      return toOrganization(after);
    },
    'organizations.delete': ({ params, principal }, ctx) => {
      const { db } = ctx;
      const row = getOrgRow(db, params.org_id);
      db.transaction(() => {
        const removed = deleteOrganizationData(db, row.org_id, ctx.now());
        db.prepare('DELETE FROM organizations WHERE org_id = ?').run(row.org_id);
        audit(ctx, principal, 'delete_organization', row, { removed });
      })();
      return toOrganization(row);
    },
    'self.get': ({ principal }) => ({
      principal_type: principal.principal_type,
      service_user_id: principal.service_user_id,
      service_user_name: principal.service_user_name,
      org_id: principal.org_id,
      permissions: [...principal.permissions],
      role_assignments: [...principal.role_assignments],
    }),
  },
};

/** Every organization id, oldest first: what other modules seed against. */
export function listOrgIds(db: Db): string[] {
  return (db.prepare('SELECT org_id FROM organizations ORDER BY created_at, org_id').all() as { org_id: string }[]).map(
    (r) => r.org_id,
  );
}
