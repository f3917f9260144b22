/**
 * Members and roles over HTTP: the seed, roles with their permissions, the users lists and filters, bulk
 * invitations (all or nothing), enterprise and organization role changes, removals, the organization member
 * reads, IdP-derived users, the audit trail; every operation's alternate paths; and a store from before members
 * existed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationList, type OperationId } from '../../../api/operations';
import { permissionsAt, type Role, type User } from '../../../api/operations/members';
import { PERMISSIONS, READ_PERMISSIONS } from '../../../api/permissions';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';
import { createSandbox } from '../../index';
import { ROLE_IDS } from './seed-data';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgIds: string[];
let roles: Role[];

const USERS = '/v3/enterprise/members/users';
const orgUsers = (orgId: string) => `/v3beta1/organizations/${orgId}/members/users`;
const assignment = (orgId: string, userId: string) => `/v3/enterprise/organizations/${orgId}/members/users/${userId}`;

async function readAll<T>(path: string, token: string = ADMIN): Promise<T[]> {
  const out: T[] = [];
  let after: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const res: { status: number; body: any } = await sb.api.get(
      `${path}${sep}first=200${after ? `&after=${after}` : ''}`,
      token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

const count = (sql: string, ...args: unknown[]) => (sb.db.prepare(sql).get(...args) as { n: number }).n;

interface AuditRow {
  action: string;
  org_id: string | null;
  service_user_id: string | null;
  service_user_name: string | null;
  user_id: string | null;
  user_email: string | null;
  data: string;
}
/** The actor of every change these tests make: the admin credential, a service user; no user acts. */
const ACTOR = {
  service_user_id: 'service-user-sandbox-admin',
  service_user_name: 'Sandbox Admin',
  user_id: null,
  user_email: null,
};
/** Audit entries whose data names the user, oldest first. */
const auditAbout = (userId: string, action?: string) =>
  sb.db
    .prepare(
      `SELECT * FROM audit_logs WHERE json_extract(data, '$.user_id') = ?${action ? ' AND action = ?' : ''} ORDER BY rowid`,
    )
    .all(userId, ...(action ? [action] : [])) as AuditRow[];

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
  orgIds = (await sb.api.get('/v3/enterprise/organizations')).body.items.map((o: { org_id: string }) => o.org_id);
  roles = (await sb.api.get('/v3/enterprise/roles')).body.items;
});
afterAll(() => sb.stop());

describe('roles', () => {
  it('lists the built-in and custom roles of both types, enterprise roles first, each with its permissions', async () => {
    const types = roles.map((r) => r.role_type);
    expect(types.indexOf('org')).toBeGreaterThan(types.lastIndexOf('enterprise'));
    expect(roles.filter((r) => r.is_built_in).map((r) => r.role_name)).toEqual(
      expect.arrayContaining(['Enterprise Admin', 'Enterprise Viewer', 'Org Admin', 'Org Member']),
    );
    expect(roles.filter((r) => r.is_built_in === false).length).toBeGreaterThanOrEqual(4);
    for (const r of roles) {
      expect(r.role_id).toMatch(/^role-/);
      expect(r.permissions!.every((p) => (PERMISSIONS as readonly string[]).includes(p))).toBe(true);
    }
    const admin = roles.find((r) => r.role_id === ROLE_IDS.enterpriseAdmin)!;
    expect(new Set(admin.permissions)).toEqual(new Set(PERMISSIONS));
    const viewer = roles.find((r) => r.role_id === ROLE_IDS.enterpriseViewer)!;
    expect(new Set(viewer.permissions)).toEqual(new Set(READ_PERMISSIONS));
  });

  it('filters by role_type and pages with a stable cursor', async () => {
    const org = (await sb.api.get('/v3/enterprise/roles?role_type=org')).body.items as Role[];
    expect(org.length).toBeGreaterThan(0);
    expect(org.every((r) => r.role_type === 'org')).toBe(true);
    const paged: string[] = [];
    let after: string | null = null;
    do {
      const res: { body: { items: Role[]; end_cursor: string | null; has_next_page: boolean } } = await sb.api.get(
        `/v3/enterprise/roles?first=2${after ? `&after=${after}` : ''}`,
      );
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      paged.push(...res.body.items.map((r) => r.role_id));
      after = res.body.has_next_page ? res.body.end_cursor : null;
    } while (after);
    expect(paged).toEqual(roles.map((r) => r.role_id));
    expect((await sb.api.get('/v3/enterprise/roles?role_type=team')).status).toBe(422);
  });

  it('can be read by the viewer (ViewAccountMembership)', async () => {
    expect((await sb.api.get('/v3/enterprise/roles', VIEWER)).status).toBe(200);
  });
});

