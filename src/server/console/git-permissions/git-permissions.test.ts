/**
 * The console's safe git-permission endpoints over HTTP, in front of a test sandbox: complete reads, the 409
 * conflict check, validation, the per-item path for sets over 200, clear, history, diff and restore, and the
 * viewer's 403 passed through.
 */
import { GitPermissionConflict } from '../../../api/console/git-permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitPermissionSetVersion } from '../../../api/git-permissions/set-diff';
import { VIEWER, startTestConsole } from '../../../test/harness';

let con: Awaited<ReturnType<typeof startTestConsole>>;
let orgs: string[];
let conn: string;

const sandboxApi = () => con.sandbox!.api;
const apiPath = (orgId: string) => `/v3/enterprise/organizations/${orgId}/git-providers/permissions`;
const consolePath = (orgId: string) => `/console/git-permissions/orgs/${orgId}`;

async function current(orgId: string) {
  const res = await con.api.get(consolePath(orgId));
  expect(res.status).toBe(200);
  return res.body as { items: any[]; version: string; count: number };
}

const input = (p: any): any => ({
  git_connection_id: p.git_connection_id,
  repo_path: p.repo_path,
  prefix_path: p.prefix_path,
  group_prefix: p.group_prefix,
  read_only: p.read_only,
});

beforeAll(async () => {
  con = await startTestConsole();
  orgs = (await sandboxApi().get('/v3/enterprise/organizations?first=200')).body.items.map((o: any) => o.org_id);
  conn = (await sandboxApi().get('/v3/enterprise/git-providers/connections')).body.items[0].git_connection_id;
});
afterAll(() => con.close());

describe('reading the current set', () => {
  it('reads every page and gives a version token of the normalized set', async () => {
    const set = await current(orgs[0]!);
    expect(set.count).toBe(150);
    expect(set.items).toHaveLength(150);
    expect(new Set(set.items.map((p) => p.git_permission_id)).size).toBe(150);
    expect(set.version).toBe(gitPermissionSetVersion(set.items));
    // The token depends on content only: order and ids do not change it.
    expect(gitPermissionSetVersion([...set.items].reverse().map(input))).toBe(set.version);
  });

  it('404s an unknown organization', async () => {
    expect((await con.api.get(consolePath('org-doesnotexist'))).status).toBe(404);
  });
});

