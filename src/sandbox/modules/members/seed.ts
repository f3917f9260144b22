/**
 * The members seed: roles, several hundred users across the organizations (most with an enterprise role and
 * roles in one to three organizations, some only through IdP groups), IdP groups mapped to roles, a dozen
 * service users and the two demo credentials. Deterministic: everything comes from the module's rng.
 */
import { ID_PREFIX } from '../../../api/conventions';
import type { Db } from '../../../node/db';
import type { SeedContext } from '../../context';
import { DEMO_SERVICE_USERS } from '../../credentials';
import type { Rng } from '../../random';
import {
  FIRST_NAMES,
  IDP_GROUP_SEEDS,
  LAST_NAMES,
  ROLE_IDS,
  ROLE_SEEDS,
  SEED_IDP_ONLY_USERS,
  SEED_USER_COUNT,
  SERVICE_USER_SEEDS,
} from './seed-data';
import { hashCredential, setAssignment } from './store';

const DAY = 86_400;

/** Enterprise roles of people with direct access, by weight. */
const ENTERPRISE_ROLE_WEIGHTS: Array<[string, number]> = [
  [ROLE_IDS.enterpriseMember, 86],
  [ROLE_IDS.enterpriseAdmin, 4],
  [ROLE_IDS.enterpriseViewer, 4],
  [ROLE_IDS.billingAdmin, 2],
  [ROLE_IDS.securityAuditor, 3],
  [ROLE_IDS.platformAutomation, 1],
];
const ORG_ROLE_WEIGHTS: Array<[string, number]> = [
  [ROLE_IDS.orgMember, 68],
  [ROLE_IDS.orgAdmin, 8],
  [ROLE_IDS.orgViewer, 12],
  [ROLE_IDS.sessionOperator, 8],
  [ROLE_IDS.repositoryMaintainer, 4],
];

