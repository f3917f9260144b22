/**
 * Git permissions and connections in the sandbox, over HTTP: the seed, paging, every validation rule of a
 * replace (per item), atomicity, the audit entry, the other mutations and the viewer's 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgs: Array<{ org_id: string; name: string }>;
let connections: Array<{ git_connection_id: string; git_provider_type: string; host: string }>;

const path = (orgId: string) => `/v3/enterprise/organizations/${orgId}/git-providers/permissions`;

async function listAll(orgId: string): Promise<any[]> {
  const items: any[] = [];
  let after: string | null = null;
  do {
    const res: any = await sb.api.get(`${path(orgId)}?first=100${after ? `&after=${after}` : ''}`);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return items;
}

const strip = (items: any[]) =>
  items.map(({ git_connection_id, repo_path, prefix_path, group_prefix, read_only }) => ({
    git_connection_id,
    repo_path,
    prefix_path,
    group_prefix,
    read_only,
  }));

beforeAll(async () => {
  sb = await startTestSandbox();
  orgs = (await sb.api.get('/v3/enterprise/organizations?first=200')).body.items;
  connections = (await sb.api.get('/v3/enterprise/git-providers/connections')).body.items;
});
afterAll(() => sb.stop());

describe('seed', () => {
  it('has git connections of several provider types with hundreds of repositories in groups', async () => {
    expect(new Set(connections.map((c) => c.git_provider_type)).size).toBeGreaterThanOrEqual(4);
    let total = 0;
    for (const c of connections) {
      const res = await sb.api.get(
        `/v3/enterprise/git-providers/connections/${c.git_connection_id}/repositories?first=100`,
      );
      expect(res.status).toBe(200);
      total += res.body.total;
      const repo = res.body.items[0];
      expect(repo).toMatchObject({
        git_connection_id: c.git_connection_id,
        git_connection_host: c.host,
        repo_path: expect.stringContaining('/'),
      });
    }
    expect(total).toBeGreaterThanOrEqual(300);
  });

  it('has permissions per organization, one organization with more than 100 (several pages)', async () => {
    const counts = await Promise.all(
      orgs.map(async (o) => (await sb.api.get(`${path(o.org_id)}?first=1`)).body.total as number),
    );
    expect(counts.filter((n) => n > 0).length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...counts)).toBeGreaterThan(100);
    const big = orgs[counts.findIndex((n) => n > 100 && n <= 200)]!;
    const first = await sb.api.get(`${path(big.org_id)}`);
    expect(first.body.items).toHaveLength(100);
    expect(first.body.has_next_page).toBe(true);
    const all = await listAll(big.org_id);
    expect(new Set(all.map((p) => p.git_permission_id)).size).toBe(all.length);
    for (const p of all) {
      const set = [p.repo_path, p.prefix_path, p.group_prefix].filter((v) => v);
      expect(set).toHaveLength(1);
      expect(typeof p.read_only).toBe('boolean');
    }
  });

  it('filters a connection’s repositories by name, paged', async () => {
    const c = connections[0]!;
    const base = `/v3/enterprise/git-providers/connections/${c.git_connection_id}/repositories`;
    const res = await sb.api.get(`${base}?filter_name=API&first=5`);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const r of res.body.items) expect(`${r.repo_name} ${r.repo_path}`.toLowerCase()).toContain('api');
    if (res.body.has_next_page) {
      const next = await sb.api.get(`${base}?filter_name=API&first=5&after=${res.body.end_cursor}`);
      expect(next.body.items[0].repo_path >= res.body.items[4].repo_path).toBe(true);
    }
    expect((await sb.api.get(`${base}?filter_name=zzzz-nothing`)).body.items).toEqual([]);
    expect((await sb.api.get('/v3/enterprise/git-providers/connections/gitconn-missing/repositories')).status).toBe(
      404,
    );
  });
});

describe('replace: validation (422 with per-item errors)', () => {
  const valid = () => ({ git_connection_id: connections[0]!.git_connection_id, repo_path: 'acme-corp/new-thing' });

  async function expectRefused(permissions: unknown[], loc: Array<string | number>, msg: RegExp) {
    const orgId = orgs[2]!.org_id;
    const before = await listAll(orgId);
    const res = await sb.api.call('PUT', path(orgId), { body: { permissions } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ loc, msg: expect.stringMatching(msg) })]),
    );
    expect(await listAll(orgId)).toEqual(before);
    return res.body;
  }

  it('requires the permissions array', async () => {
    const res = await sb.api.call('PUT', path(orgs[2]!.org_id), { body: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'permissions']);
  });

  it('refuses more than 200 items, saying how many', async () => {
    const items = Array.from({ length: 201 }, (_, i) => ({ ...valid(), repo_path: `acme-corp/repo-${i}` }));
    await expectRefused(items, ['body', 'permissions'], /At most 200 permissions per replace; this set has 201/);
  });

  it('requires git_connection_id', async () => {
    await expectRefused(
      [valid(), { repo_path: 'acme-corp/x' }],
      ['body', 'permissions', 1, 'git_connection_id'],
      /required/,
    );
    await expectRefused(
      [{ ...valid(), git_connection_id: '' }],
      ['body', 'permissions', 0, 'git_connection_id'],
      /required/,
    );
  });

  it('refuses an unknown git_connection_id', async () => {
    const items = [valid(), valid(), { ...valid(), repo_path: 'a/b', git_connection_id: 'gitconn-nope' }];
    items[1] = { ...valid(), repo_path: 'acme-corp/other' };
    await expectRefused(items, ['body', 'permissions', 2, 'git_connection_id'], /Unknown git connection gitconn-nope/);
  });

  it('requires exactly one matcher: none is refused', async () => {
    await expectRefused(
      [{ git_connection_id: connections[0]!.git_connection_id }],
      ['body', 'permissions', 0, 'repo_path'],
      /Set one matcher/,
    );
    await expectRefused(
      [{ git_connection_id: connections[0]!.git_connection_id, repo_path: '', group_prefix: null }],
      ['body', 'permissions', 0, 'repo_path'],
      /Set one matcher/,
    );
  });

  it('requires exactly one matcher: two or three are refused on each field set', async () => {
    const body = await expectRefused(
      [{ ...valid(), group_prefix: 'acme-corp' }],
      ['body', 'permissions', 0, 'group_prefix'],
      /only one matcher/,
    );
    expect(body.errors.map((e: any) => e.loc.at(-1))).toEqual(expect.arrayContaining(['repo_path', 'group_prefix']));
  });

  it('checks the form of each matcher, locating the item (permissions[17].repo_path)', async () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ ...valid(), repo_path: `acme-corp/r${i}` }));
    items[17] = { ...valid(), repo_path: 'no-slash' };
    await expectRefused(items, ['body', 'permissions', 17, 'repo_path'], /repository path/);
    await expectRefused(
      [{ ...valid(), repo_path: '/acme/x' }],
      ['body', 'permissions', 0, 'repo_path'],
      /repository path/,
    );
    await expectRefused(
      [{ ...valid(), repo_path: 'acme/ x' }],
      ['body', 'permissions', 0, 'repo_path'],
      /repository path/,
    );
    await expectRefused(
      [{ git_connection_id: valid().git_connection_id, group_prefix: 'acme/' }],
      ['body', 'permissions', 0, 'group_prefix'],
      /group like/,
    );
    await expectRefused(
      [{ git_connection_id: valid().git_connection_id, prefix_path: '/acme' }],
      ['body', 'permissions', 0, 'prefix_path'],
      /path prefix/,
    );
    await expectRefused(
      [{ ...valid(), repo_path: `a/${'x'.repeat(600)}` }],
      ['body', 'permissions', 0, 'repo_path'],
      /at most 512/,
    );
  });

  it('refuses duplicates (same connection and matcher), flagging the later one', async () => {
    await expectRefused(
      [valid(), { ...valid(), read_only: true }],
      ['body', 'permissions', 1, 'repo_path'],
      /Duplicate of permissions\[0\]/,
    );
  });

  it('checks types and unknown fields', async () => {
    await expectRefused([{ ...valid(), read_only: 'yes' }], ['body', 'permissions', 0, 'read_only'], /true or false/);
    await expectRefused([{ ...valid(), repo_url: 'https://x' }], ['body', 'permissions', 0], /repo_url/);
    await expectRefused([{ ...valid(), repo_path: 7 }], ['body', 'permissions', 0, 'repo_path'], /.+/);
  });

  it('reports every failing item at once', async () => {
    const orgId = orgs[2]!.org_id;
    const res = await sb.api.call('PUT', path(orgId), {
      body: {
        permissions: [{ ...valid(), repo_path: 'x' }, valid(), { git_connection_id: valid().git_connection_id }],
      },
    });
    expect(res.status).toBe(422);
    const locs = res.body.errors.map((e: any) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.permissions.0.repo_path', 'body.permissions.2.repo_path']));
  });
});

describe('replace: effect', () => {
  it('replaces the whole set atomically, keeps unchanged items, defaults read_only to false and writes an audit entry', async () => {
    const orgId = orgs[1]!.org_id;
    const before = await listAll(orgId);
    const keep = before.slice(0, 3);
    const conn = connections[1]!.git_connection_id;
    const next = [
      ...keep.map((p) => ({
        git_connection_id: p.git_connection_id,
        repo_path: p.repo_path,
        prefix_path: p.prefix_path,
        group_prefix: p.group_prefix,
        read_only: !p.read_only,
      })),
      { git_connection_id: conn, group_prefix: 'platform/infra' },
      { git_connection_id: conn, prefix_path: 'payments/', read_only: true },
    ];
    const res = await sb.api.call('PUT', path(orgId), { body: { permissions: next } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    expect(res.body[3]).toMatchObject({
      git_connection_id: conn,
      group_prefix: 'platform/infra',
      read_only: false,
      repo_path: null,
    });
    expect(res.body.slice(0, 3).map((p: any) => p.git_permission_id)).toEqual(keep.map((p) => p.git_permission_id));
    const after = await listAll(orgId);
    expect(after).toHaveLength(5);
    expect(new Set(after.map((p) => p.git_permission_id))).toEqual(
      new Set(res.body.map((p: any) => p.git_permission_id)),
    );

    const log = await sb.api.get(`/v3/enterprise/audit-logs?first=20`);
    if (log.status === 200) {
      const entry = log.body.items.find((e: any) => e.action === 'update_git_permission' && e.data?.org_id === orgId);
      expect(entry).toBeTruthy();
    }
    const row = sb.db
      .prepare(
        `SELECT * FROM audit_logs WHERE action = 'update_git_permission' AND org_id = ? ORDER BY created_at DESC LIMIT 1`,
      )
      .get(orgId) as any;
    expect(JSON.parse(row.data)).toMatchObject({
      operation: 'replace',
      count: 5,
      added: 2,
      removed: before.length - 3,
      changed: 3,
    });
    expect(row.service_user_id).toBe('service-user-sandbox-admin');
  });

  it('changes nothing on a 201-item replace or one with a single invalid item', async () => {
    const orgId = orgs[0]!.org_id;
    const before = await listAll(orgId);
    const audits = () =>
      (sb.db.prepare(`SELECT count(*) AS n FROM audit_logs WHERE action = 'update_git_permission'`).get() as any).n;
    const auditsBefore = audits();
    const conn = connections[0]!.git_connection_id;
    const tooMany = Array.from({ length: 201 }, (_, i) => ({
      git_connection_id: conn,
      repo_path: `acme-corp/many-${i}`,
    }));
    expect((await sb.api.call('PUT', path(orgId), { body: { permissions: tooMany } })).status).toBe(422);
    const oneBad = [
      ...strip(before)
        .slice(0, 150)
        .map((p) => ({ ...p })),
      { git_connection_id: 'gitconn-unknown', repo_path: 'a/b' },
    ];
    expect((await sb.api.call('PUT', path(orgId), { body: { permissions: oneBad.slice(0, 200) } })).status).toBe(422);
    expect(await listAll(orgId)).toEqual(before);
    expect(audits()).toBe(auditsBefore);
  });

  it('accepts exactly 200 items and an empty set', async () => {
    const orgId = orgs[6]!.org_id;
    const conn = connections[1]!.git_connection_id;
    const items = Array.from({ length: 200 }, (_, i) => ({
      git_connection_id: conn,
      repo_path: `platform/infra/svc-${i}`,
    }));
    const res = await sb.api.call('PUT', path(orgId), { body: { permissions: items } });
    expect(res.status).toBe(200);
    expect((await listAll(orgId)).length).toBe(200);
    const empty = await sb.api.call('PUT', path(orgId), { body: { permissions: [] } });
    expect(empty.status).toBe(200);
    expect(await listAll(orgId)).toEqual([]);
  });
});

describe('other mutations', () => {
  it('PATCH toggles read_only of one permission; 404 for an unknown one', async () => {
    const orgId = orgs[4]!.org_id;
    const [p] = await listAll(orgId);
    const res = await sb.api.call('PATCH', `${path(orgId)}/${p.git_permission_id}`, {
      body: { read_only: !p.read_only },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ git_permission_id: p.git_permission_id, read_only: !p.read_only });
    expect((await listAll(orgId))[0].read_only).toBe(!p.read_only);
    expect((await sb.api.call('PATCH', `${path(orgId)}/gitperm-missing`, { body: { read_only: true } })).status).toBe(
      404,
    );
    expect(
      (await sb.api.call('PATCH', `${path(orgId)}/${p.git_permission_id}`, { body: { read_only: 'x' } })).status,
    ).toBe(422);
    expect(
      (await sb.api.call('PATCH', `${path(orgId)}/${p.git_permission_id}`, { body: { repo_path: 'a/b' } })).status,
    ).toBe(422);
  });

  it('POST adds permissions, refusing one that already exists', async () => {
    const orgId = orgs[5]!.org_id;
    const before = await listAll(orgId);
    const conn = connections[2]!.git_connection_id;
    const res = await sb.api.call('POST', path(orgId), {
      body: { permissions: [{ git_connection_id: conn, group_prefix: 'acme/Web' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({
      group_prefix: 'acme/Web',
      read_only: false,
      git_permission_id: expect.stringMatching(/^gitperm-/),
    });
    const dup = await sb.api.call('POST', path(orgId), {
      body: { permissions: [{ git_connection_id: conn, group_prefix: 'acme/Web' }] },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0].loc).toEqual(['body', 'permissions', 0, 'group_prefix']);
    expect((await listAll(orgId)).length).toBe(before.length + 1);
  });

  it('DELETE one answers with the removed permission', async () => {
    const orgId = orgs[5]!.org_id;
    const [p] = await listAll(orgId);
    const res = await sb.api.call('DELETE', `${path(orgId)}/${p.git_permission_id}`);
    expect(res.status).toBe(200);
    expect(res.body.git_permission_id).toBe(p.git_permission_id);
    expect((await listAll(orgId)).some((x) => x.git_permission_id === p.git_permission_id)).toBe(false);
    expect((await sb.api.call('DELETE', `${path(orgId)}/${p.git_permission_id}`)).status).toBe(404);
  });

  it('DELETE all clears the set and answers with the removed set', async () => {
    const orgId = orgs[5]!.org_id;
    const before = await listAll(orgId);
    const res = await sb.api.call('DELETE', path(orgId));
    expect(res.status).toBe(200);
    expect(res.body.map((p: any) => p.git_permission_id)).toEqual(before.map((p) => p.git_permission_id));
    expect(await listAll(orgId)).toEqual([]);
  });

  it('404s an unknown organization', async () => {
    expect((await sb.api.get(path('org-doesnotexist'))).status).toBe(404);
  });
});

describe('permission: ManageGitIntegrations (enterprise level)', () => {
  it.each([
    ['GET', ''],
    ['PUT', ''],
    ['POST', ''],
    ['DELETE', ''],
    ['PATCH', '/gitperm-x'],
    ['DELETE', '/gitperm-x'],
  ])('the viewer gets 403 on %s permissions%s', async (method, suffix) => {
    const orgId = orgs[0]!.org_id;
    const res = await sb.api.call(method, `${path(orgId)}${suffix}`, {
      token: VIEWER,
      body:
        method === 'PUT' || method === 'POST'
          ? { permissions: [] }
          : method === 'PATCH'
            ? { read_only: true }
            : undefined,
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageGitIntegrations');
  });

  it('the viewer gets 403 on connections and repositories; the admin does not', async () => {
    expect((await sb.api.get('/v3/enterprise/git-providers/connections', VIEWER)).status).toBe(403);
    const repos = `/v3/enterprise/git-providers/connections/${connections[0]!.git_connection_id}/repositories`;
    expect((await sb.api.get(repos, VIEWER)).status).toBe(403);
    expect((await sb.api.get(repos, ADMIN)).status).toBe(200);
  });
});

describe('one bad item never hides the others', () => {
  it('reports a type error on one item and the matcher rule on another, and changes nothing', async () => {
    const orgId = orgs[0]!.org_id;
    const before = strip((await sb.api.get(`${path(orgId)}?first=200`)).body.items);
    const conn = connections[0]!.git_connection_id;
    const res = await sb.api.call('PUT', path(orgId), {
      body: {
        permissions: [{ git_connection_id: conn, repo_path: 'a/b', read_only: 'yes' }, { git_connection_id: conn }],
      },
    });
    expect(res.status).toBe(422);
    const locs = res.body.errors.map((e: { loc: unknown[] }) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.permissions.0.read_only', 'body.permissions.1.repo_path']));
    expect(strip((await sb.api.get(`${path(orgId)}?first=200`)).body.items)).toEqual(before);
  });
});
