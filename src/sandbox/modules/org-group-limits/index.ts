/**
 * Org group limits. The configuration is one row per group, in order; the enablement "by the account team" is the
 * store setting `org_group_limits_enabled` in `sandbox_meta` (seeded on), and `SANDBOX_ORG_GROUP_LIMITS=off` turns
 * the feature off for the running process whatever the store says. Deleting an organization takes it out of its
 * group (organizations module).
 */
import type { OrgGroupsConfig } from '../../../api/operations/org-group-limits';
import type { FieldError } from '../../../api/problem';
import type { Db } from '../../../node/db';
import { HttpProblem, unprocessable } from '../../../node/problem-writer';
import type { Principal, SandboxModule } from '../../context';

export const ORG_GROUP_LIMITS_SETTING = 'org_group_limits_enabled';

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

/** On unless the store setting says `0` or the process runs with `SANDBOX_ORG_GROUP_LIMITS=off`. */
export function orgGroupLimitsEnabled(db: Db, env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.SANDBOX_ORG_GROUP_LIMITS ?? '').trim().toLowerCase() === 'off') return false;
  const row = db.prepare('SELECT value FROM sandbox_meta WHERE key = ?').get(ORG_GROUP_LIMITS_SETTING) as
    { value: string } | undefined;
  return row?.value !== '0';
}

export function setOrgGroupLimitsEnabled(db: Db, on: boolean): void {
  db.prepare('INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES (?, ?)').run(
    ORG_GROUP_LIMITS_SETTING,
    on ? '1' : '0',
  );
}

function requireEnabled(db: Db): void {
  if (!orgGroupLimitsEnabled(db)) {
    throw new HttpProblem(
      403,
      'Org group limits are not enabled for this enterprise: the account team enables them on request',
      { reason: 'org_group_limits_not_enabled' },
    );
  }
}

export function readOrgGroups(db: Db): OrgGroupsConfig {
  const rows = db
    .prepare('SELECT group_name, org_ids, max_cycle_acus FROM org_group_limits ORDER BY position')
    .all() as {
    group_name: string;
    org_ids: string;
    max_cycle_acus: number | null;
  }[];
  return {
    groups: Object.fromEntries(
      rows.map((r) => [r.group_name, { org_ids: JSON.parse(r.org_ids) as string[], max_cycle_acus: r.max_cycle_acus }]),
    ),
  };
}

function writeOrgGroups(db: Db, config: OrgGroupsConfig): void {
  db.prepare('DELETE FROM org_group_limits').run();
  const insert = db.prepare(
    'INSERT INTO org_group_limits (group_name, position, org_ids, max_cycle_acus) VALUES (?, ?, ?, ?)',
  );
  Object.entries(config.groups).forEach(([name, g], i) =>
    insert.run(name, i, JSON.stringify(g.org_ids), g.max_cycle_acus ?? null),
  );
}

export const orgGroupLimitsModule: SandboxModule = {
  name: 'org-group-limits',
  migrations: [
    {
      id: 'org-group-limits-001-create',
      sql: `CREATE TABLE org_group_limits (
        group_name TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        org_ids TEXT NOT NULL DEFAULT '[]',
        max_cycle_acus INTEGER
      );`,
    },
  ],
  seed({ db, orgIds }) {
    setOrgGroupLimitsEnabled(db, true);
    const ids = orgIds();
    writeOrgGroups(db, {
      groups: {
        'Revenue products': { org_ids: ids.slice(1, 3), max_cycle_acus: 40_000 },
        'Platform and tooling': { org_ids: [ids[0]!, ids[4]!, ids[7]!].filter(Boolean), max_cycle_acus: 60_000 },
        'Shared sandbox pool': { org_ids: ids.slice(6, 7), max_cycle_acus: null },
      },
    });
  },
  handlers: {
    'orgGroupLimits.get': (_input, { db }) => {
      requireEnabled(db);
      return readOrgGroups(db);
    },
    'orgGroupLimits.replace': ({ body, principal }, ctx) => {
      const { db } = ctx;
      requireEnabled(db);
      const known = new Set(
        (db.prepare('SELECT org_id FROM organizations').all() as { org_id: string }[]).map((r) => r.org_id),
      );
      const errors: FieldError[] = [];
      for (const [name, g] of Object.entries(body.groups)) {
        g.org_ids.forEach((orgId, i) => {
          if (!known.has(orgId)) {
            errors.push({
              loc: ['body', 'groups', name, 'org_ids', i],
              msg: `organization ${orgId} was not found`,
              type: 'not_found',
            });
          }
        });
      }
      if (errors.length > 0) throw unprocessable(errors);
      const previous = readOrgGroups(db);
      const next: OrgGroupsConfig = {
        groups: Object.fromEntries(
          Object.entries(body.groups).map(([name, g]) => [
            name,
            { org_ids: g.org_ids, max_cycle_acus: g.max_cycle_acus ?? null },
          ]),
        ),
      };
      db.transaction(() => {
        writeOrgGroups(db, next);
        ctx.audit({
          action: 'update_org_group_limits',
          principal: actor(principal),
          data: { groups: next.groups, previous_groups: previous.groups },
        });
      })();
      return next;
    },
  },
};
