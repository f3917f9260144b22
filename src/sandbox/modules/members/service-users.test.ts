/**
 * Service users and credentials over HTTP: a credential minted through the API works at once with exactly its
 * role's permissions at its level; the provisioning rule; deleted and expired credentials; limits; the seed;
 * role assignment at both levels (the credential follows at once) and an organization's members.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_USER_MANAGEMENT_PERMISSIONS } from '../../../api/permissions';
import { ADMIN, VIEWER, startTestConsole, startTestSandbox } from '../../../test/harness';
import { hashCredential, issueCredential } from './store';
import { ROLE_IDS, ROLE_SEEDS } from './seed-data';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgIds: string[];
/** The sandbox's clock, moved by tests (ms). */
let clock = Date.UTC(2026, 10, 22, 12);

const ENTERPRISE = '/v3beta1/enterprise/service-users';
const org = (orgId: string) => `/v3beta1/organizations/${orgId}/service-users`;
const permsOf = (roleId: string) => [...ROLE_SEEDS.find((r) => r.role_id === roleId)!.permissions()];

async function create(path: string, body: unknown, token: string = ADMIN) {
  return sb.api.call('POST', path, { token, body });
}

beforeAll(async () => {
  sb = await startTestSandbox({ nowMs: () => clock, tickMs: 60_000 });
  orgIds = (await sb.api.get('/v3/enterprise/organizations')).body.items.map((o: { org_id: string }) => o.org_id);
});
afterAll(() => sb.stop());

describe('seed', () => {
  it('holds a dozen service users besides the demo ones, some expired, one deleted, at both levels', async () => {
    const all = (await sb.api.get(`${ENTERPRISE}?include_inactive=true&first=200`)).body.items as any[];
    const seeded = all.filter((s) => !s.service_user_id.startsWith('service-user-sandbox-'));
    expect(seeded.length).toBeGreaterThanOrEqual(12);
    const now = clock / 1000;
    expect(seeded.filter((s) => s.expires_at !== null && s.expires_at <= now).length).toBeGreaterThanOrEqual(2);
    expect(seeded.some((s) => s.deleted_at !== null)).toBe(true);
    expect(seeded.some((s) => s.org_id)).toBe(true);
    expect(seeded.some((s) => s.role_assignments.some((a: any) => a.org_id === null))).toBe(true);
    // Without include_inactive: only those whose credential works.
    const active = (await sb.api.get(`${ENTERPRISE}?first=200`)).body.items as any[];
    expect(active.every((s) => s.deleted_at === null && (s.expires_at === null || s.expires_at > now))).toBe(true);
    expect(active.length).toBeLessThan(all.length);
    // Sorted by name.
    const names = all.map((s) => s.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('keeps the demo credentials as service users with the same permissions as before', async () => {
    const admin = await sb.api.get('/v3/self', ADMIN);
    expect(admin.body).toMatchObject({ service_user_id: 'service-user-sandbox-admin', org_id: null });
    expect(admin.body.role_assignments).toEqual([
      expect.objectContaining({ org_id: null, role: expect.objectContaining({ role_id: ROLE_IDS.enterpriseAdmin }) }),
    ]);
    expect([...admin.body.permissions].sort()).toEqual(permsOf(ROLE_IDS.enterpriseAdmin).sort());
    const viewer = await sb.api.get('/v3/self', VIEWER);
    expect(viewer.body.permissions.length).toBeGreaterThan(0);
    expect(viewer.body.permissions.every((p: string) => p.startsWith('View'))).toBe(true);
  });

  it('stores credentials hashed (sha256), never as text', () => {
    const rows = sb.db.prepare('SELECT credential_hash FROM service_users').all() as { credential_hash: string }[];
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.credential_hash))).toBe(true);
    expect(rows.map((r) => r.credential_hash)).toContain(hashCredential(ADMIN));
    const dump = JSON.stringify(sb.db.prepare('SELECT * FROM service_users').all());
    expect(dump).not.toContain('cog_');
  });
});

