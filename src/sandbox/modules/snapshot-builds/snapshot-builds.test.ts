/** Snapshot builds over HTTP: filters, `active` (0 or 1 item), the seed, the simulation, 422s and 403s. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_BUILD_STATUSES } from '../../../api/operations/snapshot-builds';
import { VIEWER, startTestSandbox } from '../../../test/harness';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgIds: string[];

interface Build {
  build_id: string;
  status: string;
  trigger: string;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  updated_at: number;
  pinned: boolean;
  triggered_by_user_id: string;
}

const base = (orgId: string) => `/v3beta1/organizations/${orgId}/snapshot-setup/builds`;

async function all(orgId: string, query = ''): Promise<Build[]> {
  const out: Build[] = [];
  let after: string | null = null;
  do {
    const res: { status: number; body: any } = await sb.api.get(
      `${base(orgId)}?first=50${query}${after ? `&after=${after}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

beforeAll(async () => {
  // A slow tick: the simulation must not move builds while the seed is inspected.
  sb = await startTestSandbox({ tickMs: 60_000 });
  orgIds = (await sb.api.get('/v3/enterprise/organizations')).body.items.map((o: { org_id: string }) => o.org_id);
});
afterAll(() => sb.stop());

describe('seed', () => {
  it('every organization has months of builds in every status, newest first, some pinned', async () => {
    for (const orgId of orgIds) {
      const builds = await all(orgId);
      expect(new Set(builds.map((b) => b.status))).toEqual(new Set(SNAPSHOT_BUILD_STATUSES));
      const span = builds[0]!.created_at - builds[builds.length - 1]!.created_at;
      expect(span).toBeGreaterThan(90 * 86_400);
      const keys = builds.map((b) => [b.created_at, b.build_id] as const);
      for (let i = 1; i < keys.length; i++) expect(keys[i - 1]![0]).toBeGreaterThanOrEqual(keys[i]![0]);
      expect(builds.some((b) => b.pinned)).toBe(true);
      expect(new Set(builds.map((b) => b.trigger))).toEqual(new Set(['manual', 'auto']));
      for (const b of builds) {
        expect(b.build_id).toMatch(/^build-/);
        expect(typeof b.triggered_by_user_id).toBe('string');
        if (b.status === 'pending') expect(b.started_at ?? null).toBeNull();
        if (b.status === 'running') expect(b.started_at).toEqual(expect.any(Number));
        if (b.status === 'succeeded' || b.status === 'failed') {
          expect(b.completed_at! - b.started_at!).toBeGreaterThan(0);
        }
      }
    }
  });
});

describe('filters', () => {
  it.each(SNAPSHOT_BUILD_STATUSES)('status=%s keeps only that status', async (status) => {
    const builds = await all(orgIds[0]!, `&status=${status}`);
    expect(builds.length).toBeGreaterThan(0);
    expect(builds.every((b) => b.status === status)).toBe(true);
  });

  it('active=true answers exactly one build, a succeeded one, in every seeded organization', async () => {
    for (const orgId of orgIds) {
      const res = await sb.api.get(`${base(orgId)}?active=true`);
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(1);
      expect(res.body.items[0].status).toBe('succeeded');
      expect(res.body.has_next_page).toBe(false);
    }
  });

  it('active=true answers 0 items when combined with a status the active build does not have', async () => {
    const res: { status: number; body: any } = await sb.api.get(`${base(orgIds[0]!)}?active=true&status=failed`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });

  it('active=false leaves the active build out; no active parameter lists every build', async () => {
    const active = (await sb.api.get(`${base(orgIds[0]!)}?active=1`)).body.items[0] as Build;
    const rest = await all(orgIds[0]!, '&active=false');
    expect(rest.map((b) => b.build_id)).not.toContain(active.build_id);
    expect((await all(orgIds[0]!)).length).toBe(rest.length + 1);
  });

  it.each([
    ['status=done', 'status', /pending, running, succeeded, failed, cancelled/],
    ['status=RUNNING', 'status', /status must be one of/],
    ['active=maybe', 'active', /true or false/],
  ])('422 on %s', async (q, field, msg) => {
    const res: { status: number; body: any } = await sb.api.get(`${base(orgIds[0]!)}?${q}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ loc: ['query', field], msg: expect.stringMatching(msg) }),
    ]);
  });

  it('the viewer gets 403 naming ManageRepoBlueprints', async () => {
    const res = await sb.api.get(base(orgIds[0]!), VIEWER);
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageRepoBlueprints');
  });
});

describe('simulation', () => {
  it('moves builds in flight pending → running → succeeded/failed over ticks, keeping one active build', async () => {
    const live = await startTestSandbox({ tickMs: 20 });
    try {
      const orgId = (await live.api.get('/v3/enterprise/organizations?first=1')).body.items[0].org_id;
      const get = async (q: string) => (await live.api.get(`${base(orgId)}?first=200${q}`)).body.items as Build[];
      const pending = (await get('&status=pending')).map((b) => b.build_id);
      const running = (await get('&status=running')).map((b) => b.build_id);
      expect(pending.length).toBeGreaterThan(0);
      expect(running.length).toBeGreaterThan(0);
      const deadline = Date.now() + 8_000;
      let started: Build | undefined;
      let finished: Build | undefined;
      while (Date.now() < deadline && !(started && finished)) {
        await new Promise((r) => setTimeout(r, 100));
        const now = await get('');
        started ??= now.find((b) => pending.includes(b.build_id) && b.status === 'running');
        finished ??= now.find(
          (b) => running.includes(b.build_id) && (b.status === 'succeeded' || b.status === 'failed'),
        );
      }
      expect(started?.started_at).toEqual(expect.any(Number));
      expect(finished?.completed_at).toBeGreaterThanOrEqual(finished!.started_at!);
      expect((await get('&active=true')).length).toBe(1);
    } finally {
      await live.stop();
    }
  });
});
