/**
 * IdP groups over HTTP: the seeded groups mapped to roles, bulk registration (existing names ignored, 100 at
 * most, all or nothing), delete, the `/v3beta1/` paths beside the contract's `/v3/` ones, the role mappings at
 * enterprise and organization level (and what the groups' members inherit from them), and through the proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdpGroup } from '../../../api/operations/idp-groups';
import type { User } from '../../../api/operations/members';
import { ADMIN, VIEWER, startTestConsole, startTestSandbox } from '../../../test/harness';
import { ROLE_IDS } from './seed-data';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgIds: string[];

const PATH = '/v3/enterprise/idp-groups';
const BETA = '/v3beta1/enterprise/idp-groups';

async function all(path = PATH, first = 5): Promise<IdpGroup[]> {
  const out: IdpGroup[] = [];
  let after: string | null = null;
  do {
    const res: { status: number; body: any } = await sb.api.get(
      `${path}?first=${first}${after ? `&after=${after}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

const groupCount = () => (sb.db.prepare('SELECT count(*) AS n FROM idp_groups').get() as { n: number }).n;
const register = (names: unknown, path = PATH, token: string = ADMIN) =>
  sb.api.call('POST', path, { token, body: { idp_group_names: names } });

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
  orgIds = (await sb.api.get('/v3/enterprise/organizations')).body.items.map((o: { org_id: string }) => o.org_id);
});
afterAll(() => sb.stop());

describe('seed and list', () => {
  it('lists the groups by name, most mapped to roles at either level, with their member counts', async () => {
    const groups = await all();
    expect(groups.length).toBeGreaterThanOrEqual(10);
    const names = groups.map((g) => g.idp_group_name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(groups.some((g) => g.role_assignments!.some((a) => a.org_id == null))).toBe(true);
    expect(groups.some((g) => g.role_assignments!.some((a) => typeof a.org_id === 'string'))).toBe(true);
    expect(groups.some((g) => g.role_assignments!.length === 0)).toBe(true);
    expect(groups.find((g) => g.idp_group_name === 'all-engineering')!.member_count).toBeGreaterThan(50);
  });

  it('answers on the /v3beta1/ path too, the same list', async () => {
    expect((await all(BETA)).map((g) => g.idp_group_name)).toEqual((await all()).map((g) => g.idp_group_name));
  });

  it('needs ManageAccountMembership (the viewer gets 403 naming it)', async () => {
    const res = await sb.api.get(PATH, VIEWER);
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageAccountMembership permission (enterprise level)');
  });
});

describe('register', () => {
  it('registers new names, ignores existing ones (any letter case) and repeats, answers the new ones', async () => {
    const res = await register(['okta-data-science', 'ALL-ENGINEERING', 'okta-data-science', ' okta-design ']);
    expect(res.status).toBe(200);
    expect(res.body.map((g: IdpGroup) => g.idp_group_name)).toEqual(['okta-data-science', 'okta-design']);
    expect(res.body[0]).toMatchObject({ role_assignments: [], member_count: 0, created_at: expect.any(Number) });
    // All of them already there now: nothing new, not an error.
    const again = await register(['okta-data-science', 'Okta-Design']);
    expect(again.status).toBe(200);
    expect(again.body).toEqual([]);
    const entry = sb.db
      .prepare(`SELECT * FROM audit_logs WHERE action = 'create_idp_groups' ORDER BY rowid DESC LIMIT 1`)
      .get() as { service_user_id: string; data: string };
    expect(entry.service_user_id).toBe('service-user-sandbox-admin');
    expect(JSON.parse(entry.data)).toMatchObject({ count: 0, ignored: 2 });
  });

  it('registers 100 names in one call on the /v3beta1/ path', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `bulk-group-${i}`);
    const res = await register(names, BETA);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(100);
  });

  it.each([
    [
      '101 names',
      Array.from({ length: 101 }, (_, i) => `over-${i}`),
      /At most 100 IdP groups per registration; this request has 101/,
    ],
    ['no names', [], /at least 1 name/],
    ['an empty name among good ones', ['good-1', '  ', 'good-2'], /must not be empty/],
    ['a name with a slash', ['good-3', 'eng/platform'], /no \/ or \\/],
    ['a 257-character name', ['g'.repeat(257)], /at most 256 characters/],
    ['not a list', 'eng', /list of IdP group names/],
  ])('refuses %s with a 422 and registers nothing', async (_what, names, msg) => {
    const before = groupCount();
    const res = await register(names);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { msg: string }) => e.msg).join('\n')).toMatch(msg);
    expect(groupCount()).toBe(before);
  });

  it('the viewer may not register', async () => {
    expect((await register(['viewer-group'], PATH, VIEWER)).status).toBe(403);
  });
});

describe('delete', () => {
  it('deletes a group with its role mappings and memberships, answering it as it was', async () => {
    const group = (await all()).find((g) => g.idp_group_name === 'finance-ops')!;
    expect(group.role_assignments!.length).toBeGreaterThan(0);
    const member = sb.db
      .prepare(`SELECT user_id FROM idp_group_members WHERE idp_group_name = 'finance-ops' LIMIT 1`)
      .get() as { user_id: string } | undefined;
    const res = await sb.api.call('DELETE', `${PATH}/finance-ops`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ idp_group_name: 'finance-ops', role_assignments: group.role_assignments });
    expect((await all()).map((g) => g.idp_group_name)).not.toContain('finance-ops');
    expect(
      (
        sb.db.prepare(`SELECT count(*) AS n FROM role_assignments WHERE principal_id = 'finance-ops'`).get() as {
          n: number;
        }
      ).n,
    ).toBe(0);
    if (member) {
      const user = await sb.api.get(`/v3/enterprise/members/users/${member.user_id}`);
      expect(user.body.idp_group_names).not.toContain('finance-ops');
    }
    expect((await sb.api.call('DELETE', `${PATH}/finance-ops`)).status).toBe(404);
    expect(
      (sb.db.prepare(`SELECT count(*) AS n FROM audit_logs WHERE action = 'delete_idp_group'`).get() as { n: number })
        .n,
    ).toBeGreaterThanOrEqual(1);
  });

  it('deletes on the /v3beta1/ path, any letter case, names with spaces; 404 for an unknown name', async () => {
    await register(['Design Reviewers']);
    const res = await sb.api.call('DELETE', `${BETA}/${encodeURIComponent('design reviewers')}`);
    expect(res.status).toBe(200);
    expect(res.body.idp_group_name).toBe('Design Reviewers');
    expect((await sb.api.call('DELETE', `${PATH}/no-such-group`)).status).toBe(404);
  });
});

describe('role mappings', () => {
  const ROLES = '/v3/enterprise/members/idp-groups';
  const orgRoles = (orgId: string) => `/v3/enterprise/organizations/${orgId}/members/idp-groups`;
  const role = (role_id: string, org_id: string | null) => ({
    role: expect.objectContaining({ role_id }),
    org_id,
  });
  const call = (method: string, path: string, role_id?: string, token: string = ADMIN) =>
    sb.api.call(method, path, { token, ...(role_id ? { body: { role_id } } : {}) });
  const user = async (userId: string): Promise<User> =>
    (await sb.api.get(`/v3/enterprise/members/users/${userId}`)).body;

  it('lists every registered group with its enterprise role only; an organization lists the groups with a role there', async () => {
    const groups = await all(ROLES, 100);
    expect(groups.map((g) => g.idp_group_name)).toEqual((await all(PATH, 100)).map((g) => g.idp_group_name));
    expect(groups.every((g) => g.role_assignments!.length <= 1)).toBe(true);
    expect(groups.every((g) => g.role_assignments!.every((a) => a.org_id == null))).toBe(true);
    expect(groups.find((g) => g.idp_group_name === 'all-engineering')!.role_assignments).toEqual([
      role(ROLE_IDS.enterpriseMember, null),
    ]);
    // Mapped in organizations only: no enterprise role.
    expect(groups.find((g) => g.idp_group_name === 'contractors')!.role_assignments).toEqual([]);

    const inOrg = await all(orgRoles(orgIds[2]!), 100);
    expect(inOrg.map((g) => g.idp_group_name)).toContain('contractors');
    expect(inOrg.map((g) => g.idp_group_name)).not.toContain('all-engineering');
    for (const g of inOrg) expect(g.role_assignments).toEqual([role(expect.any(String), orgIds[2]!)]);
    expect(inOrg.find((g) => g.idp_group_name === 'contractors')!.role_assignments).toEqual([
      role(ROLE_IDS.orgViewer, orgIds[2]!),
    ]);
    // The viewer may read them.
    expect((await sb.api.get(`${ROLES}/all-engineering`, VIEWER)).status).toBe(200);
  });

  it('assigns, changes and removes an enterprise role; the group’s members inherit it at once; audited', async () => {
    expect((await register(['Okta-Mapping'])).status).toBe(200);
    const member = (sb.db.prepare('SELECT user_id FROM users ORDER BY user_id LIMIT 1').get() as { user_id: string })
      .user_id;
    // Memberships come from the IdP, not from the API.
    sb.db.prepare('INSERT INTO idp_group_members (idp_group_name, user_id) VALUES (?, ?)').run('Okta-Mapping', member);
    const inherited = async () =>
      (await user(member)).idp_role_assignments!.filter((a) => a.idp_group_name === 'Okta-Mapping');

    expect((await sb.api.get(`${ROLES}/okta-mapping`)).body).toMatchObject({
      idp_group_name: 'Okta-Mapping',
      role_assignments: [],
    });
    const assigned = await call('POST', `${ROLES}/okta-mapping`, ROLE_IDS.enterpriseViewer);
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({
      idp_group_name: 'Okta-Mapping',
      role_assignments: [role(ROLE_IDS.enterpriseViewer, null)],
    });
    expect(await inherited()).toEqual([{ ...role(ROLE_IDS.enterpriseViewer, null), idp_group_name: 'Okta-Mapping' }]);
    const idpUsers = await sb.api.get('/v3/enterprise/members/idp-users?first=200');
    expect(JSON.stringify(idpUsers.body)).toContain(member);

    const again = await call('POST', `${ROLES}/Okta-Mapping`, ROLE_IDS.enterpriseMember);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/already has the enterprise role Enterprise Viewer .*PATCH/);

    const changed = await call('PATCH', `${ROLES}/okta-mapping`, ROLE_IDS.enterpriseMember);
    expect(changed.status).toBe(200);
    expect(changed.body.role_assignments).toEqual([role(ROLE_IDS.enterpriseMember, null)]);
    expect((await inherited()).map((a) => a.role.role_id)).toEqual([ROLE_IDS.enterpriseMember]);

    const removed = await call('DELETE', `${ROLES}/okta-mapping`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ idp_group_name: 'Okta-Mapping', role_assignments: [] });
    expect(await inherited()).toEqual([]);
    // Still registered; nothing to change or remove now.
    expect((await sb.api.get(`${ROLES}/okta-mapping`)).status).toBe(200);
    expect((await call('DELETE', `${ROLES}/okta-mapping`)).status).toBe(404);
    const none = await call('PATCH', `${ROLES}/okta-mapping`, ROLE_IDS.enterpriseMember);
    expect(none.status).toBe(404);
    expect(none.body.detail).toBe('IdP group Okta-Mapping has no enterprise role');

    const entries = (
      sb.db
        .prepare(
          `SELECT * FROM audit_logs WHERE json_extract(data, '$.idp_group_name') = 'Okta-Mapping' ORDER BY rowid`,
        )
        .all() as Array<{ action: string; service_user_id: string; user_id: string | null; data: string }>
    ).filter((e) => e.action.endsWith('_role'));
    expect(entries.map((e) => e.action)).toEqual([
      'assign_idp_group_role',
      'update_idp_group_role',
      'remove_idp_group_role',
    ]);
    for (const e of entries) expect(e).toMatchObject({ service_user_id: 'service-user-sandbox-admin', user_id: null });
    expect(JSON.parse(entries[1]!.data)).toMatchObject({
      role: { role_id: ROLE_IDS.enterpriseMember },
      previous_role: { role_id: ROLE_IDS.enterpriseViewer },
    });
  });

  it('assigns, changes and removes a role in one organization; the members become members of it', async () => {
    const [a, b] = [orgIds[3]!, orgIds[4]!];
    await register(['okta-org-mapping']);
    const member = (
      sb.db.prepare('SELECT user_id FROM users ORDER BY user_id DESC LIMIT 1').get() as { user_id: string }
    ).user_id;
    sb.db
      .prepare('INSERT INTO idp_group_members (idp_group_name, user_id) VALUES (?, ?)')
      .run('okta-org-mapping', member);
    const orgMember = (orgId: string) => sb.api.get(`/v3/enterprise/organizations/${orgId}/members/users/${member}`);
    const path = `${orgRoles(a)}/okta-org-mapping`;

    expect((await sb.api.get(path)).status).toBe(404);
    const directInA = !!sb.db
      .prepare(`SELECT 1 FROM role_assignments WHERE principal_type = 'user' AND principal_id = ? AND org_id = ?`)
      .get(member, a);
    if (!directInA) expect((await orgMember(a)).status).toBe(404);

    const assigned = await call('POST', path, ROLE_IDS.orgMember);
    expect(assigned.status).toBe(200);
    expect(assigned.body.role_assignments).toEqual([role(ROLE_IDS.orgMember, a)]);
    expect((await sb.api.get(path)).body.role_assignments).toEqual([role(ROLE_IDS.orgMember, a)]);
    expect((await all(orgRoles(a), 100)).map((g) => g.idp_group_name)).toContain('okta-org-mapping');
    expect((await all(orgRoles(b), 100)).map((g) => g.idp_group_name)).not.toContain('okta-org-mapping');
    // The enterprise-level view of the group has no role: the mapping holds in the organization only.
    expect((await sb.api.get(`${ROLES}/okta-org-mapping`)).body.role_assignments).toEqual([]);
    const inA = await orgMember(a);
    expect(inA.status).toBe(200);
    expect(inA.body.idp_role_assignments).toContainEqual({
      ...role(ROLE_IDS.orgMember, a),
      idp_group_name: 'okta-org-mapping',
    });

    expect((await call('POST', path, ROLE_IDS.orgAdmin)).status).toBe(409);
    const changed = await call('PATCH', path, ROLE_IDS.orgAdmin);
    expect(changed.body.role_assignments).toEqual([role(ROLE_IDS.orgAdmin, a)]);
    expect((await call('PATCH', `${orgRoles(b)}/okta-org-mapping`, ROLE_IDS.orgAdmin)).status).toBe(404);
    expect((await call('DELETE', `${orgRoles(b)}/okta-org-mapping`)).status).toBe(404);

    const removed = await call('DELETE', path);
    expect(removed.status).toBe(200);
    expect(removed.body.role_assignments).toEqual([]);
    expect((await sb.api.get(path)).status).toBe(404);
    if (!directInA) expect((await orgMember(a)).status).toBe(404);
    const actions = (
      sb.db
        .prepare(
          `SELECT action, org_id FROM audit_logs WHERE json_extract(data, '$.idp_group_name') = 'okta-org-mapping' ORDER BY rowid`,
        )
        .all() as Array<{ action: string; org_id: string }>
    ).map((e) => `${e.action}@${e.org_id}`);
    expect(actions.slice(-3)).toEqual([
      `assign_org_idp_group_role@${a}`,
      `update_org_idp_group_role@${a}`,
      `remove_org_idp_group_role@${a}`,
    ]);
  });

  it.each([
    ['POST', 'an unknown role', 'role-nope', /role-nope is not a role of this enterprise/],
    ['POST', 'an organization role', ROLE_IDS.orgAdmin, /organization role; this operation takes an enterprise role/],
    ['PATCH', 'an organization role', ROLE_IDS.orgMember, /organization role; this operation takes an enterprise role/],
  ])('refuses (422) %s with %s at enterprise level', async (method, _what, roleId, msg) => {
    const res = await call(method, `${ROLES}/sso-pilot`, roleId);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ loc: ['body', 'role_id'], msg: expect.stringMatching(msg) }),
    ]);
  });

  it('refuses an enterprise role in an organization (422); 404 for unknown groups and organizations; 403 to the viewer', async () => {
    const res = await call('POST', `${orgRoles(orgIds[0]!)}/sso-pilot`, ROLE_IDS.enterpriseViewer);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].msg).toMatch(/enterprise role; this operation takes an organization role/);
    for (const [method, path, roleId] of [
      ['GET', `${ROLES}/no-such-group`],
      ['POST', `${ROLES}/no-such-group`, ROLE_IDS.enterpriseViewer],
      ['PATCH', `${ROLES}/no-such-group`, ROLE_IDS.enterpriseViewer],
      ['DELETE', `${ROLES}/no-such-group`],
      ['GET', `${orgRoles(orgIds[0]!)}/no-such-group`],
      ['POST', `${orgRoles(orgIds[0]!)}/no-such-group`, ROLE_IDS.orgMember],
      ['GET', orgRoles('org-nope')],
      ['POST', `${orgRoles('org-nope')}/sso-pilot`, ROLE_IDS.orgMember],
    ] as const) {
      const r = await call(method, path, roleId);
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    const refused = await call('POST', `${ROLES}/sso-pilot`, ROLE_IDS.enterpriseViewer, VIEWER);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('ManageAccountMembership permission (enterprise level)');
    expect((await sb.api.get(`${ROLES}/sso-pilot`)).body.role_assignments).toEqual([]);
  });
});

describe('through the console proxy', () => {
  it('forwards the /v3/ and /v3beta1/ paths', async () => {
    const c = await startTestConsole();
    try {
      expect((await c.api.get('/api/v3/enterprise/idp-groups?first=1')).status).toBe(200);
      expect((await c.api.get('/api/v3beta1/enterprise/idp-groups?first=1')).status).toBe(200);
      const created = await c.api.call('POST', '/api/v3beta1/enterprise/idp-groups', {
        body: { idp_group_names: ['via-proxy'] },
      });
      expect(created.status).toBe(200);
      expect((await c.api.call('DELETE', '/api/v3/enterprise/idp-groups/via-proxy')).status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