describe('a credential created through the API', () => {
  it('works at once with exactly its role’s permissions (enterprise role, enterprise-wide)', async () => {
    const res = await create(ENTERPRISE, { name: 'Billing exporter', role_id: ROLE_IDS.billingAdmin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      service_user_id: expect.stringMatching(/^service-user-/),
      name: 'Billing exporter',
      expires_at: null,
      deleted_at: null,
      org_id: null,
      credential: expect.stringMatching(/^cog_[0-9a-f]{40}$/),
      role_assignments: [{ role: expect.objectContaining({ role_id: ROLE_IDS.billingAdmin }), org_id: null }],
    });
    const token = res.body.credential as string;
    const self = await sb.api.get('/v3/self', token);
    expect(self.status).toBe(200);
    expect(self.body.service_user_id).toBe(res.body.service_user_id);
    expect([...self.body.permissions].sort()).toEqual(permsOf(ROLE_IDS.billingAdmin).sort());
    // Held: ViewAccountOrganizations (enterprise) and ViewOrgMetrics would hold in every organization.
    expect((await sb.api.get('/v3/enterprise/organizations', token)).status).toBe(200);
    // Not held: 403 naming the permission and its level.
    const logs = await sb.api.get('/v3/enterprise/audit-logs', token);
    expect(logs.status).toBe(403);
    expect(logs.body.detail).toContain('ViewAccountAuditLogs permission (enterprise level)');
    expect(logs.body).toMatchObject({ permission: 'ViewAccountAuditLogs', level: 'enterprise' });
    const sessions = await sb.api.get(`/v3/organizations/${orgIds[0]}/sessions`, token);
    expect(sessions.status).toBe(403);
    expect(sessions.body.detail).toContain(
      `ViewOrgSessions permission (organization level) on organization ${orgIds[0]}`,
    );
    // The answer held the credential once: no read shows it again.
    const again = await sb.api.get(`${ENTERPRISE}/${res.body.service_user_id}`);
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('credential');
    expect(JSON.stringify(again.body)).not.toContain(token);
  });

  it('an organization-level credential works on its organization only (403 on another and on enterprise paths)', async () => {
    const [a, b] = orgIds as [string, string];
    const res = await create(org(a), { name: 'Session runner', role_id: ROLE_IDS.sessionOperator, lifetime_days: 30 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      org_id: a,
      role_assignments: [{ role: expect.objectContaining({ role_id: ROLE_IDS.sessionOperator }), org_id: a }],
    });
    expect(res.body.expires_at).toBe(clock / 1000 + 30 * 86_400);
    const token = res.body.credential as string;
    const self = await sb.api.get('/v3/self', token);
    expect(self.body.org_id).toBe(a);

    expect((await sb.api.get(`/v3/organizations/${a}/sessions?first=1`, token)).status).toBe(200);
    const created = await sb.api.call('POST', `/v3/organizations/${a}/sessions`, {
      token,
      body: { prompt: 'Run the nightly checks' },
    });
    expect(created.status).toBe(200);

    const other = await sb.api.get(`/v3/organizations/${b}/sessions`, token);
    expect(other.status).toBe(403);
    expect(other.body.detail).toContain(`ViewOrgSessions permission (organization level) on organization ${b}`);
    expect(other.body.detail).toContain(`holds it only on organization ${a}`);
    expect(other.body).toMatchObject({ permission: 'ViewOrgSessions', level: 'organization', org_id: b });

    const enterprise = await sb.api.get('/v3/enterprise/organizations', token);
    expect(enterprise.status).toBe(403);
    expect(enterprise.body.detail).toContain('(enterprise level)');
    // A permission its role does not hold, even in its own organization.
    const builds = await sb.api.get(`/v3beta1/organizations/${a}/snapshot-setup/builds`, token);
    expect(builds.status).toBe(403);
    expect(builds.body.detail).toContain('ManageRepoBlueprints');
  });

  it('answers 401 once its service user is deleted', async () => {
    const res = await create(ENTERPRISE, { name: 'Short-lived', role_id: ROLE_IDS.enterpriseViewer });
    const token = res.body.credential as string;
    expect((await sb.api.get('/v3/self', token)).status).toBe(200);
    const del = await sb.api.call('DELETE', `${ENTERPRISE}/${res.body.service_user_id}`);
    expect(del.status).toBe(200);
    expect(del.body.deleted_at).toBe(clock / 1000);
    const after = await sb.api.get('/v3/self', token);
    expect(after.status).toBe(401);
    expect(after.body.detail).toMatch(/deleted/);
    // Still readable, as deleted; a second delete is a 404.
    expect((await sb.api.get(`${ENTERPRISE}/${res.body.service_user_id}`)).body.deleted_at).toBe(clock / 1000);
    expect((await sb.api.call('DELETE', `${ENTERPRISE}/${res.body.service_user_id}`)).status).toBe(404);
    const listed = (await sb.api.get(`${ENTERPRISE}?first=200`)).body.items.map((s: any) => s.service_user_id);
    expect(listed).not.toContain(res.body.service_user_id);
  });

  it('answers 401 when its lifetime ends', async () => {
    const res = await create(ENTERPRISE, { name: 'One day', role_id: ROLE_IDS.enterpriseViewer, lifetime_days: 1 });
    const token = res.body.credential as string;
    expect((await sb.api.get('/v3/self', token)).status).toBe(200);
    const start = clock;
    try {
      clock += 86_400_000 - 1_000;
      expect((await sb.api.get('/v3/self', token)).status).toBe(200);
      clock += 1_000;
      const expired = await sb.api.get('/v3/self', token);
      expect(expired.status).toBe(401);
      expect(expired.body.detail).toMatch(/Expired credential/);
      expect((await sb.api.get('/v3/self', ADMIN)).status).toBe(200);
    } finally {
      clock = start;
    }
  });

  it('an organization route creates, lists, gets and deletes only its own service users', async () => {
    const [a, b] = orgIds as [string, string];
    const res = await create(org(a), { name: 'Indexer', role_id: ROLE_IDS.repositoryMaintainer });
    const id = res.body.service_user_id as string;
    const listA = (await sb.api.get(`${org(a)}?first=200`)).body.items.map((s: any) => s.service_user_id);
    expect(listA).toContain(id);
    expect((await sb.api.get(`${org(b)}?first=200`)).body.items.map((s: any) => s.service_user_id)).not.toContain(id);
    expect((await sb.api.get(`${org(a)}/${id}`)).status).toBe(200);
    expect((await sb.api.get(`${org(b)}/${id}`)).status).toBe(404);
    expect((await sb.api.get(`${org(a)}/service-user-sandbox-admin`)).status).toBe(404);
    // The enterprise list shows it too.
    expect((await sb.api.get(`${ENTERPRISE}/${id}`)).body.org_id).toBe(a);
    expect((await sb.api.call('DELETE', `${org(b)}/${id}`)).status).toBe(404);
    const del = await sb.api.call('DELETE', `${org(a)}/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.deleted_at).toEqual(expect.any(Number));
    expect((await sb.api.get('/v3/self', res.body.credential)).status).toBe(401);
  });
});

describe('the provisioning rule', () => {
  it('refuses a role holding a service-user-management permission, even to the admin, naming it', async () => {
    const res = await create(ENTERPRISE, { name: 'Too powerful', role_id: ROLE_IDS.serviceUserManager });
    expect(res.status).toBe(403);
    expect(res.body.ungrantable_permissions).toEqual(['ManageAccountServiceUsers', 'ManageOrgServiceUsers']);
    expect(res.body.missing_permissions).toEqual([]);
    for (const p of SERVICE_USER_MANAGEMENT_PERMISSIONS) expect(res.body.detail).toContain(p);
    expect(res.body.detail).toMatch(/can never be granted/);
    const orgAdmin = await create(org(orgIds[0]!), { name: 'Org admin bot', role_id: ROLE_IDS.orgAdmin });
    expect(orgAdmin.status).toBe(403);
    expect(orgAdmin.body.ungrantable_permissions).toEqual(['ManageOrgServiceUsers']);
  });

  it('refuses a role wider than the caller, naming every permission the caller lacks', async () => {
    // Terraform Provisioner holds Service User Manager: it may provision, but holds few other permissions.
    const token = issueCredential(sb.db, 'service-user-terraform');
    const wider = await create(ENTERPRISE, { name: 'Auditor bot', role_id: ROLE_IDS.securityAuditor }, token);
    expect(wider.status).toBe(403);
    const held = new Set(permsOf(ROLE_IDS.serviceUserManager));
    const lacking = permsOf(ROLE_IDS.securityAuditor).filter((p) => !held.has(p));
    expect(lacking.length).toBeGreaterThan(1);
    expect(wider.body.missing_permissions).toEqual(lacking);
    expect(wider.body.ungrantable_permissions).toEqual([]);
    for (const p of lacking) expect(wider.body.detail).toContain(p);
    expect(wider.body.detail).toContain('enterprise level');
    // Nothing was created.
    const names = (await sb.api.get(`${ENTERPRISE}?first=200`)).body.items.map((s: any) => s.name);
    expect(names).not.toContain('Auditor bot');

    // A role within its own permissions is granted.
    const narrow = await create(ENTERPRISE, { name: 'Org reader', role_id: ROLE_IDS.enterpriseMember }, token);
    expect(narrow.status).toBe(200);
    // At an organization's route the rule compares with what it holds there (its enterprise-wide permissions).
    const orgRole = await create(org(orgIds[2]!), { name: 'Runner', role_id: ROLE_IDS.orgMember }, token);
    expect(orgRole.status).toBe(403);
    expect(orgRole.body.missing_permissions).toEqual(['ViewOrgMembership']);
    expect(orgRole.body.detail).toContain(`organization level on ${orgIds[2]}`);
  });

  it('an organization-level provisioner grants within its organization, and is refused elsewhere', async () => {
    // Payments Org Automation: Org Admin in the second organization, created there.
    const token = issueCredential(sb.db, 'service-user-payments-automation');
    const [a, b] = [orgIds[1]!, orgIds[0]!];
    const ok = await create(org(a), { name: 'Payments runner', role_id: ROLE_IDS.sessionOperator }, token);
    expect(ok.status).toBe(200);
    expect((await sb.api.get(`/v3/organizations/${a}/sessions?first=1`, ok.body.credential)).status).toBe(200);
    const elsewhere = await create(org(b), { name: 'Elsewhere', role_id: ROLE_IDS.orgMember }, token);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.detail).toContain(
      `ManageOrgServiceUsers permission (organization level) on organization ${b}`,
    );
    const enterprise = await create(ENTERPRISE, { name: 'Enterprise', role_id: ROLE_IDS.enterpriseMember }, token);
    expect(enterprise.status).toBe(403);
    expect(enterprise.body.detail).toContain('ManageAccountServiceUsers permission (enterprise level)');
  });
});

describe('bad input (422, 404)', () => {
  const base = { role_id: ROLE_IDS.enterpriseViewer };
  it.each([
    ['an empty name', { ...base, name: '' }, 'name', /must not be empty/],
    ['a blank name', { ...base, name: '   ' }, 'name', /must not be empty/],
    ['a 257-character name', { ...base, name: 'x'.repeat(257) }, 'name', /at most 256 characters; this one has 257/],
    ['no name', { ...base }, 'name', /name is required/],
    ['a lifetime over 365 days', { ...base, name: 'a', lifetime_days: 366 }, 'lifetime_days', /at most 365 days/],
    ['a lifetime of 0 days', { ...base, name: 'a', lifetime_days: 0 }, 'lifetime_days', /at least 1/],
    ['a fractional lifetime', { ...base, name: 'a', lifetime_days: 1.5 }, 'lifetime_days', /whole number/],
    ['an unknown role', { name: 'a', role_id: 'role-nope' }, 'role_id', /not a role of this enterprise/],
    [
      'an organization role on the enterprise route',
      { name: 'a', role_id: ROLE_IDS.orgMember },
      'role_id',
      /organization role; this operation takes an enterprise role/,
    ],
  ])('refuses %s', async (_what, body, field, msg) => {
    const before = (sb.db.prepare('SELECT count(*) AS n FROM service_users').get() as { n: number }).n;
    const res = await create(ENTERPRISE, body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ loc: ['body', field], msg: expect.stringMatching(msg) }),
    ]);
    expect((sb.db.prepare('SELECT count(*) AS n FROM service_users').get() as { n: number }).n).toBe(before);
  });

  it('accepts a 256-character name and a 365-day lifetime', async () => {
    const res = await create(ENTERPRISE, { ...base, name: 'y'.repeat(256), lifetime_days: 365 });
    expect(res.status).toBe(200);
    expect(res.body.name).toHaveLength(256);
  });

  it('refuses an enterprise role on an organization route', async () => {
    const res = await create(org(orgIds[0]!), { name: 'a', role_id: ROLE_IDS.enterpriseViewer });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].msg).toMatch(/enterprise role; this operation takes an organization role/);
  });

  it('answers 404 for unknown ids and organizations', async () => {
    expect((await sb.api.get(`${ENTERPRISE}/service-user-nope`)).status).toBe(404);
    expect((await sb.api.call('DELETE', `${ENTERPRISE}/service-user-nope`)).status).toBe(404);
    expect((await sb.api.get(`${org('org-nope')}`)).status).toBe(404);
    expect((await sb.api.get(`${org(orgIds[0]!)}/service-user-nope`)).status).toBe(404);
  });

  it('refuses (409) to delete the documented demo credentials', async () => {
    const res = await sb.api.call('DELETE', `${ENTERPRISE}/service-user-sandbox-viewer`);
    expect(res.status).toBe(409);
    expect((await sb.api.get('/v3/self', VIEWER)).status).toBe(200);
  });

  it('the viewer may not manage service users', async () => {
    expect((await sb.api.get(ENTERPRISE, VIEWER)).status).toBe(403);
    expect((await create(ENTERPRISE, { ...base, name: 'x' }, VIEWER)).status).toBe(403);
  });
});

describe('role assignment', () => {
  const MEMBERS = '/v3/enterprise/members/service-users';
  const orgMembers = (orgId: string) => `/v3/enterprise/organizations/${orgId}/members/service-users`;
  const assign = (method: 'POST' | 'PATCH', path: string, role_id: string, token: string = ADMIN) =>
    sb.api.call(method, path, { token, body: { role_id } });
  const roleAt = (orgId: string | null, role_id: string) => ({
    role: expect.objectContaining({ role_id }),
    org_id: orgId,
  });
  const listed = async (path: string) =>
    (await sb.api.get(`${path}?first=200`)).body.items.map((s: { service_user_id: string }) => s.service_user_id);

  it('changes an enterprise role: the credential may do what the new role allows, at once; audited', async () => {
    const created = await create(ENTERPRISE, { name: 'Role changer', role_id: ROLE_IDS.billingAdmin });
    const { service_user_id: id, credential: token } = created.body as { service_user_id: string; credential: string };
    expect((await sb.api.get('/v3/enterprise/audit-logs?first=1', token)).status).toBe(403);

    const again = await assign('POST', `${MEMBERS}/${id}`, ROLE_IDS.securityAuditor);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/already has an enterprise role, Billing Admin .*PATCH/);

    const changed = await assign('PATCH', `${MEMBERS}/${id}`, ROLE_IDS.securityAuditor);
    expect(changed.status).toBe(200);
    expect(changed.body.role_assignments).toEqual([roleAt(null, ROLE_IDS.securityAuditor)]);
    expect((await sb.api.get('/v3/enterprise/audit-logs?first=1', token)).status).toBe(200);
    expect([...(await sb.api.get('/v3/self', token)).body.permissions].sort()).toEqual(
      permsOf(ROLE_IDS.securityAuditor).sort(),
    );

    const entry = sb.db
      .prepare(
        `SELECT * FROM audit_logs WHERE action = 'update_service_user_role' AND json_extract(data, '$.service_user_id') = ?`,
      )
      .get(id) as { service_user_id: string; user_id: string | null; org_id: string | null; data: string };
    expect(entry).toMatchObject({ service_user_id: 'service-user-sandbox-admin', user_id: null, org_id: null });
    expect(JSON.parse(entry.data)).toMatchObject({
      role: { role_id: ROLE_IDS.securityAuditor },
      previous_role: { role_id: ROLE_IDS.billingAdmin },
    });
  });

  it('gives an enterprise service user a role in an organization, changes it and removes it from there', async () => {
    const [a, b] = orgIds as [string, string];
    const created = await create(ENTERPRISE, { name: 'Joins an org', role_id: ROLE_IDS.billingAdmin });
    const { service_user_id: id, credential: token } = created.body as { service_user_id: string; credential: string };
    const sessions = () => sb.api.get(`/v3/organizations/${a}/sessions?first=1`, token);
    expect((await sessions()).status).toBe(403);
    expect((await sb.api.get(`${org(a)}/${id}`)).status).toBe(404);
    // An organization role passes an enterprise route (422), and the organization's route has none to change (404).
    expect((await assign('POST', `${orgMembers(a)}/${id}`, ROLE_IDS.enterpriseViewer)).status).toBe(422);
    expect((await assign('PATCH', `${orgMembers(a)}/${id}`, ROLE_IDS.orgViewer)).status).toBe(404);

    const added = await assign('POST', `${orgMembers(a)}/${id}`, ROLE_IDS.sessionOperator);
    expect(added.status).toBe(200);
    expect(added.body.role_assignments).toEqual([
      roleAt(null, ROLE_IDS.billingAdmin),
      roleAt(a, ROLE_IDS.sessionOperator),
    ]);
    expect((await sessions()).status).toBe(200);
    expect((await sb.api.get(`/v3/organizations/${b}/sessions?first=1`, token)).status).toBe(403);
    // Now a member of the organization: its lists show it, at both paths; another's does not.
    expect(await listed(orgMembers(a))).toContain(id);
    expect(await listed(org(a))).toContain(id);
    expect(await listed(orgMembers(b))).not.toContain(id);
    expect((await sb.api.get(`${org(a)}/${id}`)).status).toBe(200);
    expect((await assign('POST', `${orgMembers(a)}/${id}`, ROLE_IDS.orgViewer)).status).toBe(409);

    const changed = await assign('PATCH', `${orgMembers(a)}/${id}`, ROLE_IDS.orgViewer);
    expect(changed.status).toBe(200);
    expect(changed.body.role_assignments).toContainEqual(roleAt(a, ROLE_IDS.orgViewer));
    const create403 = await sb.api.call('POST', `/v3/organizations/${a}/sessions`, {
      token,
      body: { prompt: 'not allowed any more' },
    });
    expect(create403.status).toBe(403);

    // Removing it from the organization takes its role there; it is not deleted and works elsewhere.
    const removed = await sb.api.call('DELETE', `${orgMembers(a)}/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ deleted_at: null, role_assignments: [roleAt(null, ROLE_IDS.billingAdmin)] });
    expect((await sessions()).status).toBe(403);
    expect((await sb.api.get('/v3/enterprise/organizations', token)).status).toBe(200);
    expect(await listed(orgMembers(a))).not.toContain(id);
    expect((await sb.api.call('DELETE', `${orgMembers(a)}/${id}`)).status).toBe(404);
    const actions = (
      sb.db
        .prepare(`SELECT action FROM audit_logs WHERE json_extract(data, '$.service_user_id') = ? ORDER BY rowid`)
        .all(id) as Array<{ action: string }>
    ).map((e) => e.action);
    expect(actions).toEqual([
      'create_service_user',
      'assign_org_service_user_role',
      'update_org_service_user_role',
      'remove_org_service_user',
    ]);
  });

  it('changes the role of one created in the organization, through that organization’s route', async () => {
    const a = orgIds[0]!;
    const created = await create(org(a), { name: 'Org runner', role_id: ROLE_IDS.sessionOperator });
    const { service_user_id: id, credential: token } = created.body as { service_user_id: string; credential: string };
    const res = await assign('PATCH', `${orgMembers(a)}/${id}`, ROLE_IDS.orgViewer);
    expect(res.status).toBe(200);
    expect(res.body.role_assignments).toEqual([roleAt(a, ROLE_IDS.orgViewer)]);
    expect([...(await sb.api.get('/v3/self', token)).body.permissions].sort()).toEqual(
      permsOf(ROLE_IDS.orgViewer).sort(),
    );
    // Deleting it at its organization's route deletes it: its credential stops working.
    const del = await sb.api.call('DELETE', `${orgMembers(a)}/${id}`);
    expect(del.body.deleted_at).toEqual(expect.any(Number));
    expect((await sb.api.get('/v3/self', token)).status).toBe(401);
    // Deleted: its roles no longer change, at either level.
    for (const [method, path, roleId] of [
      ['PATCH', `${orgMembers(a)}/${id}`, ROLE_IDS.orgMember],
      ['POST', `${MEMBERS}/${id}`, ROLE_IDS.enterpriseViewer],
    ] as const) {
      expect((await assign(method, path, roleId)).status, `${method} ${path}`).toBe(404);
    }
  });

  it('holds the provisioning rule (403 naming the permissions), 422 for bad roles, 404 for unknown ones, 409 for the demo ones', async () => {
    const ungrantable = await assign('PATCH', `${MEMBERS}/service-user-ci-bot`, ROLE_IDS.serviceUserManager);
    expect(ungrantable.status).toBe(403);
    expect(ungrantable.body.ungrantable_permissions).toEqual(['ManageAccountServiceUsers', 'ManageOrgServiceUsers']);
    const token = issueCredential(sb.db, 'service-user-terraform');
    const wider = await assign('PATCH', `${MEMBERS}/service-user-ci-bot`, ROLE_IDS.securityAuditor, token);
    expect(wider.status).toBe(403);
    expect(wider.body.missing_permissions).toContain('ViewAccountAuditLogs');
    expect(wider.body.detail).toContain('enterprise level');
    const inOrg = await assign('POST', `${orgMembers(orgIds[3]!)}/service-user-ci-bot`, ROLE_IDS.orgMember, token);
    expect(inOrg.status).toBe(403);
    expect(inOrg.body.missing_permissions).toEqual(['ViewOrgMembership']);
    // Nothing changed.
    expect((await sb.api.get(`${MEMBERS}/service-user-ci-bot`)).body.role_assignments).toEqual([
      roleAt(null, ROLE_IDS.platformAutomation),
    ]);

    for (const [roleId, msg] of [
      ['role-nope', /not a role of this enterprise/],
      [ROLE_IDS.orgMember, /organization role; this operation takes an enterprise role/],
    ] as const) {
      const r = await assign('PATCH', `${MEMBERS}/service-user-ci-bot`, roleId);
      expect(r.status).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ loc: ['body', 'role_id'], msg: expect.stringMatching(msg) });
    }
    expect((await assign('POST', `${MEMBERS}/service-user-nope`, ROLE_IDS.enterpriseViewer)).status).toBe(404);
    expect((await assign('PATCH', `${MEMBERS}/service-user-legacy-deploy`, ROLE_IDS.enterpriseViewer)).status).toBe(
      404,
    );
    expect((await assign('POST', `${orgMembers('org-nope')}/service-user-ci-bot`, ROLE_IDS.orgMember)).status).toBe(
      404,
    );
    const demo = await assign('PATCH', `${MEMBERS}/service-user-sandbox-viewer`, ROLE_IDS.enterpriseMember);
    expect(demo.status).toBe(409);
    expect((await assign('PATCH', `${MEMBERS}/service-user-ci-bot`, ROLE_IDS.enterpriseViewer, VIEWER)).status).toBe(
      403,
    );
  });

  it('checks an organization-level credential in the organization of either path', async () => {
    // Payments Org Automation: Org Admin in the second organization only.
    const token = issueCredential(sb.db, 'service-user-payments-automation');
    const [mine, other] = [orgIds[1]!, orgIds[0]!];
    for (const path of [orgMembers(mine), org(mine)]) expect((await sb.api.get(path, token)).status).toBe(200);
    for (const path of [orgMembers(other), org(other)]) {
      const res = await sb.api.get(path, token);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ permission: 'ManageOrgServiceUsers', level: 'organization', org_id: other });
    }
    expect((await sb.api.get(MEMBERS, token)).status).toBe(403);
  });
});

