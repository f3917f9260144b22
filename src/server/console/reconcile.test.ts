/**
 * Issue 27, the parts that need no PostgreSQL (cheap: one in-memory console and sandbox):
 * reconciliation of revisions left `applying` (partly applied, not applied, applied), clearing an empty set
 * (unchanged: no revision, no API call), the IP access list's confirmation when the console cannot tell its
 * own address, the bounded queue of guarded changes, and the outage log line only once the server listens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffGitPermissionSets, gitPermissionSetVersion } from '../../api/git-permissions/set-diff';
import { createConsoleServer, type ConsoleServer } from '../app';
import { ADMIN, httpClient, startTestSandbox, testConfig } from '../../test/harness';
import { permissionInput, startDelayingProxy } from '../../test/replicas';
import { HttpProblem } from '../../node/problem-writer';
import { ipAccessListVersion } from './ip-access-list';
import { judgeGitRevision } from './reconcile';
import { createSlots } from './storage/locks';
import { createPgDatabase } from './storage/postgres';

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let proxy: Awaited<ReturnType<typeof startDelayingProxy>>;
let server: ConsoleServer;
let api: ReturnType<typeof httpClient>;
let orgs: string[];

beforeAll(async () => {
  sandbox = await startTestSandbox({ tickMs: 60_000 });
  // No delay: the proxy only counts what reaches the API.
  proxy = await startDelayingProxy(sandbox.url, 0, () => false);
  server = createConsoleServer({ config: testConfig(), upstream: { baseUrl: proxy.url, apiKey: ADMIN } });
  const { port } = await server.listen();
  api = httpClient(`http://127.0.0.1:${port}`, null);
  orgs = (await sandbox.api.get('/v3/enterprise/organizations?first=200')).body.items.map((o: any) => o.org_id);
});

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await sandbox?.stop();
});

const permissionsPath = (org: string) => `/v3/enterprise/organizations/${org}/git-providers/permissions`;
const readSet = async (org: string) => (await sandbox.api.get(`${permissionsPath(org)}?first=200`)).body.items as any[];

describe('reconciliation of revisions left applying', () => {
  it('marks a per-item change stopped part-way as partly applied, and one that wrote nothing as not applied', async () => {
    const store = server.store.gitPermissions;
    // Org 2 (12 permissions): a per-item change meant to remove two permissions removed only the first.
    const orgA = orgs[2]!;
    const before = await readSet(orgA);
    const target = before.slice(2).map(permissionInput);
    const d = diffGitPermissionSets(before.map(permissionInput), target);
    const partial = await store.begin({
      org_id: orgA,
      action: 'replace',
      method: 'per_item',
      restored_from: null,
      previous: before,
      previous_version: gitPermissionSetVersion(before),
      added: d.added.length,
      removed: d.removed.length,
      changed: d.changed.length,
      target,
    });
    expect(
      (await sandbox.api.call('DELETE', `${permissionsPath(orgA)}/${before[0].git_permission_id}`)).status,
    ).toBeLessThan(300);
    // Org 5 (8 permissions): a replace whose replica died before writing.
    const orgB = orgs[5]!;
    const untouched = await readSet(orgB);
    const none = await store.begin({
      org_id: orgB,
      action: 'clear',
      method: 'clear',
      restored_from: null,
      previous: untouched,
      previous_version: gitPermissionSetVersion(untouched),
      added: 0,
      removed: untouched.length,
      changed: 0,
      target: [],
    });

    const report = await server.reconcile();
    expect(report.reconciled).toEqual(
      expect.arrayContaining([
        { set: 'git-permissions', org_id: orgA, revision_id: partial, outcome: 'partly_applied' },
        { set: 'git-permissions', org_id: orgB, revision_id: none, outcome: 'not_applied' },
      ]),
    );
    // The history shows it: the state, the set found, and what to do.
    const revA = (await api.get(`/console/git-permissions/orgs/${orgA}/revisions/${partial}`)).body;
    expect(revA).toMatchObject({ status: 'partial', reconciled_outcome: 'partly_applied', result_count: 11 });
    expect(revA.error).toMatch(/Partly applied.*restore the previous set to roll back/);
    expect(revA.reconciled_at).toBeGreaterThan(0);
    const revB = (await api.get(`/console/git-permissions/orgs/${orgB}/revisions?first=1`)).body.items[0];
    expect(revB).toMatchObject({ revision_id: none, status: 'failed', reconciled_outcome: 'not_applied' });
    // Rolling back is the usual restore of the previous set.
    const now = await api.get(`/console/git-permissions/orgs/${orgA}`);
    const back = await api.call('POST', `/console/git-permissions/orgs/${orgA}/revisions/${partial}/restore`, {
      body: { base_version: now.body.version, set: 'previous' },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.count).toBe(12);
    // Nothing is left to do.
    expect((await server.reconcile()).reconciled).toEqual([]);
  });

  it('says it cannot tell when the set holds something neither before nor after the change', () => {
    const a = { git_connection_id: 'c', repo_path: 'a', prefix_path: null, group_prefix: null, read_only: false };
    const b = { ...a, repo_path: 'b' };
    const c = { ...a, repo_path: 'c' };
    const perm = (p: typeof a) => ({ ...p, git_permission_id: p.repo_path, created_at: 0 }) as never;
    const rev = { previous: [perm(a), perm(b)], target: [a], method: 'per_item', action: 'replace' };
    expect(judgeGitRevision(rev, [perm(a)]).reconciled_outcome).toBe('applied');
    expect(judgeGitRevision(rev, [perm(a), perm(b)]).reconciled_outcome).toBe('not_applied');
    // A third permission no side had: someone else changed the set.
    expect(judgeGitRevision(rev, [perm(a), perm(c)]).reconciled_outcome).toBe('changed_elsewhere');
    // Missing a permission both sides keep: not this change's doing either.
    expect(judgeGitRevision(rev, []).reconciled_outcome).toBe('changed_elsewhere');
    // An atomic replace is never "partly" applied.
    const replace = { ...rev, target: [a, c], method: 'replace' };
    expect(judgeGitRevision(replace, [perm(a), perm(b), perm(c)]).reconciled_outcome).toBe('changed_elsewhere');
    expect(judgeGitRevision({ ...replace, method: 'per_item' }, [perm(a), perm(b), perm(c)]).reconciled_outcome).toBe(
      'partly_applied',
    );
  });

  it('marks an IP access list change whose write went through as applied', async () => {
    const before = (await sandbox.api.get('/v3/enterprise/ip-access-list')).body.ip_ranges as string[];
    const target = [...before, '198.51.100.0/24'];
    const id = await server.store.ipAccessList.begin({
      action: 'replace',
      restored_from: null,
      previous: before,
      previous_version: ipAccessListVersion(before),
      added: ['198.51.100.0/24'],
      removed: [],
      locked_out: [],
      target,
    });
    expect(
      (await sandbox.api.call('PUT', '/v3/enterprise/ip-access-list', { body: { ip_ranges: target } })).status,
    ).toBe(200);
    const report = await server.reconcile();
    expect(report.reconciled.filter((r) => r.set === 'ip-access-list')).toEqual([
      { set: 'ip-access-list', org_id: null, revision_id: id, outcome: 'applied' },
    ]);
    const rev = (await api.get(`/console/ip-access-list/revisions/${id}`)).body;
    expect(rev).toMatchObject({ status: 'applied', reconciled_outcome: 'applied', added: ['198.51.100.0/24'] });
    expect(rev.result).toEqual(target);
    await sandbox.api.call('PUT', '/v3/enterprise/ip-access-list', { body: { ip_ranges: before } });
  });
});

describe('clearing an already empty set', () => {
  it('answers unchanged without recording a revision or calling the API to change it', async () => {
    const org = orgs[7]!; // no permissions
    expect(await readSet(org)).toEqual([]);
    const writesBefore = proxy.hits.filter((h) => !h.startsWith('GET')).length;
    const res = await api.call('DELETE', `/console/git-permissions/orgs/${org}`, {
      body: { base_version: gitPermissionSetVersion([]) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ unchanged: true, revision: null, count: 0 });
    expect(proxy.hits.filter((h) => !h.startsWith('GET')).length).toBe(writesBefore);
    expect((await api.get(`/console/git-permissions/orgs/${org}/revisions`)).body.total).toBe(0);
  });
});

describe('IP access list when the console cannot tell its own address', () => {
  it('refuses a list unless the admin types one of its ranges as the one admitting the console', async () => {
    // A real upstream (here the sandbox, as one) and no CONSOLE_EGRESS_IPS: nothing to check a list against.
    const upstreamServer = createConsoleServer({
      config: testConfig({ mode: 'upstream', baseUrl: sandbox.url, apiKey: ADMIN }),
      upstream: { baseUrl: sandbox.url, apiKey: ADMIN },
    });
    const { port } = await upstreamServer.listen();
    const client = httpClient(`http://127.0.0.1:${port}`, null);
    try {
      const cur = (await client.get('/console/ip-access-list')).body;
      expect(cur.protected_addresses).toEqual([]);
      const list = ['127.0.0.0/8', '203.0.113.0/24'];
      const body = { base_version: cur.version, ip_ranges: list };
      const refused = await client.call('PUT', '/console/ip-access-list', { body });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ reason: 'egress_unknown', confirm_header: 'console-confirmed-range' });
      expect(refused.body.detail).toMatch(/CONSOLE_EGRESS_IPS.*Nothing was applied/);
      const wrong = await client.call('PUT', '/console/ip-access-list', {
        body,
        headers: { 'console-confirmed-range': '192.0.2.0/24' },
      });
      expect(wrong.status).toBe(422);
      const ok = await client.call('PUT', '/console/ip-access-list', {
        body,
        headers: { 'console-confirmed-range': '127.0.0.0/8' },
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.ip_ranges).toEqual(list);
      // An empty list restricts nobody: no confirmation needed.
      const cleared = await client.call('PUT', '/console/ip-access-list', {
        body: { base_version: ok.body.version, ip_ranges: [] },
      });
      expect(cleared.status, cleared.text).toBe(200);
    } finally {
      await upstreamServer.close();
    }
  });
});

describe('the bound on guarded changes per replica', () => {
  it('runs at most the limit at once, queues the next in order, and refuses past the queue with 503 + Retry-After', async () => {
    const slots = createSlots({ maxRunning: 1, maxQueued: 1 });
    const order: number[] = [];
    let release!: () => void;
    const first = slots.run(() => new Promise<void>((r) => (release = r)).then(() => void order.push(1)));
    const second = slots.run(async () => void order.push(2));
    const third = slots.run(async () => void order.push(3)).catch((e: unknown) => e);
    const refused = await third;
    expect(refused).toBeInstanceOf(HttpProblem);
    expect((refused as HttpProblem).status).toBe(503);
    expect((refused as HttpProblem).headers['retry-after']).toBeDefined();
    expect(slots.stats()).toMatchObject({ running: 1, queued: 1 });
    release();
    await Promise.all([first, second]);
    expect(order).toEqual([1, 2]);
    expect(slots.stats()).toMatchObject({ running: 0, queued: 0 });
  });
});

describe('the outage log line', () => {
  it('is written only once the server listens (before, the start is waiting for the database)', async () => {
    const lines: string[] = [];
    const db = createPgDatabase('postgres://console@127.0.0.1:1/console', {
      log: (l) => lines.push(l),
      connectTimeoutMs: 500,
    });
    try {
      await expect(db.query('SELECT 1')).rejects.toThrow(/unavailable/);
      expect(lines).toEqual([]);
      db.markServing();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/answering 503 until it is back/);
      await db.query('SELECT 1').catch(() => undefined);
      expect(lines).toHaveLength(1);
    } finally {
      await db.close();
    }
  });
});
