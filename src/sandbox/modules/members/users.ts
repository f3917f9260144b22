/**
 * Roles and users: the roles list, the enterprise's users (list, get, bulk invitation, enterprise role, removal),
 * organization role assignments, IdP-derived users, and the organization member reads. Every mutation is
 * audited with the acting principal (the caller, a service user) as the entry's actor; the user it concerns is
 * named in the entry's data, never as its actor.
 */
import type { FieldError } from '../../../api/problem';
import type { Role } from '../../../api/operations/members';
import type { Db } from '../../../node/db';
import { notFound, unprocessable } from '../../../node/problem-writer';
import type { HandlerMap, Principal, SandboxContext } from '../../context';
import { paginate } from '../../cursor';
import { ID_PREFIX } from '../../../api/conventions';
import {
  assignmentAt,
  conflict,
  getUserRow,
  roleSummary,
  Roles,
  setAssignment,
  toIdpUsers,
  toUsers,
  type RoleRow,
  type UserRow,
} from './store';

type Where = Array<[string, ...(string | number)[]]>;

interface UserListInput {
  scope: string;
  where: Where;
  first: number;
  after?: string | null;
  email?: string | null;
}

function pageOfUserRows(db: Db, q: UserListInput) {
  const where = [...q.where];
  const email = q.email?.trim();
  if (email) where.push(['email = ?', email.toLowerCase()]);
  return paginate<UserRow, UserRow>(db, {
    scope: q.scope,
    select: 'SELECT * FROM users',
    where,
    order: [
      { col: 'email', dir: 'asc' },
      { col: 'user_id', dir: 'asc' },
    ],
    first: q.first,
    after: q.after,
    map: (r) => r,
  });
}

/** Users who inherit a role assignment through an IdP group (at `orgId` when given: one that holds there). */
const INHERITS = (orgId?: string): [string, ...string[]] =>
  orgId === undefined
    ? [
        `user_id IN (SELECT m.user_id FROM idp_group_members m
          JOIN role_assignments a ON a.principal_type = 'idp_group' AND a.principal_id = m.idp_group_name)`,
      ]
    : [
        `user_id IN (SELECT m.user_id FROM idp_group_members m
          JOIN role_assignments a ON a.principal_type = 'idp_group' AND a.principal_id = m.idp_group_name
          WHERE a.org_id = ?)`,
        orgId,
      ];

/** Users with a direct role in the organization. */
const DIRECT_IN = (orgId: string): [string, string] => [
  `user_id IN (SELECT principal_id FROM role_assignments WHERE principal_type = 'user' AND org_id = ?)`,
  orgId,
];

function isMemberOf(db: Db, userId: string, orgId: string): boolean {
  const [direct, ...directArgs] = DIRECT_IN(orgId);
  const [inherited, ...inheritedArgs] = INHERITS(orgId);
  return !!db
    .prepare(`SELECT 1 FROM users WHERE user_id = ? AND (${direct} OR ${inherited})`)
    .get(userId, ...directArgs, ...inheritedArgs);
}

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

function oneUser(db: Db, row: UserRow) {
  return toUsers(db, new Roles(db), [row])[0]!;
}

/** The checks of an invitation beyond the contract: the role, and addresses that are already members. */
function invitationProblems(db: Db, roles: Roles, emails: readonly string[], roleId: string): FieldError[] {
  const errors: FieldError[] = [];
  const role = roles.problem(roleId, 'enterprise', ['body', 'enterprise_role_id']);
  if (role) errors.push(role);
  const exists = db.prepare('SELECT user_id FROM users WHERE email = ?');
  emails.forEach((email, i) => {
    const found = exists.get(email) as { user_id: string } | undefined;
    if (found) {
      errors.push({
        loc: ['body', 'emails', i],
        msg: `${email} is already a member of the enterprise (${found.user_id})`,
        type: 'already_member',
      });
    }
  });
  return errors;
}

function invite(ctx: SandboxContext, emails: readonly string[], roleId: string, principal: Principal) {
  const { db } = ctx;
  const roles = new Roles(db);
  const errors = invitationProblems(db, roles, emails, roleId);
  if (errors.length) throw unprocessable(errors);
  const unique = [...new Set(emails)];
  const now = ctx.now();
  const rows: UserRow[] = [];
  db.transaction(() => {
    const insert = db.prepare('INSERT INTO users (user_id, email, name, created_at) VALUES (?, ?, NULL, ?)');
    for (const email of unique) {
      const row: UserRow = { user_id: ctx.newId(ID_PREFIX.user), email, name: null, created_at: now };
      insert.run(row.user_id, row.email, row.created_at);
      setAssignment(db, 'user', row.user_id, null, roleId);
      rows.push(row);
    }
    ctx.audit({
      action: 'invite_users',
      principal: actor(principal),
      data: {
        emails: unique,
        count: unique.length,
        user_ids: rows.map((r) => r.user_id),
        role: roleSummary(roles, roleId),
      },
    });
  })();
  return toUsers(db, roles, rows);
}

