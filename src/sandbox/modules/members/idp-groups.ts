/**
 * IdP groups: list, bulk registration (names already registered, in any letter case, are ignored; a name repeated
 * in the request is registered once) and delete, with its role mappings and memberships; and the role mappings
 * themselves, at most one role per group and level (enterprise-wide, or per organization), read, assigned,
 * changed and removed. The mappings are rows of `role_assignments`, so the groups' members' inherited roles
 * (`idp_role_assignments`) follow every change at once. Audited.
 */
import type { IdpGroup } from '../../../api/operations/idp-groups';
import type { Db } from '../../../node/db';
import { HttpProblem } from '../../../node/problem-writer';
import type { HandlerMap, Principal, SandboxContext } from '../../context';
import { paginate } from '../../cursor';
import {
  assignmentAt,
  atLevel,
  conflict,
  getIdpGroupRow,
  roleSummary,
  Roles,
  setAssignment,
  toIdpGroups,
  type IdpGroupRow,
} from './store';

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

type Where = Array<[string, ...string[]]>;

/** Registered groups by name (any letter case sorts together), as the contract shows them. */
function pageOfGroups(db: Db, scope: string, where: Where, q: { first: number; after?: string | null }) {
  const page = paginate<IdpGroupRow & { sort_name: string }, IdpGroupRow>(db, {
    scope,
    select: 'SELECT * FROM (SELECT g.*, lower(g.idp_group_name) AS sort_name FROM idp_groups g) t',
    where,
    order: [
      { col: 'sort_name', dir: 'asc' },
      { col: 'idp_group_name', dir: 'asc' },
    ],
    first: q.first,
    after: q.after,
    map: (r) => r,
  });
  return { ...page, items: toIdpGroups(db, new Roles(db), page.items) };
}

const noRole = (group: string, orgId: string | null) =>
  new HttpProblem(
    404,
    `IdP group ${group} has no ${orgId === null ? 'enterprise role' : `role in organization ${orgId}`}`,
  );

/** Groups with a role in the organization (names as stored in the assignments: the group's own spelling). */
const MAPPED_IN = (orgId: string): [string, string] => [
  `idp_group_name IN (SELECT principal_id FROM role_assignments WHERE principal_type = 'idp_group' AND org_id = ?)`,
  orgId,
];

/**
 * Assigns (409 when the group already has a role at that level), changes or removes (404 when it has none) a
 * group's role at one level; answers the group with its role at that level.
 */
function setGroupRole(
  ctx: SandboxContext,
  mode: 'assign' | 'update' | 'remove',
  name: string,
  orgId: string | null,
  roleId: string | null,
  principal: Principal,
): IdpGroup {
  const { db } = ctx;
  const row = getIdpGroupRow(db, name);
  const group = row.idp_group_name;
  const roles = new Roles(db);
  if (roleId !== null) roles.require(roleId, orgId === null ? 'enterprise' : 'org', ['body', 'role_id']);
  const current = assignmentAt(db, 'idp_group', group, orgId);
  if (mode === 'assign' && current !== null) {
    const held = roleSummary(roles, current)!;
    throw conflict(
      `IdP group ${group} already has ${orgId === null ? 'the enterprise role' : `the role in organization ${orgId}`} ${held.role_name} (${held.role_id}); change it with PATCH`,
    );
  }
  if (mode !== 'assign' && current === null) {
    throw noRole(group, orgId);
  }
  const prefix = orgId === null ? '' : 'org_';
  db.transaction(() => {
    setAssignment(db, 'idp_group', group, orgId, roleId);
    ctx.audit({
      action: `${mode}_${prefix}idp_group_role`,
      org_id: orgId,
      principal: actor(principal),
      data: {
        idp_group_name: group,
        org_id: orgId,
        role: roleSummary(roles, roleId),
        previous_role: roleSummary(roles, current),
      },
    });
  })();
  return atLevel(toIdpGroups(db, roles, [row])[0]!, orgId);
}

