/**
 * Issue 27: replicas an operator can trust, on the run's shared PostgreSQL cluster.
 *   - Every console connection cut (pg_terminate_backend) in the middle of two replicas' changes to one set
 *     never yields two 200s for one version (the lease is a row, so a cut connection does not lose it).
 *   - 24 concurrent guarded changes on one replica (a pool of 10, 4 running at once) all answer 200; none is
 *     left `applying`.
 *   - A replica that dies between its upstream write and recording it leaves a revision `applying`; another
 *     replica finds it once the lease has run out and marks it applied.
 *   - `/console/readyz` answers 503 while the API is unreachable and 200 again by itself; `/console/livez` 200.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitPermissionSetVersion } from '../../api/git-permissions/set-diff';
import { ADMIN, startTestSandbox } from '../../test/harness';
import { newTestDatabase } from '../../test/pg-database';
import { permissionInput, startDelayingProxy, startReplica, type Replica } from '../../test/replicas';

let url: string;
let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let proxy: Awaited<ReturnType<typeof startDelayingProxy>>;
let a: Replica;
let b: Replica;
let cookie: string;
let orgs: string[];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const path = (org: string) => `/console/git-permissions/orgs/${org}`;

beforeAll(async () => {
  [url, sandbox] = await Promise.all([newTestDatabase('fencing'), startTestSandbox()]);
  // Reads of a set and every write take 80 ms: the changes overlap, and a cut lands in the middle of one.
  proxy = await startDelayingProxy(
    sandbox.url,
    80,
    (req) => /\/git-providers\/permissions/.test(req.url ?? '') && !/first=1$/.test(req.url ?? ''),
  );
  const upstream = { baseUrl: proxy.url, apiKey: ADMIN };
  [a, b] = await Promise.all([
    startReplica(url, upstream, {}, {}, { readinessCacheMs: 0 }),
    startReplica(url, upstream, { reconcileIntervalS: 1 }),
  ]);
  cookie = await a.signIn();
  orgs = (await sandbox.api.get('/v3/enterprise/organizations?first=200')).body.items.map((o: any) => o.org_id);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await proxy?.close();
  await sandbox?.stop();
});

/** Revisions of every set still `applying`, straight from the database. */
async function applyingRows(): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT (SELECT count(*) FROM git_permission_revisions WHERE status = 'applying') +
              (SELECT count(*) FROM ip_access_list_revisions WHERE status = 'applying') AS n`,
    );
    return Number(r.rows[0].n);
  } finally {
    await client.end();
  }
}

describe('fencing: a cut connection in the middle of a change', () => {
  it('never answers two 200s for one version (5 rounds, every console connection terminated 100 ms in)', async () => {
    const org = orgs[2]!; // 12 permissions
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const outcomes: string[] = [];
    let oks = 0;
    try {
      for (let round = 0; round < 5; round++) {
        // The set straight from the sandbox (not slowed), with the version the console computes.
        const items = (await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions?first=200`))
          .body.items;
        const start = { body: { version: gitPermissionSetVersion(items) } };
        const base = items.map(permissionInput);
        const editA = base.slice(1);
        const editB = base.map((p: any, i: number) => (i === 0 ? { ...p, read_only: !p.read_only } : p));
        const viaA = a.call('PUT', path(org), {
          cookie,
          json: { base_version: start.body.version, permissions: editA },
        });
        await sleep(20);
        const viaB = b.call('PUT', path(org), {
          cookie,
          json: { base_version: start.body.version, permissions: editB },
        });
        await sleep(80);
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'agent-platform-console'`,
        );
        const t = Date.now();
        const [ra, rb] = await Promise.all([viaA, viaB]);
        outcomes.push(`${ra.status}/${rb.status} ${Date.now() - t}ms`);
        const wins = [ra, rb].filter((r) => r.status === 200);
        expect(wins.length, `round ${round}: ${ra.status} ${rb.status}`).toBeLessThanOrEqual(1);
        oks += wins.length;
        // The winner's set is what the API holds; the loser was told nothing was applied (409 or 503).
        const now = await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions?first=200`);
        if (wins[0]) expect(gitPermissionSetVersion(now.body.items)).toBe(wins[0].body.version);
        else expect(now.body.items.length).toBe(base.length);
        for (const r of [ra, rb]) if (r.status !== 200) expect([409, 503]).toContain(r.status);
      }
      // History: one applied revision per 200, each from the version the one before it produced.
      const hist = await a.call('GET', `${path(org)}/revisions?first=100`, { cookie });
      // Every applied change built on the one before it: none was silently overwritten.
      const applied = hist.body.items.filter((r: any) => r.status === 'applied').reverse();
      expect(applied).toHaveLength(oks);
      for (let i = 1; i < applied.length; i++) expect(applied[i].previous_version).toBe(applied[i - 1].result_version);
      console.info(`[fencing] cut-connection rounds (A/B): ${outcomes.join(', ')}`);
    } finally {
      await admin.end();
    }
  }, 30_000);
});