function setOrgRole(
  ctx: SandboxContext,
  mode: 'create' | 'update' | 'remove',
  orgId: string,
  userId: string,
  roleId: string | null,
  principal: Principal,
) {
  const { db } = ctx;
  const row = getUserRow(db, userId);
  const roles = new Roles(db);
  if (roleId !== null) roles.require(roleId, 'org', ['body', 'role_id']);
  const current = assignmentAt(db, 'user', userId, orgId);
  if (mode === 'create' && current !== null) {
    throw conflict(
      `User ${userId} already has the role ${roles.byId.get(current)?.role_name ?? current} in organization ${orgId}; change it with PATCH`,
    );
  }
  if (mode !== 'create' && current === null) {
    throw notFound(`A role of user ${userId} in organization`, orgId);
  }
  db.transaction(() => {
    setAssignment(db, 'user', userId, orgId, roleId);
    ctx.audit({
      action:
        mode === 'create' ? 'assign_org_user_role' : mode === 'update' ? 'update_org_user_role' : 'remove_org_user',
      org_id: orgId,
      principal: actor(principal),
      data: {
        user_id: userId,
        email: row.email,
        org_id: orgId,
        role: roleSummary(roles, roleId),
        previous_role: roleSummary(roles, current),
      },
    });
  })();
  return oneUser(db, row);
}

export const userHandlers: HandlerMap = {
  'roles.list': ({ query }, { db }) => {
    const roles = new Roles(db);
    const where: Where = query.role_type ? [['role_type = ?', query.role_type]] : [];
    return paginate<RoleRow & Record<string, unknown>, Role>(db, {
      scope: `roles:${query.role_type ?? 'all'}`,
      select: 'SELECT * FROM roles',
      where,
      order: [
        { col: 'position', dir: 'asc' },
        { col: 'role_id', dir: 'asc' },
      ],
      first: query.first,
      after: query.after,
      map: (r) => roles.full(r.role_id),
    });
  },

  'members.users.list': ({ query }, { db }) => {
    const page = pageOfUserRows(db, { scope: 'members:users', where: [], ...query });
    return { ...page, items: toUsers(db, new Roles(db), page.items) };
  },
  'members.users.get': ({ params }, { db }) => oneUser(db, getUserRow(db, params.user_id)),
  'members.users.create': ({ body, principal }, ctx) => invite(ctx, body.emails, body.enterprise_role_id, principal),
  'members.users.update': ({ params, body, principal }, ctx) => {
    const { db } = ctx;
    const row = getUserRow(db, params.user_id);
    const roles = new Roles(db);
    roles.require(body.role_id, 'enterprise', ['body', 'role_id']);
    const previous = assignmentAt(db, 'user', row.user_id, null);
    db.transaction(() => {
      setAssignment(db, 'user', row.user_id, null, body.role_id);
      ctx.audit({
        action: 'update_user_role',
        principal: actor(principal),
        data: {
          user_id: row.user_id,
          email: row.email,
          role: roleSummary(roles, body.role_id),
          previous_role: roleSummary(roles, previous),
        },
      });
    })();
    return oneUser(db, row);
  },
  'members.users.delete': ({ params, principal }, ctx) => {
    const { db } = ctx;
    const row = getUserRow(db, params.user_id);
    const before = oneUser(db, row);
    db.transaction(() => {
      db.prepare(`DELETE FROM role_assignments WHERE principal_type = 'user' AND principal_id = ?`).run(row.user_id);
      db.prepare('DELETE FROM users WHERE user_id = ?').run(row.user_id);
      ctx.audit({
        action: 'delete_user',
        principal: actor(principal),
        data: {
          user_id: row.user_id,
          email: row.email,
          role_assignments: before.role_assignments.map((a) => ({ role_id: a.role.role_id, org_id: a.org_id ?? null })),
          idp_group_names: before.idp_group_names,
        },
      });
    })();
    return before;
  },
  'members.idpUsers.list': ({ query }, { db }) => {
    const page = pageOfUserRows(db, { scope: 'members:idp-users', where: [INHERITS()], ...query });
    return { ...page, items: toIdpUsers(db, new Roles(db), page.items) };
  },

  'members.organization.users.create': ({ params, body, principal }, ctx) =>
    setOrgRole(ctx, 'create', params.org_id, params.user_id, body.role_id, principal),
  'members.organization.users.update': ({ params, body, principal }, ctx) =>
    setOrgRole(ctx, 'update', params.org_id, params.user_id, body.role_id, principal),
  'members.organization.users.remove': ({ params, principal }, ctx) =>
    setOrgRole(ctx, 'remove', params.org_id, params.user_id, null, principal),

  'members.organization.users.list': ({ params, query }, { db }) => {
    const page = pageOfUserRows(db, {
      scope: `members:org-users:${params.org_id}`,
      where: [DIRECT_IN(params.org_id)],
      ...query,
    });
    return { ...page, items: toUsers(db, new Roles(db), page.items, params.org_id) };
  },
  'members.organization.users.get': ({ params }, { db }) => {
    const row = getUserRow(db, params.user_id);
    if (!isMemberOf(db, row.user_id, params.org_id)) {
      throw notFound(`User ${params.user_id} in organization`, params.org_id);
    }
    return toUsers(db, new Roles(db), [row], params.org_id)[0]!;
  },
  'members.organization.idpUsers.list': ({ params, query }, { db }) => {
    const page = pageOfUserRows(db, {
      scope: `members:org-idp-users:${params.org_id}`,
      where: [INHERITS(params.org_id)],
      ...query,
    });
    return { ...page, items: toIdpUsers(db, new Roles(db), page.items, params.org_id) };
  },
};
