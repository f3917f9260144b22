/**
 * Service users: create (the provisioning rule, then a new credential answered once), list, get, delete and role
 * assignment, on the enterprise route (enterprise roles) and an organization's route (organization roles). An
 * organization's route sees its members: the service users created there and those given a role there. Deleting
 * one there removes it from the organization: a service user created there is deleted (its credential stops
 * working), any other loses its role there and keeps working elsewhere. Role changes pass the provisioning rule
 * too, and take effect on the credential at once (the dispatcher reads the assignments on every request). Every
 * mutation is audited with the acting principal; the credential never is.
 */
import { ID_PREFIX } from '../../../api/conventions';
import { grantCheck, type CreateServiceUserBody } from '../../../api/operations/service-users';
import type { CreatedServiceUser, ServiceUser } from '../../../api/operations/service-users';
import type { Db } from '../../../node/db';
import { HttpProblem } from '../../../node/problem-writer';
import { heldAt, type HandlerMap, type Principal, type SandboxContext } from '../../context';
import { DEMO_SERVICE_USERS } from '../../credentials';
import { paginate } from '../../cursor';
import {
  assignmentAt,
  conflict,
  getServiceUserRow,
  issueCredential,
  MEMBER_OF_ORG,
  newCredential,
  roleSummary,
  Roles,
  setAssignment,
  toServiceUsers,
  type ServiceUserRow,
} from './store';

const DAY = 86_400;

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

function list(
  ctx: SandboxContext,
  q: { first: number; after?: string | null; include_inactive?: boolean },
  orgId: string | null,
) {
  const { db } = ctx;
  const where: Array<[string, ...(string | number)[]]> = [];
  if (orgId !== null) where.push(MEMBER_OF_ORG(orgId));
  if (!q.include_inactive) where.push(['deleted_at IS NULL AND (expires_at IS NULL OR expires_at > ?)', ctx.now()]);
  const page = paginate<ServiceUserRow & { sort_name: string }, ServiceUserRow>(db, {
    scope: `service-users:${orgId ?? 'enterprise'}:${q.include_inactive ? 'all' : 'active'}`,
    select: 'SELECT * FROM (SELECT s.*, lower(s.name) AS sort_name FROM service_users s) t',
    where,
    order: [
      { col: 'sort_name', dir: 'asc' },
      { col: 'service_user_id', dir: 'asc' },
    ],
    first: q.first,
    after: q.after,
    map: (r) => r,
  });
  return { ...page, items: toServiceUsers(db, new Roles(db), page.items) };
}

function one(db: Db, row: ServiceUserRow): ServiceUser {
  return toServiceUsers(db, new Roles(db), [row])[0]!;
}

/**
 * The provisioning rule (spec, Authentication 5) at the route's level: 403 naming every permission of the role
 * the caller does not hold there, and every service-user-management permission it holds.
 */
function checkGrant(
  principal: Principal,
  role: { role_id: string; role_name: string; perms: string[] },
  orgId: string | null,
) {
  const { missing, ungrantable } = grantCheck(heldAt(principal, orgId), role.perms);
  if (missing.length === 0 && ungrantable.length === 0) return;
  const level = orgId === null ? 'enterprise level' : `organization level on ${orgId}`;
  const parts = [
    ...(ungrantable.length
      ? [`${ungrantable.join(', ')}, which can never be granted to a service user through the API`]
      : []),
    ...(missing.length ? [`${missing.join(', ')}, which the credential does not hold (${level})`] : []),
  ];
  throw new HttpProblem(
    403,
    `A service user may grant only permissions it holds itself: the role ${role.role_name} (${role.role_id}) holds ${parts.join('; and ')}`,
    {
      role_id: role.role_id,
      missing_permissions: missing,
      ungrantable_permissions: ungrantable,
      level: orgId === null ? 'enterprise' : 'organization',
      ...(orgId === null ? {} : { org_id: orgId }),
    },
  );
}

function create(
  ctx: SandboxContext,
  body: CreateServiceUserBody,
  orgId: string | null,
  principal: Principal,
): CreatedServiceUser {
  const { db } = ctx;
  const roles = new Roles(db);
  const role = roles.require(body.role_id, orgId === null ? 'enterprise' : 'org', ['body', 'role_id']);
  checkGrant(principal, role, orgId);
  const now = ctx.now();
  const row: ServiceUserRow = {
    service_user_id: ctx.newId(ID_PREFIX.serviceUser),
    name: body.name.trim(),
    org_id: orgId,
    credential_hash: null,
    created_at: now,
    expires_at: body.lifetime_days == null ? null : now + body.lifetime_days * DAY,
    deleted_at: null,
    created_by: principal.service_user_id,
  };
  const credential = newCredential();
  db.transaction(() => {
    db.prepare(
      `INSERT INTO service_users (service_user_id, name, org_id, credential_hash, created_at, expires_at, deleted_at, created_by)
       VALUES (?, ?, ?, NULL, ?, ?, NULL, ?)`,
    ).run(row.service_user_id, row.name, row.org_id, row.created_at, row.expires_at, row.created_by);
    issueCredential(db, row.service_user_id, credential);
    setAssignment(db, 'service_user', row.service_user_id, orgId, role.role_id);
    ctx.audit({
      action: 'create_service_user',
      org_id: orgId,
      principal: actor(principal),
      data: {
        service_user_id: row.service_user_id,
        name: row.name,
        role: { role_id: role.role_id, role_name: role.role_name },
        org_id: orgId,
        expires_at: row.expires_at,
      },
    });
  })();
  return { ...one(db, row), credential };
}