describe('replace through the console', () => {
  it('edits a set of 150 (two pages) without losing anything outside the edit, storing the previous set', async () => {
    const orgId = orgs[0]!;
    const before = await current(orgId);
    const edited = before.items.map(input);
    edited[120] = { ...edited[120], read_only: !edited[120].read_only };
    edited.push({
      git_connection_id: conn,
      repo_path: 'acme-corp/console-added',
      prefix_path: null,
      group_prefix: null,
      read_only: true,
    });
    const res = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: before.version, base: before.items, permissions: edited },
    });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(151);
    expect(res.body.revision).toMatchObject({
      action: 'replace',
      method: 'replace',
      status: 'applied',
      previous_count: 150,
      result_count: 151,
      added: 1,
      removed: 0,
      changed: 1,
    });
    const after = await current(orgId);
    expect(after.version).toBe(gitPermissionSetVersion(edited));
    const ids = new Set(after.items.map((p) => p.git_permission_id));
    for (const p of before.items) expect(ids.has(p.git_permission_id)).toBe(true);

    const rev = await con.api.get(`${consolePath(orgId)}/revisions/${res.body.revision.revision_id}`);
    expect(rev.status).toBe(200);
    expect(rev.body.previous).toHaveLength(150);
    expect(gitPermissionSetVersion(rev.body.previous)).toBe(before.version);
    expect(rev.body.result).toHaveLength(151);
  });

  it('answers 409 with what changed meanwhile and applies nothing', async () => {
    const orgId = orgs[1]!;
    const base = await current(orgId);
    // Another admin toggles one permission and removes another, directly through the API.
    const [a, b] = base.items;
    await sandboxApi().call('PATCH', `${apiPath(orgId)}/${a.git_permission_id}`, { body: { read_only: !a.read_only } });
    await sandboxApi().call('DELETE', `${apiPath(orgId)}/${b.git_permission_id}`);
    const meanwhile = await current(orgId);
    const revisionsBefore = (await con.api.get(`${consolePath(orgId)}/revisions`)).body.total;

    const mine = [...base.items.map(input), { git_connection_id: conn, group_prefix: 'acme-labs', read_only: false }];
    const res = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: base.version, base: base.items, permissions: mine },
    });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 409, base_version: base.version, current_version: meanwhile.version });
    // The body is what the contract says a conflict is (the browser parses it with this schema).
    expect(GitPermissionConflict.safeParse(res.body).error).toBeUndefined();
    expect(res.body.detail).toMatch(/changed since the edit started/);
    expect(res.body.changes.changed).toHaveLength(1);
    expect(res.body.changes.removed).toHaveLength(1);
    expect(res.body.changes.added).toHaveLength(0);
    expect(res.body.current).toHaveLength(meanwhile.count);
    expect((await current(orgId)).version).toBe(meanwhile.version);
    expect((await con.api.get(`${consolePath(orgId)}/revisions`)).body.total).toBe(revisionsBefore);

    // Reapplied on top of the current set, the same edit goes through.
    const rebased = [
      ...meanwhile.items.map(input),
      { git_connection_id: conn, group_prefix: 'acme-labs', read_only: false },
    ];
    const ok = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: meanwhile.version, base: meanwhile.items, permissions: rebased },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.count).toBe(meanwhile.count + 1);
  });

  it('answers 409 with only a version token too', async () => {
    const orgId = orgs[1]!;
    const res = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: 'gpv1-stale', permissions: [] },
    });
    expect(res.status).toBe(409);
    expect(res.body.changes).toBeNull();
    expect(res.body.current.length).toBeGreaterThan(0);
  });

  it('validates every item with the same rules as the API, before reading anything', async () => {
    const orgId = orgs[2]!;
    const base = await current(orgId);
    const items = base.items.map(input);
    items[3] = { ...items[3], repo_path: 'acme/x', group_prefix: 'acme' };
    items.push({ git_connection_id: conn, repo_path: 'bad path' } as any);
    const res = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: base.version, base: base.items, permissions: items },
    });
    expect(res.status).toBe(422);
    const locs = res.body.errors.map((e: any) => e.loc.join('.'));
    expect(locs).toEqual(
      expect.arrayContaining([
        'body.permissions.3.repo_path',
        'body.permissions.3.group_prefix',
        `body.permissions.${items.length - 1}.repo_path`,
      ]),
    );
    expect((await con.api.call('PUT', consolePath(orgId), { body: { permissions: [] } })).body.errors[0].loc).toEqual([
      'body',
      'base_version',
    ]);
    const mismatch = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: base.version, base: [], permissions: [] },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors[0].loc).toEqual(['body', 'base']);
    expect((await current(orgId)).version).toBe(base.version);
  });

  it('passes the API’s refusal of an unknown git connection through, and records the failed attempt', async () => {
    const orgId = orgs[2]!;
    const base = await current(orgId);
    const items = [
      ...base.items.map(input),
      { git_connection_id: 'gitconn-unknown', repo_path: 'a/b', read_only: false },
    ];
    const res = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: base.version, base: base.items, permissions: items },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'permissions', items.length - 1, 'git_connection_id']);
    expect((await current(orgId)).version).toBe(base.version);
    const list = (await con.api.get(`${consolePath(orgId)}/revisions`)).body;
    expect(list.items[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/Unknown git connection/) });
  });

  it('refuses a set over 200 unless per-item operations are allowed, then applies it item by item', async () => {
    const orgId = orgs[3]!;
    const base = await current(orgId);
    expect(base.count).toBeGreaterThan(200);
    const edited = base.items.map(input);
    edited.splice(0, 2);
    edited[10] = { ...edited[10], read_only: !edited[10].read_only };
    edited.push({
      git_connection_id: conn,
      repo_path: 'acme-oss/per-item',
      prefix_path: null,
      group_prefix: null,
      read_only: false,
    });
    const refused = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: base.version, base: base.items, permissions: edited },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatch(/at most 200.*per-item/);
    expect(refused.body.errors[0].loc).toEqual(['body', 'permissions']);
    const ok = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: base.version, base: base.items, permissions: edited, allow_per_item: true },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.revision).toMatchObject({ method: 'per_item', status: 'applied', added: 1, removed: 2, changed: 1 });
    const after = await current(orgId);
    expect(after.version).toBe(gitPermissionSetVersion(edited));
  });

  it('answers without a revision when the set is unchanged', async () => {
    const orgId = orgs[4]!;
    const base = await current(orgId);
    const res = await con.api.call('PUT', consolePath(orgId), {
      body: { base_version: base.version, permissions: base.items.map(input) },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ unchanged: true, revision: null });
  });
});