describe('seed and lists', () => {
  it('holds several hundred users across the organizations, with roles at both levels and through IdP groups', async () => {
    const users = await readAll<User>(USERS);
    expect(users.length).toBeGreaterThanOrEqual(300);
    const emails = users.map((u) => u.email!);
    expect(emails).toEqual([...emails].sort());
    expect(new Set(emails).size).toBe(emails.length);
    const withEnterprise = users.filter((u) => u.role_assignments.some((a) => a.org_id == null));
    expect(withEnterprise.length).toBeGreaterThan(users.length / 2);
    for (const orgId of orgIds) {
      expect(users.filter((u) => u.role_assignments.some((a) => a.org_id === orgId)).length).toBeGreaterThan(10);
    }
    // Some people have access only through IdP groups; some invited ones have not given a name yet.
    const idpOnly = users.filter((u) => u.role_assignments.length === 0 && u.idp_role_assignments!.length > 0);
    expect(idpOnly.length).toBeGreaterThan(20);
    expect(users.some((u) => u.name === null)).toBe(true);
    // Every assignment names a known role of the right type for its level.
    const byId = new Map(roles.map((r) => [r.role_id, r]));
    for (const u of users) {
      for (const a of [...u.role_assignments, ...u.idp_role_assignments!]) {
        expect(byId.get(a.role.role_id)?.role_type).toBe(a.org_id == null ? 'enterprise' : 'org');
      }
    }
  });

  it('filters by exact email, case-insensitively', async () => {
    const one = (await sb.api.get(`${USERS}?first=1`)).body.items[0] as User;
    const res = await sb.api.get(`${USERS}?email=${encodeURIComponent(one.email!.toUpperCase())}`);
    expect(res.body.items.map((u: User) => u.user_id)).toEqual([one.user_id]);
    expect((await sb.api.get(`${USERS}?email=${encodeURIComponent(one.email!.slice(0, 5))}`)).body.items).toEqual([]);
  });

  it('gets one user with direct and IdP-derived assignments; 404 for an unknown one', async () => {
    const idpUser = (await sb.api.get('/v3/enterprise/members/idp-users?first=1')).body.items[0];
    const res = await sb.api.get(`${USERS}/${idpUser.user_id}`);
    expect(res.status).toBe(200);
    expect(res.body.idp_role_assignments).toEqual(idpUser.idp_role_assignments);
    expect(res.body.idp_role_assignments[0]).toMatchObject({ idp_group_name: expect.any(String) });
    expect((await sb.api.get(`${USERS}/user-nope`)).status).toBe(404);
  });

  it('the enterprise IdP users are those who inherit a role through a group', async () => {
    const idp = await readAll<{ user_id: string; idp_role_assignments: unknown[] }>('/v3/enterprise/members/idp-users');
    expect(idp.length).toBeGreaterThan(20);
    expect(idp.every((u) => u.idp_role_assignments.length > 0)).toBe(true);
  });

  it('an organization lists its members, with the assignments that hold there, and its IdP-derived users', async () => {
    const orgId = orgIds[0]!;
    const members = await readAll<User>(orgUsers(orgId));
    expect(members.length).toBeGreaterThan(10);
    for (const u of members) {
      expect(u.role_assignments.some((a) => a.org_id === orgId)).toBe(true);
      expect(u.role_assignments.every((a) => a.org_id == null || a.org_id === orgId)).toBe(true);
    }
    const idp = await readAll<{ user_id: string; idp_role_assignments: Array<{ org_id?: string | null }> }>(
      `/v3beta1/organizations/${orgId}/members/idp-users`,
    );
    expect(idp.length).toBeGreaterThan(0);
    expect(idp.every((u) => u.idp_role_assignments.some((a) => a.org_id === orgId))).toBe(true);
    // One member, and 404 for someone who is not one.
    expect((await sb.api.get(`${orgUsers(orgId)}/${members[0]!.user_id}`)).status).toBe(200);
    expect((await sb.api.get(`${orgUsers(orgId)}/${idp[0]!.user_id}`)).status).toBe(200);
    const all = await readAll<User>(USERS);
    const outsider = all.find(
      (u) =>
        !u.role_assignments.some((a) => a.org_id === orgId) && !u.idp_role_assignments!.some((a) => a.org_id === orgId),
    )!;
    expect((await sb.api.get(`${orgUsers(orgId)}/${outsider.user_id}`)).status).toBe(404);
  });

  it('the organization reads need ViewOrgMembership at that organization', async () => {
    // The viewer holds it enterprise-wide.
    expect((await sb.api.get(orgUsers(orgIds[0]!), VIEWER)).status).toBe(200);
  });

  it('"who can do what" follows from the lists: permissionsAt over assignments and roles', async () => {
    const users = await readAll<User>(USERS);
    const perms = (id: string) => roles.find((r) => r.role_id === id)?.permissions;
    const admin = users.find((u) => u.role_assignments.some((a) => a.role.role_id === ROLE_IDS.enterpriseAdmin))!;
    expect(permissionsAt(admin.role_assignments, perms, orgIds[3]!).has('ManageOrgSecrets')).toBe(true);
    const orgOnly = users.find(
      (u) =>
        u.role_assignments.some((a) => a.role.role_id === ROLE_IDS.orgAdmin) &&
        u.role_assignments.some((a) => a.role.role_id === ROLE_IDS.enterpriseMember),
    )!;
    const at = orgOnly.role_assignments.find((a) => a.role.role_id === ROLE_IDS.orgAdmin)!.org_id!;
    const elsewhere = orgIds.find((o) => !orgOnly.role_assignments.some((a) => a.org_id === o))!;
    expect(permissionsAt(orgOnly.role_assignments, perms, at).has('ManageOrgSecrets')).toBe(true);
    expect(permissionsAt(orgOnly.role_assignments, perms, elsewhere).has('ManageOrgSecrets')).toBe(false);
    expect(permissionsAt(orgOnly.role_assignments, perms, null).has('ManageOrgSecrets')).toBe(false);
  });
});

