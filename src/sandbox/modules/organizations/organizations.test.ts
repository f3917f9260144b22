/**
 * Organizations over HTTP: create, rename and change limits, delete with everything in it; validation (422),
 * unknown organizations (404), name conflicts (409), the permission and the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../../api/operations/organizations';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
const ORGS = '/v3/enterprise/organizations';
const create = (body: unknown, token: string = ADMIN) => sb.api.call('POST', ORGS, { body, token });
const patch = (orgId: string, body: unknown) => sb.api.call('PATCH', `${ORGS}/${orgId}`, { body });
const count = (sql: string, ...args: unknown[]) => (sb.db.prepare(sql).get(...args) as { n: number }).n;
const lastAudit = (action: string) =>
  sb.db.prepare('SELECT * FROM audit_logs WHERE action = ? ORDER BY rowid DESC LIMIT 1').get(action) as
    { org_id: string; service_user_name: string; data: string } | undefined;

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
});
afterAll(() => sb.stop());

describe('create', () => {
  it('creates an organization with its limits, listed and readable at once', async () => {
    const res = await create({ name: '  Search Relevance ', max_cycle_acu_limit: 5000, max_session_acu_limit: 50 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const org = res.body as Organization;
    expect(org).toMatchObject({ name: 'Search Relevance', max_cycle_acu_limit: 5000, max_session_acu_limit: 50 });
    expect(org.org_id).toMatch(/^org-/);
    expect(org.created_at).toBe(org.updated_at);
    expect((await sb.api.get(`${ORGS}/${org.org_id}`)).body).toEqual(org);
    const all = (await sb.api.get(`${ORGS}?first=200`)).body.items as Organization[];
    expect(all.map((o) => o.org_id)).toContain(org.org_id);
    const audit = lastAudit('create_organization')!;
    expect(audit.org_id).toBe(org.org_id);
    expect(audit.service_user_name).toBeTruthy();
    expect(JSON.parse(audit.data)).toMatchObject({ name: 'Search Relevance', max_cycle_acu_limit: 5000 });
    // Limits are optional.
    const plain = await create({ name: 'Checkout' });
    expect(plain.body).toMatchObject({ max_cycle_acu_limit: null, max_session_acu_limit: null });
  });

  it('refuses bad names and limits with 422, and a name in use with 409', async () => {
    for (const body of [
      {},
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'Neg', max_cycle_acu_limit: -1 },
      { name: 'Frac', max_session_acu_limit: 1.5 },
      { name: 'Str', max_cycle_acu_limit: '100' },
      { name: 'Extra', color: 'red' },
      { name: 'Session over cycle', max_cycle_acu_limit: 10, max_session_acu_limit: 11 },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const dup = await create({ name: 'search relevance' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toContain('already exists');
  });

  it('needs ManageOrganizations', async () => {
    expect((await create({ name: 'Nope' }, VIEWER)).status).toBe(403);
  });
});

describe('update', () => {
  it('renames and changes limits; absent fields stay, a null limit removes it', async () => {
    const org = (await create({ name: 'Rename Me', max_cycle_acu_limit: 1000, max_session_acu_limit: 10 }))
      .body as Organization;
    const renamed = await patch(org.org_id, { name: 'Renamed' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', max_cycle_acu_limit: 1000, max_session_acu_limit: 10 });
    const limits = await patch(org.org_id, { max_cycle_acu_limit: null, max_session_acu_limit: 20 });
    expect(limits.body).toMatchObject({ name: 'Renamed', max_cycle_acu_limit: null, max_session_acu_limit: 20 });
    const data = JSON.parse(lastAudit('update_organization')!.data);
    expect(data.changes).toEqual({
      max_cycle_acu_limit: { from: 1000, to: null },
      max_session_acu_limit: { from: 10, to: 20 },
    });
    expect((await sb.api.get(`${ORGS}/${org.org_id}`)).body.name).toBe('Renamed');
  });

  it('answers 404 for an unknown organization, 409 for a taken name, 422 for nothing or bad values', async () => {
    const [a, b] = (await sb.api.get(`${ORGS}?first=2`)).body.items as Organization[];
    expect((await patch('org-doesnotexist', { name: 'X' })).status).toBe(404);
    expect((await patch(a!.org_id, { name: b!.name.toUpperCase() })).status).toBe(409);
    expect((await patch(a!.org_id, { name: a!.name })).status).toBe(200);
    expect((await patch(a!.org_id, {})).status).toBe(422);
    expect((await patch(a!.org_id, { max_cycle_acu_limit: -5 })).status).toBe(422);
    await patch(a!.org_id, { max_cycle_acu_limit: 100, max_session_acu_limit: null });
    const over = await patch(a!.org_id, { max_session_acu_limit: 101 });
    expect(over.status).toBe(422);
    expect(over.body.errors[0].loc).toEqual(['body', 'max_session_acu_limit']);
  });
});

describe('delete', () => {
  it('deletes an organization and what lives in it; its paths answer 404 after', async () => {
    const all = (await sb.api.get(`${ORGS}?first=200`)).body.items as Organization[];
    // A seeded organization: it has sessions, notes, permissions, builds and members.
    const victim = all[2]!;
    const sessions = count('SELECT count(*) n FROM sessions WHERE org_id = ?', victim.org_id);
    expect(sessions).toBeGreaterThan(0);
    const res = await sb.api.call('DELETE', `${ORGS}/${victim.org_id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual(victim);
    for (const table of ['sessions', 'knowledge_notes', 'git_permissions', 'snapshot_builds', 'role_assignments']) {
      expect(count(`SELECT count(*) n FROM ${table} WHERE org_id = ?`, victim.org_id), table).toBe(0);
    }
    expect(count(`SELECT count(*) n FROM service_users WHERE org_id = ? AND deleted_at IS NULL`, victim.org_id)).toBe(
      0,
    );
    // Whatever every module keeps of it (tables with org_id, and the rows that reference them) is gone too.
    const tables = (sb.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[])
      .map((t) => t.name)
      .filter((t) => !['audit_logs', 'service_users', 'organizations'].includes(t) && !t.startsWith('sqlite_'));
    for (const table of tables) {
      const cols = (sb.db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
      if (!cols.includes('org_id')) continue;
      expect(count(`SELECT count(*) n FROM "${table}" WHERE org_id = ?`, victim.org_id), table).toBe(0);
    }
    expect(sb.db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    const audit = lastAudit('delete_organization')!;
    expect(audit.org_id).toBe(victim.org_id);
    expect(JSON.parse(audit.data).removed.sessions).toBe(sessions);
    // Audit history stays.
    expect(count('SELECT count(*) n FROM audit_logs WHERE org_id = ?', victim.org_id)).toBeGreaterThan(0);
    expect((await sb.api.get(`${ORGS}/${victim.org_id}`)).status).toBe(404);
    expect((await sb.api.get(`/v3/organizations/${victim.org_id}/sessions`)).status).toBe(404);
    expect((await sb.api.call('DELETE', `${ORGS}/${victim.org_id}`)).status).toBe(404);
    const after = (await sb.api.get(`${ORGS}?first=200`)).body.items as Organization[];
    expect(after.map((o) => o.org_id)).not.toContain(victim.org_id);
    // The rest of the sandbox still works.
    expect((await sb.api.get(`/v3/enterprise/sessions?first=5`)).status).toBe(200);
  });

  it('needs ManageOrganizations', async () => {
    const one = (await sb.api.get(`${ORGS}?first=1`)).body.items[0] as Organization;
    expect((await sb.api.call('DELETE', `${ORGS}/${one.org_id}`, { token: VIEWER })).status).toBe(403);
  });
});
