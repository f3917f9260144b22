/**
 * Issue 20: two console replicas (two console servers, each with its own connection pool) on one PostgreSQL
 * database, in front of one sandbox. Sessions, links, sign-in backoff and history are shared; two bulk
 * replaces of one organization through different replicas serialize on the set's lease, so exactly one
 * applies and the other gets 409 with the difference. The sandbox's permission reads are slowed down so that,
 * without the shared lock, both replaces would read the old set and both apply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestSandbox } from '../../test/harness';
import { newTestDatabase } from '../../test/pg-database';
import { permissionInput, REPLICA_TOKEN, startDelayingProxy, startReplica, type Replica } from '../../test/replicas';
import { FREE_FAILURES } from '../access';

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let proxy: Awaited<ReturnType<typeof startDelayingProxy>>;
let a: Replica;
let b: Replica;
let orgs: string[];

beforeAll(async () => {
  const [url, sb] = await Promise.all([newTestDatabase('replicas'), startTestSandbox()]);
  sandbox = sb;
  // Reading a permission set takes 250 ms: long enough for two replicas' changes to overlap.
  proxy = await startDelayingProxy(
    sandbox.url,
    250,
    (req) => req.method === 'GET' && /\/git-providers\/permissions/.test(req.url ?? ''),
  );
  const upstream = { baseUrl: proxy.url, apiKey: ADMIN };
  [a, b] = await Promise.all([startReplica(url, upstream), startReplica(url, upstream)]);
  orgs = (await sandbox.api.get('/v3/enterprise/organizations?first=200')).body.items.map((o: any) => o.org_id);
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await proxy?.close();
  await sandbox?.stop();
});

describe('sign-in across replicas', () => {
  it('a session opened through one replica is signed in on the other, and signing out on either ends it', async () => {
    const cookie = await a.signIn();
    const onB = await b.call('GET', '/console/session', { cookie });
    expect(onB.status).toBe(200);
    expect(onB.body).toMatchObject({ signed_in: true, method: 'link' });
    // The proxy works through B with A's session.
    expect((await b.call('GET', '/api/v3/enterprise/organizations?first=1', { cookie })).status).toBe(200);

    const out = await b.call('POST', '/console/sign-out', { cookie, form: '' });
    expect(out.status).toBe(303);
    for (const r of [a, b]) {
      const res = await r.call('GET', '/console/session', { cookie });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ type: 'urn:agent-platform-console:sign-in-required' });
    }
  });

  it('a one-time link printed by one replica opens a session on the other, once', async () => {
    const link = await b.server.newSignInLink();
    const first = await a.call('GET', link);
    expect(first.status).toBe(303);
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect((await b.call('GET', '/console/session', { cookie })).status).toBe(200);
    // Used on A, refused on B.
    const again = await b.call('GET', link);
    expect(again.status).toBe(401);
    expect(again.text).toContain('already been used');
  });

  it('a session opened with the access token through one replica works on the other', async () => {
    const res = await b.call('POST', '/console/sign-in', { form: `token=${REPLICA_TOKEN}` });
    expect(res.status).toBe(303);
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    expect((await a.call('GET', '/console/session', { cookie })).body).toMatchObject({ method: 'token' });
  });
});

/** Organizations whose set one replace can take (3 to 200 permissions), each used by one test. */
async function smallSetOrgs(): Promise<string[]> {
  const found: string[] = [];
  for (const org of orgs) {
    const page = await sandbox.api.get(`/v3/enterprise/organizations/${org}/git-providers/permissions?first=200`);
    if (page.status === 200 && !page.body.has_next_page && page.body.items.length >= 3) found.push(org);
    if (found.length === 2) break;
  }
  return found;
}