describe('bulk invitations', () => {
  const emails = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}.${i}@example.org`);

  it('invites up to 100 addresses with an enterprise role, lower-cased, repeated ones once, audited', async () => {
    const list = [...emails(99, 'new-hire'), 'New-Hire.0@Example.org'];
    const res = await sb.api.call('POST', USERS, {
      body: { emails: list, enterprise_role_id: ROLE_IDS.enterpriseMember },
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(99);
    expect(res.body[0]).toMatchObject({
      email: 'new-hire.0@example.org',
      name: null,
      user_id: expect.stringMatching(/^user-/),
      role_assignments: [{ role: expect.objectContaining({ role_id: ROLE_IDS.enterpriseMember }), org_id: null }],
    });
    const found = await sb.api.get(`${USERS}?email=new-hire.42@example.org`);
    expect(found.body.items).toHaveLength(1);
    const entry = sb.db
      .prepare(`SELECT * FROM audit_logs WHERE action = 'invite_users' ORDER BY created_at DESC, rowid DESC LIMIT 1`)
      .get() as { service_user_id: string; data: string };
    expect(entry.service_user_id).toBe('service-user-sandbox-admin');
    expect(JSON.parse(entry.data)).toMatchObject({ count: 99 });
  });

  it.each([
    [
      '101 invitations',
      { emails: emails(101, 'too-many'), enterprise_role_id: ROLE_IDS.enterpriseMember },
      /At most 100 invitations per call; this request has 101/,
    ],
    ['no invitations', { emails: [], enterprise_role_id: ROLE_IDS.enterpriseMember }, /at least 1/],
    [
      'an unknown role',
      { emails: ['x1@example.org'], enterprise_role_id: 'role-nope' },
      /not a role of this enterprise/,
    ],
    [
      'an organization role',
      { emails: ['x2@example.org'], enterprise_role_id: ROLE_IDS.orgMember },
      /organization role; this operation takes an enterprise role/,
    ],
  ])('refuses %s with a 422, inviting nobody', async (_what, body, msg) => {
    const before = count('SELECT count(*) AS n FROM users');
    const res = await sb.api.call('POST', USERS, { body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { msg: string }) => e.msg).join('\n')).toMatch(msg);
    expect(count('SELECT count(*) AS n FROM users')).toBe(before);
  });

  it('one malformed address changes nothing, and is named by its position', async () => {
    const before = count('SELECT count(*) AS n FROM users');
    const list = [...emails(5, 'ok'), 'not-an-address', ...emails(3, 'ok2')];
    const res = await sb.api.call('POST', USERS, {
      body: { emails: list, enterprise_role_id: ROLE_IDS.enterpriseMember },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ loc: ['body', 'emails', 5], msg: expect.stringMatching(/not a valid email address/) }),
    ]);
    expect(count('SELECT count(*) AS n FROM users')).toBe(before);
    expect((await sb.api.get(`${USERS}?email=ok.0@example.org`)).body.items).toEqual([]);
  });

  it('an address that is already a member changes nothing, and is named', async () => {
    const existing = (await sb.api.get(`${USERS}?first=1`)).body.items[0] as User;
    const before = count('SELECT count(*) AS n FROM users');
    const res = await sb.api.call('POST', USERS, {
      body: { emails: ['fresh@example.org', existing.email], enterprise_role_id: ROLE_IDS.enterpriseMember },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ loc: ['body', 'emails', 1], msg: expect.stringContaining('already a member') }),
    ]);
    expect(count('SELECT count(*) AS n FROM users')).toBe(before);
  });

  it('the viewer may not invite', async () => {
    const res = await sb.api.call('POST', USERS, {
      token: VIEWER,
      body: { emails: ['v@example.org'], enterprise_role_id: ROLE_IDS.enterpriseMember },
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageAccountMembership permission (enterprise level)');
  });
});

describe('role changes and removals', () => {
  async function newUser(tag: string): Promise<User> {
    const res = await sb.api.call('POST', USERS, {
      body: { emails: [`${tag}@example.org`], enterprise_role_id: ROLE_IDS.enterpriseMember },
    });
    return res.body[0];
  }

  it("changes a user's enterprise role; refuses an organization role or an unknown one", async () => {
    const u = await newUser('promote');
    const res = await sb.api.call('PATCH', `${USERS}/${u.user_id}`, { body: { role_id: ROLE_IDS.enterpriseViewer } });
    expect(res.status).toBe(200);
    expect(res.body.role_assignments).toEqual([
      { role: expect.objectContaining({ role_id: ROLE_IDS.enterpriseViewer }), org_id: null },
    ]);
    for (const role_id of [ROLE_IDS.orgAdmin, 'role-nope']) {
      const bad = await sb.api.call('PATCH', `${USERS}/${u.user_id}`, { body: { role_id } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].loc).toEqual(['body', 'role_id']);
    }
    expect(
      (await sb.api.call('PATCH', `${USERS}/user-nope`, { body: { role_id: ROLE_IDS.enterpriseViewer } })).status,
    ).toBe(404);
    const [entry] = auditAbout(u.user_id, 'update_user_role');
    expect(entry).toMatchObject(ACTOR);
    expect(JSON.parse(entry!.data)).toMatchObject({
      user_id: u.user_id,
      email: u.email,
      role: { role_id: ROLE_IDS.enterpriseViewer },
      previous_role: { role_id: ROLE_IDS.enterpriseMember },
    });
  });

  it('adds a user to an organization, changes and removes that role (409, 404, 422 where they apply)', async () => {
    const u = await newUser('org-hopper');
    const [a, b] = orgIds as [string, string];
    const add = await sb.api.call('POST', assignment(a, u.user_id), { body: { role_id: ROLE_IDS.orgMember } });
    expect(add.status).toBe(200);
    expect(add.body.role_assignments).toContainEqual({
      role: expect.objectContaining({ role_id: ROLE_IDS.orgMember }),
      org_id: a,
    });
    expect((await sb.api.get(`${orgUsers(a)}/${u.user_id}`)).status).toBe(200);
    expect((await sb.api.get(`${orgUsers(b)}/${u.user_id}`)).status).toBe(404);

    const again = await sb.api.call('POST', assignment(a, u.user_id), { body: { role_id: ROLE_IDS.orgAdmin } });
    expect(again.status).toBe(409);
    const wrong = await sb.api.call('POST', assignment(b, u.user_id), { body: { role_id: ROLE_IDS.enterpriseAdmin } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].msg).toMatch(/enterprise role; this operation takes an organization role/);
    expect(
      (await sb.api.call('PATCH', assignment(b, u.user_id), { body: { role_id: ROLE_IDS.orgAdmin } })).status,
    ).toBe(404);

    const change = await sb.api.call('PATCH', assignment(a, u.user_id), { body: { role_id: ROLE_IDS.orgAdmin } });
    expect(change.status).toBe(200);
    expect(change.body.role_assignments.find((x: { org_id: string }) => x.org_id === a).role.role_id).toBe(
      ROLE_IDS.orgAdmin,
    );
    const remove = await sb.api.call('DELETE', assignment(a, u.user_id));
    expect(remove.status).toBe(200);
    expect(remove.body.role_assignments.some((x: { org_id: string }) => x.org_id === a)).toBe(false);
    expect((await sb.api.call('DELETE', assignment(a, u.user_id))).status).toBe(404);
    expect((await sb.api.call('DELETE', assignment('org-nope', u.user_id))).status).toBe(404);
    expect((await sb.api.call('DELETE', assignment(a, 'user-nope'))).status).toBe(404);

    // The actor is the caller; the user it concerns is in the data.
    const entries = auditAbout(u.user_id);
    expect(entries.map((e) => `${e.action}@${e.org_id}`)).toEqual([
      `assign_org_user_role@${a}`,
      `update_org_user_role@${a}`,
      `remove_org_user@${a}`,
    ]);
    for (const e of entries) {
      expect(e).toMatchObject(ACTOR);
      expect(JSON.parse(e.data)).toMatchObject({ user_id: u.user_id, email: u.email, org_id: a });
    }
  });

  it('removes a user from the enterprise with every assignment and group membership', async () => {
    const u = (await readAll<User>(USERS)).find((x) => x.role_assignments.length > 1 && x.idp_group_names!.length > 0)!;
    const res = await sb.api.call('DELETE', `${USERS}/${u.user_id}`);
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(u.user_id);
    expect((await sb.api.get(`${USERS}/${u.user_id}`)).status).toBe(404);
    expect(count(`SELECT count(*) AS n FROM role_assignments WHERE principal_id = ?`, u.user_id)).toBe(0);
    expect(count(`SELECT count(*) AS n FROM idp_group_members WHERE user_id = ?`, u.user_id)).toBe(0);
    expect((await sb.api.call('DELETE', `${USERS}/${u.user_id}`)).status).toBe(404);
    const deleted = auditAbout(u.user_id, 'delete_user');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject(ACTOR);
    expect(JSON.parse(deleted[0]!.data)).toMatchObject({ user_id: u.user_id, email: u.email });
  });
});

describe('alternate paths', () => {
  interface Request {
    params?: Record<string, string>;
    body?: unknown;
    /** Brings the store to the same state before the call at each path (mutations). */
    reset?: () => Promise<unknown>;
    /** Read after the call at each path: the effect must be the same too. */
    read?: string;
    /** What the handler answers (200 unless said). */
    status?: number;
  }

  it('answers every operation at each of its alternates as at its path (status, body and effect)', async () => {
    const a = orgIds[0]!;
    const member = (await sb.api.get(`${orgUsers(a)}?first=1`)).body.items[0].user_id as string;
    const params: Record<string, string> = {
      org_id: a,
      user_id: member,
      service_user_id: 'service-user-ci-bot',
      idp_group_name: 'all-engineering',
    };
    const ACU = '/v3/enterprise/consumption/acu-limits/agent';
    const acuList = `${ACU}?first=200`;
    const put = (path: string, cycle_acu_limit: number) => () =>
      sb.api.call('PUT', path, { body: { cycle_acu_limit } });
    const del = (path: string) => () => sb.api.call('DELETE', path);
    // Mutations: a request whose answer does not depend on what ran before (the handler refuses it, or it is
    // idempotent), or a reset before each call.
    const requests: Partial<Record<OperationId, Request>> = {
      'serviceUsers.delete': { params: { service_user_id: 'service-user-sandbox-viewer' }, status: 409 },
      'serviceUsers.organization.delete': { params: { service_user_id: 'service-user-nope' }, status: 404 },
      'idpGroups.create': { body: { idp_group_names: ['all-engineering'] } },
      'idpGroups.delete': { params: { idp_group_name: 'no-such-group' }, status: 404 },
      'acuLimits.enterprise.update': {
        body: { cycle_acu_limit: 123_456 },
        reset: del(ACU),
        read: acuList,
        status: 204,
      },
      'acuLimits.enterprise.delete': { reset: put(ACU, 1_000), read: acuList, status: 204 },
      'acuLimits.organization.update': {
        body: { cycle_acu_limit: 654_321 },
        reset: del(`${ACU}/organizations/${a}`),
        read: acuList,
        status: 204,
      },
      'acuLimits.organization.delete': {
        reset: put(`${ACU}/organizations/${a}`, 500_000),
        read: acuList,
        status: 204,
      },
    };
    const withAlternates = operationList.filter((op) => op.alternates?.length);
    expect(withAlternates.length).toBeGreaterThanOrEqual(16);
    for (const op of withAlternates) {
      const req = requests[op.id as OperationId] ?? {};
      if (op.method !== 'GET') expect(req, `${op.id}: a mutation needs its request in this table`).not.toEqual({});
      const answers: unknown[] = [];
      for (const path of [op.path, ...op.alternates!]) {
        await req.reset?.();
        const url = path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent({ ...params, ...req.params }[k]!));
        const res = await sb.api.call(op.method, url, req.body === undefined ? {} : { body: req.body });
        const { instance: _instance, ...body } = (res.body ?? {}) as Record<string, unknown>;
        const effect = req.read ? (await sb.api.get(req.read)).body : null;
        answers.push({ status: res.status, body, effect });
      }
      const [primary, ...rest] = answers;
      expect((primary as { status: number }).status, op.id).toBe(req.status ?? 200);
      for (const [i, answer] of rest.entries()) expect(answer, `${op.id} at ${op.alternates![i]}`).toEqual(primary);
    }
  });
});

describe('a store seeded before members existed', () => {
  it('gets the members seed at the next start, and the built-in roles follow the code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'members-legacy-'));
    const dbPath = join(dir, 'sandbox.db');
    try {
      const first = createSandbox({ dbPath });
      // As if seeded by an earlier version: no principals; and a built-in role that has drifted.
      first.db.exec('DELETE FROM role_assignments; DELETE FROM idp_group_members; DELETE FROM idp_groups;');
      first.db.exec('DELETE FROM service_users; DELETE FROM users; DELETE FROM roles;');
      first.close();
      const second = createSandbox({ dbPath });
      const n = (sql: string) => (second.db.prepare(sql).get() as { n: number }).n;
      expect(n('SELECT count(*) AS n FROM users')).toBeGreaterThan(300);
      expect(n(`SELECT count(*) AS n FROM service_users WHERE service_user_id = 'service-user-sandbox-admin'`)).toBe(1);
      second.db.prepare(`UPDATE roles SET permissions = '[]' WHERE role_id = ?`).run(ROLE_IDS.enterpriseAdmin);
      second.close();
      const third = createSandbox({ dbPath });
      const admin = third.db
        .prepare('SELECT permissions FROM roles WHERE role_id = ?')
        .get(ROLE_IDS.enterpriseAdmin) as {
        permissions: string;
      };
      expect(new Set(JSON.parse(admin.permissions))).toEqual(new Set(PERMISSIONS));
      third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
