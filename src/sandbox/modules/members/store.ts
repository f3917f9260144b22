/**
 * The principals' store: roles and their permissions, users, service users and their hashed credentials, IdP
 * groups and their members, and role assignments (enterprise-wide or per organization) of all three kinds of
 * principal. Rows to contract shapes, and the credential lookup the dispatcher authenticates with.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ID_PREFIX } from '../../../api/conventions';
import type { IdpRoleAssignment, IdpUser, Role, RoleAssignment, User } from '../../../api/operations/members';
import type { IdpGroup } from '../../../api/operations/idp-groups';
import type { ServiceUser } from '../../../api/operations/service-users';
import { isPermission, type Permission } from '../../../api/permissions';
import type { FieldError } from '../../../api/problem';
import type { Db, Migration } from '../../../node/db';
import { HttpProblem, notFound, unprocessable } from '../../../node/problem-writer';

export const MEMBERS_MIGRATIONS: Migration[] = [
  {
    id: 'members-001-create',
    sql: `CREATE TABLE roles (
      role_id TEXT PRIMARY KEY,
      role_name TEXT NOT NULL,
      role_type TEXT NOT NULL CHECK (role_type IN ('enterprise', 'org')),
      permissions TEXT NOT NULL DEFAULT '[]',
      is_built_in INTEGER NOT NULL DEFAULT 0,
      position INTEGER NOT NULL
    );
    CREATE TABLE users (
      user_id TEXT PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      name TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE service_users (
      service_user_id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      org_id TEXT,
      credential_hash TEXT UNIQUE,
      created_at INTEGER NOT NULL,
      expires_at INTEGER,
      deleted_at INTEGER,
      created_by TEXT
    );
    CREATE INDEX service_users_org ON service_users (org_id);
    CREATE TABLE idp_groups (
      idp_group_name TEXT PRIMARY KEY COLLATE NOCASE,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE idp_group_members (
      idp_group_name TEXT NOT NULL COLLATE NOCASE REFERENCES idp_groups (idp_group_name) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      PRIMARY KEY (idp_group_name, user_id)
    );
    CREATE INDEX idp_group_members_user ON idp_group_members (user_id);
    CREATE TABLE role_assignments (
      principal_type TEXT NOT NULL CHECK (principal_type IN ('user', 'service_user', 'idp_group')),
      principal_id TEXT NOT NULL,
      org_id TEXT NOT NULL DEFAULT '',
      role_id TEXT NOT NULL REFERENCES roles (role_id),
      PRIMARY KEY (principal_type, principal_id, org_id)
    );
    CREATE INDEX role_assignments_org ON role_assignments (org_id, principal_type, principal_id);`,
  },
];

/** `role_assignments.org_id` of an enterprise-wide assignment ('' so that the primary key holds). */
export const ENTERPRISE_LEVEL = '';

export type PrincipalKind = 'user' | 'service_user' | 'idp_group';

export interface RoleRow {
  role_id: string;
  role_name: string;
  role_type: 'enterprise' | 'org';
  permissions: string;
  is_built_in: number;
  position: number;
}

export interface UserRow extends Record<string, unknown> {
  user_id: string;
  email: string;
  name: string | null;
  created_at: number;
}

export interface ServiceUserRow extends Record<string, unknown> {
  service_user_id: string;
  name: string;
  org_id: string | null;
  credential_hash: string | null;
  created_at: number;
  expires_at: number | null;
  deleted_at: number | null;
  created_by: string | null;
}

export interface IdpGroupRow extends Record<string, unknown> {
  idp_group_name: string;
  created_at: number;
}

/** Every role, by id: a handful of rows, read once per request that needs them. */
export class Roles {
  readonly byId: ReadonlyMap<string, RoleRow & { perms: string[] }>;
  constructor(db: Db) {
    const rows = db.prepare('SELECT * FROM roles ORDER BY position, role_id').all() as RoleRow[];
    this.byId = new Map(rows.map((r) => [r.role_id, { ...r, perms: JSON.parse(r.permissions) as string[] }]));
  }
  permissionsOf = (roleId: string): string[] | undefined => this.byId.get(roleId)?.perms;
  /** The role as it stands inside a role assignment (no permissions: `roles.list` has them). */
  ref(roleId: string): Role {
    const r = this.byId.get(roleId);
    return r
      ? { role_id: r.role_id, role_name: r.role_name, role_type: r.role_type }
      : { role_id: roleId, role_name: roleId, role_type: 'org' };
  }
  full(roleId: string): Role {
    const r = this.byId.get(roleId);
    return r ? { ...this.ref(roleId), permissions: r.perms, is_built_in: r.is_built_in === 1 } : this.ref(roleId);
  }
  /** Why a role named in a request cannot be used where `type` is needed, as a field error at `loc`; null if it can. */
  problem(roleId: string, type: 'enterprise' | 'org', loc: Array<string | number>): FieldError | null {
    const role = this.byId.get(roleId);
    const want = type === 'org' ? 'an organization role' : 'an enterprise role';
    if (!role) {
      return {
        loc,
        msg: `${String(loc.at(-1))} ${roleId} is not a role of this enterprise; expected ${want}`,
        type: 'not_found',
      };
    }
    if (role.role_type !== type) {
      const other = role.role_type === 'org' ? 'an organization role' : 'an enterprise role';
      return { loc, msg: `${role.role_name} (${roleId}) is ${other}; this operation takes ${want}`, type: 'role_type' };
    }
    return null;
  }
  /** The role a request names, which must exist and be of `type` (422 at `loc` otherwise). */
  require(roleId: string, type: 'enterprise' | 'org', loc: Array<string | number>): RoleRow & { perms: string[] } {
    const problem = this.problem(roleId, type, loc);
    if (problem) throw unprocessable([problem]);
    return this.byId.get(roleId)!;
  }
}