describe('audit', () => {
  it('writes an entry per mutation with the acting principal, never the credential', async () => {
    const res = await create(ENTERPRISE, { name: 'Audited', role_id: ROLE_IDS.enterpriseViewer });
    await sb.api.call('DELETE', `${ENTERPRISE}/${res.body.service_user_id}`);
    const entries = sb.db
      .prepare(
        `SELECT * FROM audit_logs WHERE action IN ('create_service_user', 'delete_service_user') AND data LIKE ?`,
      )
      .all(`%${res.body.service_user_id}%`) as any[];
    expect(entries.map((e) => e.action).sort()).toEqual(['create_service_user', 'delete_service_user']);
    for (const e of entries) {
      expect(e).toMatchObject({ service_user_id: 'service-user-sandbox-admin', service_user_name: 'Sandbox Admin' });
      expect(e.data).not.toContain(res.body.credential);
    }
  });
});

describe('through the console proxy', () => {
  it('creates a service user and answers its credential; the credential then works against the API', async () => {
    const c = await startTestConsole();
    try {
      const res = await c.api.call('POST', '/api/v3beta1/enterprise/service-users', {
        body: { name: 'Via console', role_id: ROLE_IDS.enterpriseViewer },
      });
      expect(res.status).toBe(200);
      expect(res.body.credential).toMatch(/^cog_/);
      const direct = await fetch(`${c.sandbox!.url}/v3/self`, {
        headers: { authorization: `Bearer ${res.body.credential}` },
      });
      expect(direct.status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
