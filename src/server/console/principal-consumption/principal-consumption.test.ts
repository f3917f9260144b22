/**
 * The console's read of every principal's consumption: the same figures as the API's per-principal reads, one
 * call; kept a short while; a slow upstream bounded by the deadline; a refused credential fails the whole read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_SECONDS } from '../../../api/billing-day';
import type { PrincipalConsumptionList } from '../../../api/console/principal-consumption';
import { startFakeUpstream } from '../../../test/fake-upstream';
import { startTestConsole } from '../../../test/harness';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';
import { createPrincipalConsumptionReader, readPrincipalConsumption } from '.';

const day0 = 1_790_496_000;
const range = { time_after: day0, time_before: day0 + 40 * DAY_SECONDS };

const member = (user_id: string) => ({ user_id, email: `${user_id}@example.com`, name: null, role_assignments: [] });
/** Two members (one on a second page) and one service user; each one's consumption as the API answers it. */
const UPSTREAM: Record<string, unknown> = {
  '/v3/enterprise/members/users?first=200': { items: [member('u-1')], end_cursor: 'p2', has_next_page: true },
  '/v3/enterprise/members/users?first=200&after=p2': { items: [member('u-2')], has_next_page: false },
  '/v3/enterprise/members/service-users?include_inactive=true&first=200': {
    items: [{ service_user_id: 's-1', name: 'CI', role_assignments: [] }],
    has_next_page: false,
  },
};

describe('GET /console/consumption/principals', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let c: Awaited<ReturnType<typeof startTestConsole>>;
  beforeAll(async () => {
    upstream = await startFakeUpstream((req, res) => {
      const url = new URL(req.url, 'http://x');
      const per = /^\/v3\/enterprise\/consumption\/daily\/(users|service-users)\/([^/]+)$/.exec(url.pathname);
      const body = per ? answer(per[2] === 'u-2' ? 0 : per[1] === 'users' ? 1.25 : 3) : UPSTREAM[req.url];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
    });
    c = await startTestConsole({ upstream: { baseUrl: upstream.url, apiKey: 'cog_test' } });
  });
  afterAll(async () => {
    await c.close();
    await upstream.close();
  });

  it("answers every member's and service user's days with compute units over the range, in one call", async () => {
    const q = `time_after=${range.time_after}&time_before=${range.time_before}`;
    const res = await c.api.get<PrincipalConsumptionList>(`/console/consumption/principals?${q}`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { kind: 'member', id: 'u-1', total_acus: 1.25, days: [{ date: day0 + DAY_SECONDS, acus: 1.25 }], error: null },
      { kind: 'member', id: 'u-2', total_acus: 0, days: [], error: null },
      { kind: 'service_user', id: 's-1', total_acus: 3, days: [{ date: day0 + DAY_SECONDS, acus: 3 }], error: null },
    ]);
    // Each principal's read asked for exactly the range.
    const reads = upstream.received.filter((r) => r.url.includes('/consumption/daily/'));
    expect(reads).toHaveLength(3);
    expect(reads.every((r) => r.url.endsWith(`?${q}`))).toBe(true);
    // Kept: the same range is answered again without reading the API again.
    const again = await c.api.get<PrincipalConsumptionList>(`/console/consumption/principals?${q}`);
    expect(again.body).toEqual(res.body);
    expect(upstream.received.filter((r) => r.url.includes('/consumption/daily/'))).toHaveLength(3);
  });

  it('refuses a range in the wrong order, naming the field', async () => {
    const res = await c.api.get(`/console/consumption/principals?time_after=200&time_before=100`);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('time_after');
  });
});

/** An upstream of two members and one service user; `consumption` answers each principal's read. */
function fakeUpstream(consumption: (id: string, signal?: AbortSignal) => Promise<unknown>): UpstreamClient & {
  calls: number;
} {
  const up = {
    calls: 0,
    all: async (id: string) =>
      id === 'members.users.list' ? [{ user_id: 'u-1' }, { user_id: 'u-2' }] : [{ service_user_id: 's-1' }],
    call: async (_id: string, args: { params?: Record<string, string>; signal?: AbortSignal } = {}) => {
      up.calls += 1;
      return consumption(args.params?.user_id ?? args.params?.service_user_id ?? '', args.signal);
    },
  };
  return up as unknown as UpstreamClient & { calls: number };
}

const answer = (acus: number) => ({
  total_acus: acus,
  consumption_by_date: [
    { date: day0, acus: 0 },
    { date: day0 + DAY_SECONDS, acus },
  ],
});

describe('readPrincipalConsumption', () => {
  it('bounds the whole read: principals not reached in time say so, the others are answered', async () => {
    const up = fakeUpstream((id, signal) =>
      id === 'u-2'
        ? new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))))
        : Promise.resolve(answer(1.5)),
    );
    const out = await readPrincipalConsumption(up, range, { concurrency: 8, deadlineMs: 100, now: Date.now });
    expect(out.items.map((i) => [i.kind, i.id, i.total_acus, i.error?.slice(0, 9) ?? null])).toEqual([
      ['member', 'u-1', 1.5, null],
      ['member', 'u-2', null, 'Not read:'],
      ['service_user', 's-1', 1.5, null],
    ]);
    expect(out.items[0]!.days).toEqual([{ date: day0 + DAY_SECONDS, acus: 1.5 }]);
  });

  it('fails as a whole when the API refuses the credential, and keeps nothing then', async () => {
    const refused = new UpstreamProblem(403, {
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: 'Missing permission ManageBilling',
    });
    const up = fakeUpstream(() => Promise.reject(refused));
    const read = createPrincipalConsumptionReader({ upstream: up });
    await expect(read(range)).rejects.toBe(refused);
    await expect(read(range)).rejects.toBe(refused);
    expect(up.calls).toBe(6);
  });

  it('keeps an answer without errors for a while, then reads again', async () => {
    let t = 1_000_000;
    const up = fakeUpstream(() => Promise.resolve(answer(2)));
    const read = createPrincipalConsumptionReader({ upstream: up, keepMs: 30_000, clock: () => t });
    const [a, b] = await Promise.all([read(range), read(range)]);
    expect(up.calls).toBe(3); // two requests at once share one read
    expect(b).toBe(a);
    t += 29_000;
    await read(range);
    expect(up.calls).toBe(3);
    t += 2_000;
    await read(range);
    expect(up.calls).toBe(6);
  });
});