describe('connections: 24 concurrent guarded changes on one replica', () => {
  it('all answer 200 (4 run at once, the rest queue), and no revision is left applying', async () => {
    // Three toggles in each of the seven organizations that have permissions, plus three more in the first.
    const targets: Array<{ org: string; id: string; ro: boolean }> = [];
    for (const org of orgs.slice(0, 7)) {
      const set = await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions?first=3`);
      for (const p of set.body.items.slice(0, 3)) targets.push({ org, id: p.git_permission_id, ro: !!p.read_only });
    }
    const extra = await sandbox.api.get(`/v3/enterprise/organizations/${orgs[0]}/git-providers/permissions?first=6`);
    for (const p of extra.body.items.slice(3, 6))
      targets.push({ org: orgs[0]!, id: p.git_permission_id, ro: !!p.read_only });
    expect(targets).toHaveLength(24);
    const t0 = Date.now();
    const answers = await Promise.all(
      targets.map((t) => a.call('PATCH', `${path(t.org)}/permissions/${t.id}`, { cookie, json: { read_only: !t.ro } })),
    );
    const ms = Date.now() - t0;
    expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
    for (const r of answers) expect(r.body.revision).toMatchObject({ status: 'applied' });
    expect(await applyingRows()).toBe(0);
    console.info(`[connections] 24 concurrent toggles on one replica: 24 × 200 in ${ms} ms`);
  }, 30_000);
});

describe('reconciliation', () => {
  it('a revision left applying by a replica that died after writing is marked applied by another', async () => {
    const org = orgs[5]!; // 8 permissions
    // Replica C writes through an API whose replace takes 500 ms; its lease lasts 300 ms, and a fence keeps it
    // for 1 s (longer than a write may take): once C is gone, its set is free again soon.
    const slowWrites = await startDelayingProxy(sandbox.url, 500, (req) => req.method === 'PUT');
    const c = await startReplica(
      url,
      { baseUrl: slowWrites.url, apiKey: ADMIN },
      {},
      { leaseTtlMs: 300, writeBudgetMs: 1_000 },
    );
    const start = await c.call('GET', path(org), { cookie });
    const base = start.body.items.map(permissionInput);
    const change = c.call('PUT', path(org), {
      cookie,
      json: { base_version: start.body.version, permissions: base.slice(2) },
    });
    // Once C's write has reached the API (it takes 500 ms there), C's database goes away for good: the replica
    // "dies" between writing and recording.
    for (const t = Date.now(); !slowWrites.seen.some((h) => h.startsWith('PUT')); await sleep(10)) {
      if (Date.now() - t > 5_000) throw new Error('C never wrote');
    }
    const died = Date.now();
    await c.server.store.postgres!.pool.end();
    const answer = await change;
    // C applied the change and could not record it: it says so, and does not call it a failure.
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ recorded: false, revision: null, unchanged: false });
    expect(answer.body.warning).toMatch(/applied/);
    const upstream = await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions?first=200`);
    expect(upstream.body.items).toHaveLength(base.length - 2);

    // B reconciles by itself (every second here): the revision is no longer applying.
    let rev: any;
    for (;;) {
      const hist = await b.call('GET', `${path(org)}/revisions?first=5`, { cookie });
      rev = hist.body.items[0];
      if (rev && rev.status !== 'applying') break;
      if (Date.now() - died > 10_000) throw new Error('not reconciled within 10 s');
      await sleep(100);
    }
    const tookMs = Date.now() - died;
    expect(rev).toMatchObject({ status: 'applied', reconciled_outcome: 'applied', result_count: base.length - 2 });
    expect(rev.reconciled_at).toBeGreaterThan(0);
    console.info(`[reconciliation] C ${answer.status}, reconciled by B in ${tookMs} ms`);
    await c.close().catch(() => undefined);
    await slowWrites.close();
  }, 20_000);
});

describe('readiness', () => {
  it('/console/readyz is 503 while the API is unreachable and 200 again by itself; /console/livez stays 200', async () => {
    const ready = await a.call('GET', '/console/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      store: { kind: 'postgres', state: 'ok' },
      upstream: { state: 'ok', error: null },
    });
    proxy.setDown(true);
    try {
      const down = await a.call('GET', '/console/readyz');
      expect(down.status).toBe(503);
      expect(down.headers['content-type']).toBe('application/problem+json');
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      expect(down.body).toMatchObject({ status: 503, store: { state: 'ok' }, upstream: { state: 'unavailable' } });
      expect(down.body.detail).toMatch(/the API/);
      expect(down.body.upstream.since).toBeGreaterThanOrEqual(ready.body.upstream.since);
      expect((await a.call('GET', '/console/livez')).status).toBe(200);
      // The old health endpoint keeps its meaning (the store only).
      expect((await a.call('GET', '/console/health')).status).toBe(200);
    } finally {
      proxy.setDown(false);
    }
    const back = await a.call('GET', '/console/readyz');
    expect(back.status).toBe(200);
    expect(back.body.upstream).toMatchObject({ state: 'ok', error: null });
  });
});