interface AssignmentRow {
  principal_id: string;
  org_id: string;
  role_id: string;
}

/** Role assignments of some principals of one kind, enterprise-wide first, then by organization. */
export function assignmentsOf(
  db: Db,
  roles: Roles,
  kind: PrincipalKind,
  ids: readonly string[],
  onlyOrg?: string,
): Map<string, RoleAssignment[]> {
  const out = new Map<string, RoleAssignment[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  // Chunked: SQLite binds at most a few thousand parameters per statement.
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const orgFilter = onlyOrg === undefined ? '' : ` AND org_id IN ('', ?)`;
    const rows = db
      .prepare(
        `SELECT principal_id, org_id, role_id FROM role_assignments
         WHERE principal_type = ? AND principal_id IN (${chunk.map(() => '?').join(', ')})${orgFilter}
         ORDER BY principal_id, org_id`,
      )
      .all(kind, ...chunk, ...(onlyOrg === undefined ? [] : [onlyOrg])) as AssignmentRow[];
    for (const r of rows) {
      out
        .get(r.principal_id)
        ?.push({ role: roles.ref(r.role_id), org_id: r.org_id === ENTERPRISE_LEVEL ? null : r.org_id });
    }
  }
  return out;
}

/** The IdP groups each user belongs to, and the role assignments inherited through them. */
function idpOf(
  db: Db,
  roles: Roles,
  userIds: readonly string[],
  onlyOrg?: string,
): Map<string, { groups: string[]; assignments: IdpRoleAssignment[] }> {
  const out = new Map(userIds.map((id) => [id, { groups: [] as string[], assignments: [] as IdpRoleAssignment[] }]));
  for (let i = 0; i < userIds.length; i += 500) {
    const chunk = userIds.slice(i, i + 500);
    const marks = chunk.map(() => '?').join(', ');
    const groups = db
      .prepare(
        `SELECT m.user_id, g.idp_group_name FROM idp_group_members m JOIN idp_groups g ON g.idp_group_name = m.idp_group_name
         WHERE m.user_id IN (${marks}) ORDER BY m.user_id, g.idp_group_name`,
      )
      .all(...chunk) as Array<{ user_id: string; idp_group_name: string }>;
    for (const g of groups) out.get(g.user_id)?.groups.push(g.idp_group_name);
    const orgFilter = onlyOrg === undefined ? '' : ` AND a.org_id IN ('', ?)`;
    const rows = db
      .prepare(
        `SELECT m.user_id, a.principal_id, a.org_id, a.role_id FROM idp_group_members m
         JOIN role_assignments a ON a.principal_type = 'idp_group' AND a.principal_id = m.idp_group_name
         WHERE m.user_id IN (${marks})${orgFilter} ORDER BY m.user_id, a.org_id, a.principal_id`,
      )
      .all(...chunk, ...(onlyOrg === undefined ? [] : [onlyOrg])) as Array<AssignmentRow & { user_id: string }>;
    for (const r of rows) {
      out.get(r.user_id)?.assignments.push({
        role: roles.ref(r.role_id),
        org_id: r.org_id === ENTERPRISE_LEVEL ? null : r.org_id,
        idp_group_name: r.principal_id,
      });
    }
  }
  return out;
}

/**
 * Users as the contract shows them. `onlyOrg`: an organization's view, which shows the assignments that hold in
 * that organization (its own and the enterprise-wide ones).
 */
