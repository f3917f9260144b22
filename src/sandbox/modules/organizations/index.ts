/** Enterprise organizations and `GET /v3/self`. */
import type { Organization } from '../../../api/operations/organizations';
import { paginate } from '../../cursor';
import type { SandboxModule } from '../../context';
import type { Db } from '../../../node/db';
import { notFound } from '../../../node/problem-writer';

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
    'organizations.get': ({ params }, { db }) => {
      const row = db.prepare('SELECT * FROM organizations WHERE org_id = ?').get(params.org_id) as OrgRow | undefined;
      if (!row) throw notFound('Organization', params.org_id);
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