describe('bulk replaces of one organization through different replicas', () => {
  let targets: string[];
  beforeAll(async () => {
    targets = await smallSetOrgs();
    expect(targets).toHaveLength(2);
  });

  it('exactly one applies; the other gets 409 with the difference; history shows each change once', async () => {
    const org = targets[0]!;
    const cookie = await a.signIn();
    const before = await a.call('GET', `/console/git-permissions/orgs/${org}`, { cookie });
    expect(before.status).toBe(200);
    const items: any[] = before.body.items;
    expect(items.length).toBeGreaterThan(2);
    const base = items.map(permissionInput);
    // A removes the first permission; B flips the last one's read_only.
    const editA = base.slice(1);
    const editB = base.map((p, i) => (i === base.length - 1 ? { ...p, read_only: !p.read_only } : p));
    const historyBefore = (await a.call('GET', `/console/git-permissions/orgs/${org}/revisions?first=50`, { cookie }))
      .body.total as number;

    const [viaA, viaB] = await Promise.all([
      a.call('PUT', `/console/git-permissions/orgs/${org}`, {
        cookie,
        json: { base_version: before.body.version, base, permissions: editA },
      }),
      b.call('PUT', `/console/git-permissions/orgs/${org}`, {
        cookie,
        json: { base_version: before.body.version, base, permissions: editB },
      }),
    ]);
    expect([viaA.status, viaB.status].sort()).toEqual([200, 409]);
    const [won, lost] = viaA.status === 200 ? [viaA, viaB] : [viaB, viaA];
    const wonEdit = won === viaA ? editA : editB;

    // The loser's problem names what changed since its edit started: the winner's change.
    expect(lost.headers['content-type']).toBe('application/problem+json');
    expect(lost.body).toMatchObject({
      status: 409,
      base_version: before.body.version,
      current_version: won.body.version,
    });
    const { added, removed, changed } = lost.body.changes;
    if (won === viaA) {
      expect([added.length, removed.length, changed.length]).toEqual([0, 1, 0]);
      expect(removed[0]).toMatchObject({ repo_path: base[0]!.repo_path });
    } else {
      expect([added.length, removed.length, changed.length]).toEqual([0, 0, 1]);
    }

    // The upstream holds exactly the winner's set.
    const now = await b.call('GET', `/console/git-permissions/orgs/${org}`, { cookie });
    expect(now.body.version).toBe(won.body.version);
    expect(now.body.count).toBe(wonEdit.length);

    // One new revision, the same through either replica.
    const histA = await a.call('GET', `/console/git-permissions/orgs/${org}/revisions?first=50`, { cookie });
    const histB = await b.call('GET', `/console/git-permissions/orgs/${org}/revisions?first=50`, { cookie });
    expect(histA.body.total).toBe(historyBefore + 1);
    expect(histB.body).toEqual(histA.body);
    expect(histA.body.items[0]).toMatchObject({
      action: 'replace',
      status: 'applied',
      previous_version: before.body.version,
      result_version: won.body.version,
    });
    // Revision numbers are not given twice.
    const ids = histA.body.items.map((r: any) => r.revision_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a restore through one replica of a revision made through the other', async () => {
    const org = targets[1]!;
    const cookie = await b.signIn(a);
    const start = await b.call('GET', `/console/git-permissions/orgs/${org}`, { cookie });
    const base = start.body.items.map(permissionInput);
    const cleared = await b.call('DELETE', `/console/git-permissions/orgs/${org}`, {
      cookie,
      json: { base_version: start.body.version, base },
    });
    expect(cleared.status).toBe(200);
    const revision = cleared.body.revision.revision_id as number;
    const restored = await a.call('POST', `/console/git-permissions/orgs/${org}/revisions/${revision}/restore`, {
      cookie,
      json: { base_version: cleared.body.version, set: 'previous' },
    });
    expect(restored.status).toBe(200);
    expect(restored.body.version).toBe(start.body.version);
    const hist = await b.call('GET', `/console/git-permissions/orgs/${org}/revisions?first=50`, { cookie });
    expect(hist.body.items.slice(0, 2).map((r: any) => [r.action, r.restored_from])).toEqual([
      ['restore', revision],
      ['clear', null],
    ]);
  });
});

describe('sign-in backoff across replicas', () => {
  // Last in this file: it blocks the test address from signing in for a while.
  it('failures through either replica count together, and both refuse the address', async () => {
    for (let i = 0; i < FREE_FAILURES; i++) {
      const r = i % 2 ? a : b;
      expect((await r.call('POST', '/console/sign-in', { form: 'token=wrong-token-0000000000' })).status).toBe(401);
    }
    for (const r of [a, b]) {
      const res = await r.call('POST', '/console/sign-in', { form: `token=${REPLICA_TOKEN}` });
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