export function toUsers(db: Db, roles: Roles, rows: readonly UserRow[], onlyOrg?: string): User[] {
  const ids = rows.map((r) => r.user_id);
  const direct = assignmentsOf(db, roles, 'user', ids, onlyOrg);
  const idp = idpOf(db, roles, ids, onlyOrg);
  return rows.map((r) => ({
    user_id: r.user_id,
    email: r.email,
    name: r.name,
    role_assignments: direct.get(r.user_id) ?? [],
    idp_role_assignments: idp.get(r.user_id)?.assignments ?? [],
    idp_group_names: idp.get(r.user_id)?.groups ?? [],
    created_at: r.created_at,
  }));
}

/** IdP users: only the role assignments inherited through groups (in `onlyOrg`, those that hold there). */
export function toIdpUsers(db: Db, roles: Roles, rows: readonly UserRow[], onlyOrg?: string): IdpUser[] {
  const idp = idpOf(
    db,
    roles,
    rows.map((r) => r.user_id),
    onlyOrg,
  );
  return rows.map((r) => ({
    user_id: r.user_id,
    email: r.email,
    name: r.name,
    idp_role_assignments: idp.get(r.user_id)?.assignments ?? [],
  }));
}

export function toServiceUsers(db: Db, roles: Roles, rows: readonly ServiceUserRow[]): ServiceUser[] {
  const assignments = assignmentsOf(
    db,
    roles,
    'service_user',
    rows.map((r) => r.service_user_id),
  );
  return rows.map((r) => ({
    service_user_id: r.service_user_id,
    name: r.name,
    role_assignments: assignments.get(r.service_user_id) ?? [],
    expires_at: r.expires_at,
    deleted_at: r.deleted_at,
    created_at: r.created_at,
    org_id: r.org_id,
  }));
}

export function toIdpGroups(db: Db, roles: Roles, rows: readonly IdpGroupRow[]): IdpGroup[] {
  const names = rows.map((r) => r.idp_group_name);
  const assignments = assignmentsOf(db, roles, 'idp_group', names);
  const counts = new Map<string, number>();
  for (let i = 0; i < names.length; i += 500) {
    const chunk = names.slice(i, i + 500);
    const rowsN = db
      .prepare(
        `SELECT idp_group_name, count(*) AS n FROM idp_group_members
         WHERE idp_group_name IN (${chunk.map(() => '?').join(', ')}) GROUP BY idp_group_name`,
      )
      .all(...chunk) as Array<{ idp_group_name: string; n: number }>;
    for (const r of rowsN) counts.set(r.idp_group_name.toLowerCase(), r.n);
  }
  return rows.map((r) => ({
    idp_group_name: r.idp_group_name,
    role_assignments: assignments.get(r.idp_group_name) ?? [],
    member_count: counts.get(r.idp_group_name.toLowerCase()) ?? 0,
    created_at: r.created_at,
  }));
}

export function getUserRow(db: Db, userId: string): UserRow {
  const row = db.prepare('SELECT * FROM users WHERE user_id = ?').get(userId) as UserRow | undefined;
  if (!row) throw notFound('User', userId);
  return row;
}

/**
 * The service users an organization's route sees, as a WHERE condition on `service_users`: those created in the
 * organization and those given a role there (its members).
 */
export const MEMBER_OF_ORG = (orgId: string): [string, string, string] => [
  `(org_id = ? OR service_user_id IN (
     SELECT principal_id FROM role_assignments WHERE principal_type = 'service_user' AND org_id = ?))`,
  orgId,
  orgId,
];

export function getServiceUserRow(db: Db, id: string, orgId?: string): ServiceUserRow {
  const row = db.prepare('SELECT * FROM service_users WHERE service_user_id = ?').get(id) as ServiceUserRow | undefined;
  if (!row) throw notFound('Service user', id);
  if (orgId !== undefined) {
    const [member, ...args] = MEMBER_OF_ORG(orgId);
    const seen = db.prepare(`SELECT 1 FROM service_users WHERE service_user_id = ? AND ${member}`).get(id, ...args);
    if (!seen) throw new HttpProblem(404, `Service user ${id} was not found in organization ${orgId}`);
  }
  return row;
}

/** A registered IdP group, by name in any letter case (404 otherwise). */
export function getIdpGroupRow(db: Db, name: string): IdpGroupRow {
  const row = db.prepare('SELECT * FROM idp_groups WHERE idp_group_name = ?').get(name) as IdpGroupRow | undefined;
  if (!row) throw notFound('IdP group', name);
  return row;
}

/** Only the role assignments of one level (`orgId` null: the enterprise-wide one). */
export function atLevel<T extends { role_assignments?: RoleAssignment[] | undefined }>(
  item: T,
  orgId: string | null,
): T {
  return { ...item, role_assignments: (item.role_assignments ?? []).filter((a) => (a.org_id ?? null) === orgId) };
}