export const idpGroupHandlers: HandlerMap = {
  'idpGroups.list': ({ query }, { db }) => pageOfGroups(db, 'idp-groups', [], query),
  'idpGroups.create': ({ body, principal }, ctx) => {
    const { db } = ctx;
    const now = ctx.now();
    const created: IdpGroupRow[] = [];
    const seen = new Set<string>();
    db.transaction(() => {
      const insert = db.prepare('INSERT OR IGNORE INTO idp_groups (idp_group_name, created_at) VALUES (?, ?)');
      for (const name of body.idp_group_names) {
        const key = name.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        if (insert.run(name, now).changes > 0) created.push({ idp_group_name: name, created_at: now });
      }
      ctx.audit({
        action: 'create_idp_groups',
        principal: actor(principal),
        data: {
          idp_group_names: created.map((g) => g.idp_group_name),
          count: created.length,
          ignored: body.idp_group_names.length - created.length,
        },
      });
    })();
    return toIdpGroups(db, new Roles(db), created);
  },
  'idpGroups.delete': ({ params, principal }, ctx): IdpGroup => {
    const { db } = ctx;
    const row = getIdpGroupRow(db, params.idp_group_name);
    const before = toIdpGroups(db, new Roles(db), [row])[0]!;
    db.transaction(() => {
      db.prepare(`DELETE FROM role_assignments WHERE principal_type = 'idp_group' AND principal_id = ?`).run(
        row.idp_group_name,
      );
      // Memberships go with the group (ON DELETE CASCADE).
      db.prepare('DELETE FROM idp_groups WHERE idp_group_name = ?').run(row.idp_group_name);
      ctx.audit({
        action: 'delete_idp_group',
        principal: actor(principal),
        data: {
          idp_group_name: row.idp_group_name,
          member_count: before.member_count,
          role_assignments: (before.role_assignments ?? []).map((a) => ({
            role_id: a.role.role_id,
            org_id: a.org_id ?? null,
          })),
        },
      });
    })();
    return before;
  },

  'idpGroups.roles.list': ({ query }, { db }) => {
    const page = pageOfGroups(db, 'idp-group-roles', [], query);
    return { ...page, items: page.items.map((g) => atLevel(g, null)) };
  },
  'idpGroups.roles.get': ({ params }, { db }) =>
    atLevel(toIdpGroups(db, new Roles(db), [getIdpGroupRow(db, params.idp_group_name)])[0]!, null),
  'idpGroups.roles.assign': ({ params, body, principal }, ctx) =>
    setGroupRole(ctx, 'assign', params.idp_group_name, null, body.role_id, principal),
  'idpGroups.roles.update': ({ params, body, principal }, ctx) =>
    setGroupRole(ctx, 'update', params.idp_group_name, null, body.role_id, principal),
  'idpGroups.roles.remove': ({ params, principal }, ctx) =>
    setGroupRole(ctx, 'remove', params.idp_group_name, null, null, principal),

  'idpGroups.organization.roles.list': ({ params, query }, { db }) => {
    const page = pageOfGroups(db, `idp-group-roles:${params.org_id}`, [MAPPED_IN(params.org_id)], query);
    return { ...page, items: page.items.map((g) => atLevel(g, params.org_id)) };
  },
  'idpGroups.organization.roles.get': ({ params }, { db }) => {
    const row = getIdpGroupRow(db, params.idp_group_name);
    const group = atLevel(toIdpGroups(db, new Roles(db), [row])[0]!, params.org_id);
    if (group.role_assignments!.length === 0) throw noRole(row.idp_group_name, params.org_id);
    return group;
  },
  'idpGroups.organization.roles.assign': ({ params, body, principal }, ctx) =>
    setGroupRole(ctx, 'assign', params.idp_group_name, params.org_id, body.role_id, principal),
  'idpGroups.organization.roles.update': ({ params, body, principal }, ctx) =>
    setGroupRole(ctx, 'update', params.idp_group_name, params.org_id, body.role_id, principal),
  'idpGroups.organization.roles.remove': ({ params, principal }, ctx) =>
    setGroupRole(ctx, 'remove', params.idp_group_name, params.org_id, null, principal),
};
