/**
 * Issue 20: the database goes away for a few seconds under two console replicas. While it is gone, what needs
 * it answers clear 503 problems (never a crash, never a silent pass), and /console/health says why; when it is
 * back, both replicas recover by themselves, and nothing is lost: the session still works, the history is
 * whole and new changes are recorded. This file stops its own throwaway cluster (not the run's shared one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, rawRequest, startTestSandbox } from '../../test/harness';
import { startPostgresCluster, type PostgresCluster } from '../../test/postgres';
import { gitPermissionSetVersion } from '../../api/git-permissions/set-diff';
import { permissionInput, startDelayingProxy, startReplica, type Replica } from '../../test/replicas';

let cluster: PostgresCluster;
let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let a: Replica;
let b: Replica;

beforeAll(async () => {
  [cluster, sandbox] = await Promise.all([startPostgresCluster(), startTestSandbox()]);
  const url = await cluster.createDatabase('outage');
  const upstream = { baseUrl: sandbox.url, apiKey: ADMIN };
  [a, b] = await Promise.all([startReplica(url, upstream), startReplica(url, upstream)]);
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await sandbox?.stop();
  await cluster?.destroy();
}, 30_000);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the database stops for a few seconds', () => {
  it('answers clear 503s meanwhile, then recovers by itself with nothing lost', async () => {
    const orgs = (await sandbox.api.get('/v3/enterprise/organizations?first=200')).body.items.map((o: any) => o.org_id);
    let org = '';
    for (const o of orgs) {
      const page = await sandbox.api.get(`/v3/enterprise/organizations/${o}/git-providers/permissions?first=200`);
      if (!page.body.has_next_page && page.body.items.length >= 2) {
        org = o;
        break;
      }
    }
    expect(org).not.toBe('');

    // Before: signed in through A, one change recorded.
    const cookie = await a.signIn();
    const health = await b.call('GET', '/console/health');
    expect(health.status).toBe(200);
    expect(health.body.store).toMatchObject({ kind: 'postgres', state: 'ok', unavailable_since: null });
    const start = await a.call('GET', `/console/git-permissions/orgs/${org}`, { cookie });
    const base = start.body.items.map(permissionInput);
    const first = await a.call('PUT', `/console/git-permissions/orgs/${org}`, {
      cookie,
      json: { base_version: start.body.version, base, permissions: base.slice(1) },
    });
    expect(first.status).toBe(200);
    const upstreamBefore = await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions`);

    await cluster.stop();
    const stoppedAt = Date.now();

    // What needs the store answers 503 with a problem body and Retry-After, on both replicas.
    for (const r of [a, b]) {
      const session = await r.call('GET', '/console/session', { cookie });
      expect(session.status).toBe(503);
      expect(session.headers['content-type']).toBe('application/problem+json');
      expect(Number(session.headers['retry-after'])).toBeGreaterThan(0);
      expect(session.body).toMatchObject({ status: 503, title: 'Service Unavailable', store: 'postgres' });
      expect(session.body.detail).toMatch(/PostgreSQL/);

      const h = await r.call('GET', '/console/health');
      expect(h.status).toBe(503);
      expect(h.body.store).toMatchObject({ kind: 'postgres', state: 'unavailable' });
      expect(h.body.store.unavailable_since).toBeGreaterThan(0);

      // Readiness says the store is down (and since when); liveness does not: restarting would not help.
      const ready = await r.call('GET', '/console/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ store: { state: 'unavailable' }, upstream: { state: 'ok' } });
      expect(ready.body.store.since).toBeGreaterThan(0);
      expect((await r.call('GET', '/console/livez')).status).toBe(200);
      // A browser loading a page gets a page it can read, not problem JSON.
      const page = await rawRequest(r.port, 'GET', '/orgs', { accept: 'text/html,application/xhtml+xml', cookie });
      expect(page.status).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['retry-after']).toBeDefined();
      expect(page.text).toContain('The console is temporarily unavailable');
      expect(page.text).not.toContain('"status"');
    }
    const history = await b.call('GET', `/console/git-permissions/orgs/${org}/revisions`, { cookie });
    expect(history.status).toBe(503);
    // A change is refused before anything reaches the API: the upstream set is as it was.
    const refused = await a.call('PUT', `/console/git-permissions/orgs/${org}`, {
      cookie,
      json: { base_version: first.body.version, permissions: base },
    });
    expect(refused.status).toBe(503);
    const upstreamDuring = await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions`);
    expect(upstreamDuring.body.items).toEqual(upstreamBefore.body.items);
    // Sign-in pages too: no session can be checked or opened.
    expect((await a.call('GET', await a.server.signInLink())).status).toBe(503);

    // A few seconds down, then back.
    await new Promise((r) => setTimeout(r, Math.max(0, 3_000 - (Date.now() - stoppedAt))));
    await cluster.start();

    for (const r of [a, b]) {
      const back = await waitFor('the replica to recover', async () => {
        const h = await r.call('GET', '/console/health');
        return h.status === 200 ? h : undefined;
      });
      expect(back.body.store).toMatchObject({ state: 'ok', unavailable_since: null, error: null });
      // Ready again by itself.
      expect((await r.call('GET', '/console/readyz')).status).toBe(200);
      // The session opened before the outage still works on both.
      expect((await r.call('GET', '/console/session', { cookie })).status).toBe(200);
    }
    // The history is whole, and a new change is recorded after it.
    const whole = await b.call('GET', `/console/git-permissions/orgs/${org}/revisions`, { cookie });
    expect(whole.status).toBe(200);
    expect(whole.body.items.map((r: any) => [r.revision_id, r.status])).toEqual([[1, 'applied']]);
    const again = await b.call('PUT', `/console/git-permissions/orgs/${org}`, {
      cookie,
      json: { base_version: first.body.version, permissions: base },
    });
    expect(again.status).toBe(200);
    expect(again.body.revision).toMatchObject({ revision_id: 2, status: 'applied' });
    expect(again.body.version).toBe(start.body.version);
  }, 60_000);
});

describe('fencing: the database restarts in the middle of a change against a slow upstream', () => {
  it('never answers two 200s for one version: the change that lost its lease stops before writing (3 rounds)', async () => {
    // Reading a set takes 1.2 s; leases last 300 ms. A's change starts, the database restarts 250 ms in and
    // stays down 500 ms (longer than A's lease), and B's change with the same version starts once it is back.
    const proxy = await startDelayingProxy(
      sandbox.url,
      1_200,
      (req) => req.method === 'GET' && /\/git-providers\/permissions/.test(req.url ?? ''),
    );
    const url = cluster.url(new URL(a.server.store.postgres!.pool.options.connectionString!).pathname.slice(1));
    const upstream = { baseUrl: proxy.url, apiKey: ADMIN };
    const lease = { leaseTtlMs: 300, writeBudgetMs: 2_000 };
    const [a2, b2] = await Promise.all([
      startReplica(url, upstream, {}, lease),
      startReplica(url, upstream, {}, lease),
    ]);
    const orgs = (await sandbox.api.get('/v3/enterprise/organizations?first=200')).body.items.map((o: any) => o.org_id);
    const org = orgs[6]!; // 16 permissions
    const cookie = await a2.signIn();
    const outcomes: string[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        const items = (await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions?first=200`))
          .body.items;
        const version = gitPermissionSetVersion(items);
        const base = items.map(permissionInput);
        const path = `/console/git-permissions/orgs/${org}`;
        const viaA = a2.call('PUT', path, { cookie, json: { base_version: version, permissions: base.slice(1) } });
        await new Promise((r) => setTimeout(r, 250));
        await cluster.stop();
        await new Promise((r) => setTimeout(r, 500));
        await cluster.start();
        // "Once it is back" is B's own readiness: on a loaded machine the pool may need a moment to reconnect.
        for (const until = Date.now() + 10_000; Date.now() < until;) {
          if ((await b2.call('GET', '/console/readyz')).status === 200) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const rb = await b2.call('PUT', path, {
          cookie,
          json: {
            base_version: version,
            permissions: base.map((p: any, i: number) => (i ? p : { ...p, read_only: !p.read_only })),
          },
        });
        const ra = await viaA;
        outcomes.push(`${ra.status}${ra.body?.reason ? ` ${ra.body.reason}` : ''}/${rb.status}`);
        // A lost its lease while the database was down (or met the database still down): it wrote nothing and
        // says so; B's change applies.
        expect(ra.status, `round ${round}`).toBe(503);
        expect(ra.body.detail).toMatch(/Nothing was applied/);
        expect(rb.status, `round ${round}`).toBe(200);
        const now = await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions?first=200`);
        expect(gitPermissionSetVersion(now.body.items)).toBe(rb.body.version);
      }
      const hist = await b2.call('GET', `/console/git-permissions/orgs/${org}/revisions?first=50`, { cookie });
      // Every applied change built on the one before it: none was silently overwritten.
      const applied = hist.body.items.filter((r: any) => r.status === 'applied').reverse();
      expect(applied).toHaveLength(3);
      for (let i = 1; i < applied.length; i++) expect(applied[i].previous_version).toBe(applied[i - 1].result_version);
      expect(hist.body.items.filter((r: any) => r.status === 'applying')).toEqual([]);
      console.info(`[fencing] database restart rounds (A/B): ${outcomes.join(', ')}`);
    } finally {
      await Promise.all([a2.close(), b2.close()]);
      await proxy.close();
    }
  }, 30_000);
});