function weighted(rng: Rng, table: Array<[string, number]>): string {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let r = rng.next() * total;
  for (const [v, w] of table) {
    r -= w;
    if (r < 0) return v;
  }
  return table[0]![0];
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** The roles, and the built-in ones' permissions brought in step with the code (both idempotent). */
export function syncRoles(db: Db): void {
  const upsert = db.prepare(
    `INSERT INTO roles (role_id, role_name, role_type, permissions, is_built_in, position) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (role_id) DO UPDATE SET permissions = excluded.permissions WHERE roles.is_built_in = 1`,
  );
  const insertOnly = db.prepare(
    `INSERT OR IGNORE INTO roles (role_id, role_name, role_type, permissions, is_built_in, position) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  ROLE_SEEDS.forEach((r, i) => {
    (r.is_built_in ? upsert : insertOnly).run(
      r.role_id,
      r.role_name,
      r.role_type,
      JSON.stringify(r.permissions()),
      r.is_built_in ? 1 : 0,
      i,
    );
  });
}

/** The demo credentials exist, are not deleted or expiring, and hold their built-in enterprise roles. */
export function syncDemoServiceUsers(db: Db, now: number): void {
  for (const d of DEMO_SERVICE_USERS) {
    db.prepare(
      `INSERT INTO service_users (service_user_id, name, org_id, credential_hash, created_at, expires_at, deleted_at, created_by)
       VALUES (?, ?, NULL, ?, ?, NULL, NULL, NULL)
       ON CONFLICT (service_user_id) DO UPDATE SET credential_hash = excluded.credential_hash, expires_at = NULL, deleted_at = NULL`,
    ).run(d.service_user_id, d.service_user_name, hashCredential(d.credential), now - 400 * DAY);
    setAssignment(db, 'service_user', d.service_user_id, null, d.role_id);
  }
}

function seedUsers(db: Db, rng: Rng, orgIds: readonly string[], now: number): string[] {
  const insert = db.prepare('INSERT INTO users (user_id, email, name, created_at) VALUES (?, ?, ?, ?)');
  const seen = new Set<string>();
  const userIds: string[] = [];
  while (userIds.length < SEED_USER_COUNT) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    let local = `${slug(first)}.${slug(last)}`;
    for (let n = 2; seen.has(local); n++) local = `${slug(first)}.${slug(last)}${n}`;
    seen.add(local);
    const userId = `${ID_PREFIX.user}${rng.hex(12)}`;
    // Most people joined over the last two years; a few were invited recently and have not signed in (no name).
    const age = Math.floor(730 * DAY * rng.next() ** 1.3);
    const invited = age < 20 * DAY && rng.chance(0.4);
    insert.run(userId, `${local}@example.com`, invited ? null : `${first} ${last}`, now - age);
    userIds.push(userId);
  }
  const direct = userIds.slice(0, SEED_USER_COUNT - SEED_IDP_ONLY_USERS);
  for (const userId of direct) {
    setAssignment(db, 'user', userId, null, weighted(rng, ENTERPRISE_ROLE_WEIGHTS));
    const n = rng.chance(0.55) ? 1 : rng.chance(0.7) ? 2 : 3;
    for (const orgId of rng.sample(orgIds, Math.min(n, orgIds.length))) {
      setAssignment(db, 'user', userId, orgId, weighted(rng, ORG_ROLE_WEIGHTS));
    }
  }
  return userIds;
}

function seedIdpGroups(
  db: Db,
  rng: Rng,
  orgIds: readonly string[],
  orgNames: readonly string[],
  userIds: string[],
  now: number,
) {
  const insert = db.prepare('INSERT INTO idp_groups (idp_group_name, created_at) VALUES (?, ?)');
  const member = db.prepare('INSERT OR IGNORE INTO idp_group_members (idp_group_name, user_id) VALUES (?, ?)');
  const perOrg = orgIds.map((orgId, i) => ({
    name: `eng-${slug(orgNames[i] ?? orgId)}`,
    org_roles: [[i, ROLE_IDS.orgMember]] as Array<[number, string]>,
  }));
  const groups = [...IDP_GROUP_SEEDS, ...perOrg];
  for (const g of groups) {
    insert.run(g.name, now - rng.int(30, 600) * DAY);
    if ('enterprise_role' in g && g.enterprise_role) setAssignment(db, 'idp_group', g.name, null, g.enterprise_role);
    for (const [i, roleId] of g.org_roles ?? []) {
      const orgId = orgIds[i];
      if (orgId) setAssignment(db, 'idp_group', g.name, orgId, roleId);
    }
  }
  // People who have access only through groups: the company-wide group and their organization's group.
  const idpOnly = userIds.slice(userIds.length - SEED_IDP_ONLY_USERS);
  for (const userId of idpOnly) {
    member.run('all-engineering', userId);
    if (perOrg.length) member.run(rng.pick(perOrg).name, userId);
    if (rng.chance(0.15)) member.run('contractors', userId);
  }
  // Some people with direct roles are in groups too.
  const named = [
    'eng-leads',
    'security-team',
    'finance-ops',
    'payments-oncall',
    'platform-admins',
    'sso-pilot',
    'interns-2026',
  ];
  for (const userId of userIds.slice(0, userIds.length - SEED_IDP_ONLY_USERS)) {
    if (rng.chance(0.3)) member.run('all-engineering', userId);
    if (rng.chance(0.12)) member.run(rng.pick(named), userId);
    if (perOrg.length && rng.chance(0.15)) member.run(rng.pick(perOrg).name, userId);
  }
}

function seedServiceUsers(db: Db, rng: Rng, orgIds: readonly string[], now: number) {
  const insert = db.prepare(
    `INSERT INTO service_users (service_user_id, name, org_id, credential_hash, created_at, expires_at, deleted_at, created_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const s of SERVICE_USER_SEEDS) {
    const homeOrg = s.home_org === undefined ? null : (orgIds[s.home_org] ?? null);
    if (s.home_org !== undefined && homeOrg === null) continue;
    // Their credentials were shown once, long ago: only the hash is kept (nobody knows the text).
    insert.run(
      s.service_user_id,
      s.name,
      homeOrg,
      hashCredential(`${ID_PREFIX.credential}${rng.hex(40)}`),
      now - s.created_days_ago * DAY,
      s.expires_in_days === undefined ? null : now + s.expires_in_days * DAY,
      s.deleted_days_ago === undefined ? null : now - s.deleted_days_ago * DAY,
      DEMO_SERVICE_USERS[0]!.service_user_id,
    );
    if (s.enterprise_role) setAssignment(db, 'service_user', s.service_user_id, null, s.enterprise_role);
    for (const [i, roleId] of s.org_roles ?? []) {
      const orgId = orgIds[i];
      if (orgId) setAssignment(db, 'service_user', s.service_user_id, orgId, roleId);
    }
  }
}

export function seedMembers(ctx: SeedContext): void {
  const { db, rng } = ctx;
  const now = ctx.now();
  const orgs = db.prepare('SELECT org_id, name FROM organizations ORDER BY created_at, org_id').all() as Array<{
    org_id: string;
    name: string;
  }>;
  const orgIds = orgs.map((o) => o.org_id);
  syncRoles(db);
  syncDemoServiceUsers(db, now);
  const userIds = seedUsers(db, rng, orgIds, now);
  seedIdpGroups(
    db,
    rng,
    orgIds,
    orgs.map((o) => o.name),
    userIds,
    now,
  );
  seedServiceUsers(db, rng, orgIds, now);
}

/**
 * At every start: a store seeded before members existed gets the whole seed; any store gets the built-in roles'
 * permissions of this version and its two demo credentials back.
 */
export function ensureMembers(ctx: SeedContext): void {
  const empty = !ctx.db.prepare('SELECT 1 FROM roles LIMIT 1').get();
  if (empty) {
    seedMembers(ctx);
    return;
  }
  syncRoles(ctx.db);
  syncDemoServiceUsers(ctx.db, ctx.now());
}

/**
 * Principals other seeds attribute history to (the audit log): the seeded service users, and a deterministic
 * sample of the people, so an entry's actor is a member the console can show.
 */
export function seedActors(db: Db): {
  serviceUsers: Array<{ service_user_id: string; service_user_name: string }>;
  users: Array<{ user_id: string; user_email: string }>;
} | null {
  const serviceUsers = db
    .prepare(
      `SELECT service_user_id, name AS service_user_name FROM service_users
       WHERE service_user_id NOT IN (${DEMO_SERVICE_USERS.map(() => '?').join(', ')}) ORDER BY created_at, service_user_id`,
    )
    .all(...DEMO_SERVICE_USERS.map((d) => d.service_user_id)) as Array<{
    service_user_id: string;
    service_user_name: string;
  }>;
  const users = db
    .prepare(`SELECT user_id, email AS user_email FROM users WHERE name IS NOT NULL ORDER BY user_id LIMIT 60`)
    .all() as Array<{ user_id: string; user_email: string }>;
  return serviceUsers.length && users.length ? { serviceUsers, users } : null;
}