/** Sets (or, with role null, removes) a principal's role at one level. */
export function setAssignment(
  db: Db,
  kind: PrincipalKind,
  principalId: string,
  orgId: string | null,
  roleId: string | null,
): void {
  const level = orgId ?? ENTERPRISE_LEVEL;
  if (roleId === null) {
    db.prepare('DELETE FROM role_assignments WHERE principal_type = ? AND principal_id = ? AND org_id = ?').run(
      kind,
      principalId,
      level,
    );
    return;
  }
  db.prepare(
    `INSERT INTO role_assignments (principal_type, principal_id, org_id, role_id) VALUES (?, ?, ?, ?)
     ON CONFLICT (principal_type, principal_id, org_id) DO UPDATE SET role_id = excluded.role_id`,
  ).run(kind, principalId, level, roleId);
}

export function assignmentAt(db: Db, kind: PrincipalKind, principalId: string, orgId: string | null): string | null {
  const row = db
    .prepare('SELECT role_id FROM role_assignments WHERE principal_type = ? AND principal_id = ? AND org_id = ?')
    .get(kind, principalId, orgId ?? ENTERPRISE_LEVEL) as { role_id: string } | undefined;
  return row?.role_id ?? null;
}

// ---- credentials ----

/** How credentials are stored: the sha256 of the whole `cog_…` text, hex. */
export function hashCredential(credential: string): string {
  return createHash('sha256').update(credential, 'utf8').digest('hex');
}

/** A new credential: `cog_` and 40 random hex digits. */
export function newCredential(): string {
  return `${ID_PREFIX.credential}${randomBytes(20).toString('hex')}`;
}

/**
 * Gives a service user a new credential (replacing any earlier one) and answers it: the only time its text is
 * known. The API does it on create; tests use it to act as a seeded service user.
 */
export function issueCredential(db: Db, serviceUserId: string, credential: string = newCredential()): string {
  const r = db
    .prepare('UPDATE service_users SET credential_hash = ? WHERE service_user_id = ?')
    .run(hashCredential(credential), serviceUserId);
  if (r.changes === 0) throw notFound('Service user', serviceUserId);
  return credential;
}

/** What a credential lets its holder do, as the dispatcher needs it. */
export interface CredentialGrants {
  service_user_id: string;
  service_user_name: string;
  org_id: string | null;
  /** Enterprise-wide permissions: they hold on every path. */
  enterprise: Set<Permission>;
  /** Per organization, the permissions of organization-level assignments: they hold on that organization's paths. */
  orgs: Map<string, Set<Permission>>;
  /** The assignments, each role with its permissions. */
  role_assignments: RoleAssignment[];
}

export type CredentialLookup =
  { ok: true; grants: CredentialGrants } | { ok: false; reason: 'unknown' | 'deleted' | 'expired'; at?: number };

export function lookupCredential(db: Db, credential: string, now: number): CredentialLookup {
  const row = db.prepare('SELECT * FROM service_users WHERE credential_hash = ?').get(hashCredential(credential)) as
    ServiceUserRow | undefined;
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.deleted_at !== null) return { ok: false, reason: 'deleted', at: row.deleted_at };
  if (row.expires_at !== null && row.expires_at <= now) return { ok: false, reason: 'expired', at: row.expires_at };
  const roles = new Roles(db);
  const rows = db
    .prepare(
      `SELECT principal_id, org_id, role_id FROM role_assignments WHERE principal_type = 'service_user' AND principal_id = ?
       ORDER BY org_id`,
    )
    .all(row.service_user_id) as AssignmentRow[];
  const enterprise = new Set<Permission>();
  const orgs = new Map<string, Set<Permission>>();
  for (const a of rows) {
    const perms = (roles.permissionsOf(a.role_id) ?? []).filter(isPermission);
    const into = a.org_id === ENTERPRISE_LEVEL ? enterprise : (orgs.get(a.org_id) ?? new Set<Permission>());
    for (const p of perms) into.add(p);
    if (a.org_id !== ENTERPRISE_LEVEL) orgs.set(a.org_id, into);
  }
  return {
    ok: true,
    grants: {
      service_user_id: row.service_user_id,
      service_user_name: row.name,
      org_id: row.org_id,
      enterprise,
      orgs,
      role_assignments: rows.map((a) => ({
        role: roles.full(a.role_id),
        org_id: a.org_id === ENTERPRISE_LEVEL ? null : a.org_id,
      })),
    },
  };
}

/** A role as audit entries name it: id and name (null for none). */
export function roleSummary(roles: Roles, roleId: string | null): { role_id: string; role_name: string } | null {
  return roleId === null ? null : { role_id: roleId, role_name: roles.byId.get(roleId)?.role_name ?? roleId };
}

/** A 409 for an assignment that is already there. */
export function conflict(detail: string): HttpProblem {
  return new HttpProblem(409, detail);
}
