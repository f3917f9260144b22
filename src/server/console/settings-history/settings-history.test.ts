/**
 * The console's guarded settings endpoints over HTTP, in front of a test sandbox: each change records who made
 * it with the value before and after; a change made straight to the API shows as a gap ("outside"), found on
 * reading the history and stored at the next change; restore applies a past value again, and is refused with
 * its reason where the API cannot (a deleted organization); a duplicate organization name is an error on name;
 * concurrent changes of one setting run one after the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingChangeResult, SettingRevisionPage } from '../../../api/console/settings-history';
import { ADMIN, startTestConsole } from '../../../test/harness';

let con: Awaited<ReturnType<typeof startTestConsole>>;
const answered: string[] = [];

async function call(method: string, path: string, body?: unknown) {
  const res = await con.api.call(method, `/console/settings${path}`, body === undefined ? {} : { body });
  answered.push(res.text);
  return res;
}
const direct = (method: string, path: string, body?: unknown) =>
  con.sandbox!.api.call(method, path, body === undefined ? {} : { body });

async function change(method: string, path: string, body?: unknown) {
  const res = await call(method, path, body);
  expect(res.status, res.text).toBe(200);
  return SettingChangeResult.parse(res.body);
}
const history = async (query: string) => {
  const res = await call('GET', `/history?${query}`);
  expect(res.status, res.text).toBe(200);
  return SettingRevisionPage.parse(res.body);
};

beforeAll(async () => {
  con = await startTestConsole({ sandbox: { tickMs: 60_000 } });
});
afterAll(async () => {
  for (const text of answered) expect(text).not.toContain(ADMIN);
  await con?.close();
});

describe('organizations', () => {
  it('records create, rename and delete with who and a diff; gaps; restore; a deleted one cannot be restored', async () => {
    const created = await change('POST', '/organizations', { name: 'History Test Org', max_cycle_acu_limit: 500 });
    const org = created.result as { org_id: string; name: string };
    expect(created.revisions.map((r) => [r.kind, r.action, r.before])).toEqual([
      ['organization', 'create', null],
      ['acu-limit', 'create', null],
    ]);
    expect(created.revisions[0]!.made_by_kind).not.toBeNull();

    // A name in use is an error on the name field, with the name, not a raw id.
    const dup = await call('POST', '/organizations', { name: 'history test org' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      expect.objectContaining({
        loc: ['body', 'name'],
        msg: 'An organization named “history test org” already exists',
      }),
    ]);
    expect(dup.text).not.toMatch(/org-[0-9a-z]{6,}/i);

    const renamed = await change('PATCH', `/organizations/${org.org_id}`, { name: 'History Renamed' });
    expect(renamed.revisions).toHaveLength(1);
    expect(renamed.revisions[0]).toMatchObject({
      kind: 'organization',
      origin: 'console',
      action: 'update',
      label: 'History Renamed',
      changes: [{ path: ['name'], before: 'History Test Org', after: 'History Renamed' }],
    });

    // Changed straight through the API: the history shows the gap found now, then stores it at the next change.
    expect(
      (await direct('PATCH', `/v3/enterprise/organizations/${org.org_id}`, { name: 'Renamed Outside' })).status,
    ).toBe(200);
    const seen = await history(`kind=organization&key=${org.org_id}`);
    expect(seen.items[0]).toMatchObject({
      revision_id: null,
      origin: 'outside',
      changes: [{ path: ['name'], before: 'History Renamed', after: 'Renamed Outside' }],
      restore_after: { allowed: false },
    });
    const limits = await change('PATCH', `/organizations/${org.org_id}`, { max_cycle_acu_limit: 800 });
    expect(limits.revisions.map((r) => [r.kind, r.origin])).toEqual([
      ['organization', 'outside'],
      ['acu-limit', 'console'],
    ]);
    expect(limits.revisions[1]!.changes).toEqual([{ path: ['cycle_acu_limit'], before: 500, after: 800 }]);

    // Restore the name before the rename.
    const rename = renamed.revisions[0]!;
    const restored = await change('POST', `/history/${rename.revision_id}/restore`, { set: 'before' });
    expect(restored.revisions[0]).toMatchObject({ action: 'restore', restored_from: rename.revision_id });
    expect((await direct('GET', `/v3/enterprise/organizations/${org.org_id}`)).body.name).toBe('History Test Org');

    const deleted = await change('DELETE', `/organizations/${org.org_id}`);
    expect(deleted.revisions[0]).toMatchObject({ action: 'delete', after: null });
    const after = await history(`kind=organization&key=${org.org_id}`);
    expect(after.items.every((r) => r.revision_id !== null)).toBe(true);
    expect(after.items.find((r) => r.revision_id === rename.revision_id)?.restore_before).toEqual({
      allowed: false,
      reason: 'A deleted organization cannot be restored: the API cannot bring it back.',
    });
    const refused = await call('POST', `/history/${rename.revision_id}/restore`, { set: 'before' });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain('A deleted organization cannot be restored');
  });
});

describe('limits, tags and roles', () => {
  it('serializes concurrent changes of one limit and restores a past one', async () => {
    const [a, b] = await Promise.all([
      change('PUT', '/acu-limits/enterprise', { cycle_acu_limit: 12_345 }),
      change('PUT', '/acu-limits/enterprise', { cycle_acu_limit: 23_456 }),
    ]);
    // One after the other: the second started from the first's value, so neither sees a gap.
    expect([...a.revisions, ...b.revisions].map((r) => r.origin)).toEqual(['console', 'console']);
    expect(b.revisions[0]!.before).toEqual({ cycle_acu_limit: 12_345 });
    const restored = await change('POST', `/history/${b.revisions[0]!.revision_id}/restore`, { set: 'before' });
    expect(restored.revisions[0]!.after).toEqual({ cycle_acu_limit: 12_345 });
    const removed = await change('PUT', '/acu-limits/enterprise', { cycle_acu_limit: null });
    expect(removed.revisions[0]!.changes).toEqual([{ path: ['cycle_acu_limit'], before: 12_345, after: null }]);
  });

  it('records tag changes as added and removed entries', async () => {
    const orgs = (await direct('GET', '/v3/enterprise/organizations?first=1')).body.items as Array<{ org_id: string }>;
    const orgId = orgs[0]!.org_id;
    await change('POST', `/organizations/${orgId}/tags`, { mode: 'replace', tags: ['alpha', 'beta'] });
    const appended = await change('POST', `/organizations/${orgId}/tags`, { mode: 'append', tags: ['gamma'] });
    expect(appended.revisions[0]!.changes).toEqual([{ path: ['tags'], before: null, after: 'gamma' }]);
    const def = await change('POST', `/organizations/${orgId}/tags`, { mode: 'default', tag: 'beta' });
    expect(def.revisions[0]).toMatchObject({
      action: 'set-default',
      changes: [{ path: ['default_tag'], after: 'beta' }],
    });
    const none = await change('POST', `/organizations/${orgId}/tags`, { mode: 'append', tags: ['gamma'] });
    expect(none).toMatchObject({ unchanged: true, revisions: [] });
  });

  it('sets, changes and removes a member’s organization role, with role and organization names', async () => {
    const roles = (await direct('GET', '/v3/enterprise/roles?first=200')).body.items as Array<{
      role_id: string;
      role_name: string;
      role_type: string;
    }>;
    const orgRoles = roles.filter((r) => r.role_type === 'org');
    const users = (await direct('GET', '/v3/enterprise/members/users?first=5')).body.items as Array<{
      user_id: string;
      role_assignments: Array<{ org_id?: string | null }>;
    }>;
    const orgs = (await direct('GET', '/v3/enterprise/organizations?first=200')).body.items as Array<{
      org_id: string;
    }>;
    const user = users[users.length - 1]!;
    const free = orgs.find((o) => !user.role_assignments.some((a) => a.org_id === o.org_id))!;
    const body = { principal_type: 'user', principal_id: user.user_id, level: free.org_id };
    const set = await change('PUT', '/roles', { ...body, role_id: orgRoles[0]!.role_id });
    expect(set.revisions[0]).toMatchObject({
      kind: 'roles',
      before: { role_id: null },
      after: { role_id: orgRoles[0]!.role_id },
    });
    expect(set.revisions[0]!.names[orgRoles[0]!.role_id]).toBe(orgRoles[0]!.role_name);
    expect(set.revisions[0]!.names[free.org_id]).toBeTruthy();
    await change('PUT', '/roles', { ...body, role_id: orgRoles[1]!.role_id });
    const removed = await change('PUT', '/roles', { ...body, role_id: null });
    expect(removed.revisions[0]!.after).toEqual({ role_id: null });
    const list = await history(`kind=roles&key_prefix=${encodeURIComponent(`user:${user.user_id}@`)}`);
    expect(list.items.map((r) => r.action)).toEqual(['remove-role', 'set-role', 'set-role']);
    // The enterprise role cannot be taken away: refused with its reason, nothing recorded.
    const refused = await call('PUT', '/roles', { ...body, level: 'enterprise', role_id: null });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].msg).toContain('always holds an enterprise role');
  });
});