describe('clear, history, diff and restore', () => {
  it('clears behind the conflict check, keeps the cleared set, and restores it', async () => {
    const orgId = orgs[6]!;
    const original = await current(orgId);
    expect(original.count).toBeGreaterThan(0);
    const stale = await con.api.call('DELETE', consolePath(orgId), { body: { base_version: 'gpv1-other' } });
    expect(stale.status).toBe(409);
    expect((await current(orgId)).count).toBe(original.count);

    const cleared = await con.api.call('DELETE', consolePath(orgId), {
      body: { base_version: original.version, base: original.items },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      count: 0,
      revision: { action: 'clear', method: 'clear', removed: original.count },
    });
    const empty = await current(orgId);
    expect(empty.count).toBe(0);

    // Add one so the history has three different sets.
    const added = await con.api.call('PUT', consolePath(orgId), {
      body: {
        base_version: empty.version,
        base: [],
        permissions: [{ git_connection_id: conn, group_prefix: 'acme-corp' }],
      },
    });
    expect(added.status).toBe(200);

    const list = await con.api.get(`${consolePath(orgId)}/revisions`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: any) => r.action)).toEqual(['replace', 'clear']);
    const [replaceRev, clearRev] = list.body.items;

    const diff = await con.api.get(
      `${consolePath(orgId)}/revisions/diff?from=${clearRev.revision_id}&to=${replaceRev.revision_id}`,
    );
    expect(diff.status).toBe(200);
    expect(diff.body.diff.added).toEqual([expect.objectContaining({ group_prefix: 'acme-corp' })]);
    expect(diff.body.diff.removed).toEqual([]);

    // A restore is a replace with the same checks: a stale base is refused.
    const staleRestore = await con.api.call('POST', `${consolePath(orgId)}/revisions/${clearRev.revision_id}/restore`, {
      body: { base_version: empty.version },
    });
    expect(staleRestore.status).toBe(409);

    const now = await current(orgId);
    const restored = await con.api.call('POST', `${consolePath(orgId)}/revisions/${clearRev.revision_id}/restore`, {
      body: { base_version: now.version, base: now.items },
    });
    expect(restored.status).toBe(200);
    expect(restored.body.revision).toMatchObject({
      action: 'restore',
      restored_from: clearRev.revision_id,
      status: 'applied',
    });
    expect((await current(orgId)).version).toBe(original.version);

    const back = await con.api.call('POST', `${consolePath(orgId)}/revisions/${replaceRev.revision_id}/restore`, {
      body: { base_version: original.version, set: 'result' },
    });
    expect(back.status).toBe(200);
    expect(back.body.count).toBe(1);
  });

  it('404s an unknown revision and 422s a bad page query', async () => {
    const orgId = orgs[6]!;
    expect((await con.api.get(`${consolePath(orgId)}/revisions/99999`)).status).toBe(404);
    expect((await con.api.get(`${consolePath(orgId)}/revisions/abc`)).status).toBe(404);
    // A revision of another organization is not found through this one.
    const other = (await con.api.get(`${consolePath(orgId)}/revisions`)).body.items[0].revision_id;
    expect((await con.api.get(`${consolePath(orgs[5]!)}/revisions/${other}`)).status).toBe(404);
    expect((await con.api.get(`${consolePath(orgId)}/revisions?first=0`)).status).toBe(422);
    expect(
      (await con.api.call('POST', `${consolePath(orgId)}/revisions/99999/restore`, { body: { base_version: 'x' } }))
        .status,
    ).toBe(404);
  });

  it('pages the history', async () => {
    const orgId = orgs[6]!;
    const page1 = await con.api.get(`${consolePath(orgId)}/revisions?first=2`);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.has_next_page).toBe(true);
    const page2 = await con.api.get(`${consolePath(orgId)}/revisions?first=2&after=${page1.body.end_cursor}`);
    expect(page2.body.items[0].revision_id).toBeLessThan(page1.body.items[1].revision_id);
  });
});

describe('a console whose credential lacks ManageGitIntegrations', () => {
  it('passes the 403 through, naming the permission', async () => {
    const viewer = await startTestConsole({ upstream: { baseUrl: con.sandbox!.url, apiKey: VIEWER } });
    try {
      const read = await viewer.api.get(consolePath(orgs[0]!));
      expect(read.status).toBe(403);
      expect(read.body.detail).toContain('ManageGitIntegrations');
      const write = await viewer.api.call('PUT', consolePath(orgs[0]!), {
        body: { base_version: 'x', permissions: [] },
      });
      expect(write.status).toBe(403);
      const proxied = await viewer.api.get(`/api${apiPath(orgs[0]!)}`);
      expect(proxied.status).toBe(403);
    } finally {
      await viewer.close();
    }
  });
});