/** A 409 for the demo credentials the console uses: what they may do is documented and must not change. */
function refuseDemo(id: string, what: string): void {
  const demo = DEMO_SERVICE_USERS.find((d) => d.service_user_id === id);
  if (demo) {
    throw new HttpProblem(
      409,
      `${demo.service_user_name} holds the sandbox's documented credential ${demo.credential}, which the console uses; ${what}`,
    );
  }
}

/**
 * Deletes a service user (enterprise route, or an organization's route for one created there), or removes a
 * service user given a role in an organization from it (that organization's route).
 */
function remove(ctx: SandboxContext, id: string, orgId: string | null, principal: Principal): ServiceUser {
  const { db } = ctx;
  const row = getServiceUserRow(db, id, orgId ?? undefined);
  if (row.deleted_at !== null) {
    throw new HttpProblem(404, `Service user ${id} was already deleted`);
  }
  refuseDemo(id, 'it cannot be deleted');
  if (orgId !== null && row.org_id !== orgId) {
    const roles = new Roles(db);
    const previous = assignmentAt(db, 'service_user', id, orgId);
    db.transaction(() => {
      setAssignment(db, 'service_user', id, orgId, null);
      ctx.audit({
        action: 'remove_org_service_user',
        org_id: orgId,
        principal: actor(principal),
        data: { service_user_id: id, name: row.name, org_id: orgId, previous_role: roleSummary(roles, previous) },
      });
    })();
    return one(db, row);
  }
  const now = ctx.now();
  db.transaction(() => {
    db.prepare('UPDATE service_users SET deleted_at = ? WHERE service_user_id = ?').run(now, id);
    ctx.audit({
      action: 'delete_service_user',
      org_id: orgId,
      principal: actor(principal),
      data: { service_user_id: id, name: row.name, org_id: row.org_id },
    });
  })();
  return one(db, { ...row, deleted_at: now });
}

/**
 * Gives a service user a role at one level (409 when it has one there) or changes it (404 when it has none),
 * under the provisioning rule at that level. Any service user of the enterprise that is not deleted: on an
 * organization's route, assigning is how one becomes a member of the organization.
 */
function setRole(
  ctx: SandboxContext,
  mode: 'assign' | 'update',
  id: string,
  orgId: string | null,
  roleId: string,
  principal: Principal,
): ServiceUser {
  const { db } = ctx;
  const row = getServiceUserRow(db, id);
  if (row.deleted_at !== null) {
    throw new HttpProblem(404, `Service user ${id} was deleted; its roles can no longer change`);
  }
  refuseDemo(id, 'its roles cannot change');
  const roles = new Roles(db);
  const role = roles.require(roleId, orgId === null ? 'enterprise' : 'org', ['body', 'role_id']);
  const current = assignmentAt(db, 'service_user', id, orgId);
  if (mode === 'assign' && current !== null) {
    const held = roleSummary(roles, current)!;
    const level = orgId === null ? 'an enterprise role' : `a role in organization ${orgId}`;
    throw conflict(
      `Service user ${id} already has ${level}, ${held.role_name} (${held.role_id}); change it with PATCH`,
    );
  }
  if (mode === 'update' && current === null) {
    const level = orgId === null ? 'no enterprise role' : `no role in organization ${orgId}`;
    throw new HttpProblem(404, `Service user ${id} has ${level}; assign one with POST`);
  }
  checkGrant(principal, role, orgId);
  db.transaction(() => {
    setAssignment(db, 'service_user', id, orgId, role.role_id);
    ctx.audit({
      action: `${mode}_${orgId === null ? '' : 'org_'}service_user_role`,
      org_id: orgId,
      principal: actor(principal),
      data: {
        service_user_id: id,
        name: row.name,
        org_id: orgId,
        role: roleSummary(roles, role.role_id),
        previous_role: roleSummary(roles, current),
      },
    });
  })();
  return one(db, row);
}

export const serviceUserHandlers: HandlerMap = {
  'serviceUsers.list': ({ query }, ctx) => list(ctx, query, null),
  'serviceUsers.get': ({ params }, { db }) => one(db, getServiceUserRow(db, params.service_user_id)),
  'serviceUsers.create': ({ body, principal }, ctx) => create(ctx, body, null, principal),
  'serviceUsers.delete': ({ params, principal }, ctx) => remove(ctx, params.service_user_id, null, principal),
  'serviceUsers.organization.list': ({ params, query }, ctx) => list(ctx, query, params.org_id),
  'serviceUsers.organization.get': ({ params }, { db }) =>
    one(db, getServiceUserRow(db, params.service_user_id, params.org_id)),
  'serviceUsers.organization.create': ({ params, body, principal }, ctx) => create(ctx, body, params.org_id, principal),
  'serviceUsers.organization.delete': ({ params, principal }, ctx) =>
    remove(ctx, params.service_user_id, params.org_id, principal),
  'serviceUsers.roles.assign': ({ params, body, principal }, ctx) =>
    setRole(ctx, 'assign', params.service_user_id, null, body.role_id, principal),
  'serviceUsers.roles.update': ({ params, body, principal }, ctx) =>
    setRole(ctx, 'update', params.service_user_id, null, body.role_id, principal),
  'serviceUsers.organization.roles.assign': ({ params, body, principal }, ctx) =>
    setRole(ctx, 'assign', params.service_user_id, params.org_id, body.role_id, principal),
  'serviceUsers.organization.roles.update': ({ params, body, principal }, ctx) =>
    setRole(ctx, 'update', params.service_user_id, params.org_id, body.role_id, principal),
};
