/**
 * Issue 20: the database goes away for a few seconds under two console replicas. While it is gone, what needs
 * it answers clear 503 problems (never a crash, never a silent pass), and /console/health says why; when it is
 * back, both replicas recover by themselves, and nothing is lost: the session still works, the history is
 * whole and new changes are recorded. This file stops its own throwaway cluster (not the run's shared one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestSandbox } from '../../test/harness';
import { startPostgresCluster, type PostgresCluster } from '../../test/postgres';
import { permissionInput, startReplica, type Replica } from '../../test/replicas';

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
