/**
 * IdP groups: list, bulk registration (names already registered, in any letter case, are ignored; a name repeated
 * in the request is registered once) and delete, with its role mappings and memberships. Audited.
 */
import type { IdpGroup } from '../../../api/operations/idp-groups';
import { notFound } from '../../../node/problem-writer';
import type { HandlerMap, Principal } from '../../context';
import { paginate } from '../../cursor';
import { Roles, toIdpGroups, type IdpGroupRow } from './store';

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

export const idpGroupHandlers: HandlerMap = {
  'idpGroups.list': ({ query }, { db }) => {
    const page = paginate<IdpGroupRow & { sort_name: string }, IdpGroupRow>(db, {
      scope: 'idp-groups',
      select: 'SELECT * FROM (SELECT g.*, lower(g.idp_group_name) AS sort_name FROM idp_groups g) t',
      order: [
        { col: 'sort_name', dir: 'asc' },
        { col: 'idp_group_name', dir: 'asc' },
      ],
      first: query.first,
      after: query.after,
      map: (r) => r,
    });
    return { ...page, items: toIdpGroups(db, new Roles(db), page.items) };
  },
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
    const row = db.prepare('SELECT * FROM idp_groups WHERE idp_group_name = ?').get(params.idp_group_name) as
      IdpGroupRow | undefined;
    if (!row) throw notFound('IdP group', params.idp_group_name);
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
};
