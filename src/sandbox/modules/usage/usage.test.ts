/**
 * Usage, consumption and capacity over real HTTP: daily buckets split at 08:00 UTC, totals equal to the sessions'
 * compute units, organizations adding up to the enterprise, a new session in today's figures, the queue and the
 * hypervisors with their filters, active users, searches, cycles, and refused input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingDayStart, DAY_SECONDS } from '../../../api/billing-day';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';

type Sandbox = Awaited<ReturnType<typeof startTestSandbox>>;
let sb: Sandbox;
let orgIds: string[];
let now: number;

interface Consumption {
  total_acus: number;
  consumption_by_date: Array<{ date: number; acus: number; acus_by_product: Record<string, number> }>;
}

async function readAll<T>(s: Sandbox, path: string): Promise<T[]> {
  const out: T[] = [];
  let after: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const res: { status: number; body: any } = await s.api.get(
      `${path}${sep}first=200${after ? `&after=${after}` : ''}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

async function get<T = any>(s: Sandbox, path: string, token: string = ADMIN): Promise<T> {
  const res = await s.api.get(path, token);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as T;
}

/** A session row written straight into the store (the ledger's triggers see it as any other). */
function insertSession(
  s: Sandbox,
  fields: { org_id: string; updated_at: number; acus: number; created_at?: number; status?: string; user_id?: string },
): string {
  const id = `session-test${Math.random().toString(16).slice(2, 14)}`;
  s.db
    .prepare(
      `INSERT INTO sessions (session_id, org_id, status, prompt, origin, created_at, updated_at, acus_consumed, user_id)
       VALUES (?, ?, ?, 'test', 'webapp', ?, ?, ?, ?)`,
    )
    .run(
      id,
      fields.org_id,
      fields.status ?? 'exit',
      fields.created_at ?? fields.updated_at - 600,
      fields.updated_at,
      fields.acus,
      fields.user_id ?? null,
    );
  return id;
}

beforeAll(async () => {
  // A slow tick: the seeded live sessions stay as seeded while these tests read.
  sb = await startTestSandbox({ tickMs: 600_000 });
  orgIds = (await get(sb, '/v3/enterprise/organizations')).items.map((o: { org_id: string }) => o.org_id);
  now = Math.floor(Date.now() / 1000);
});
afterAll(() => sb.stop());

describe('daily consumption', () => {
  it('splits days exactly at 08:00:00 UTC: 07:59:59 and 08:00:00 fall on different days', async () => {
    const org = (
      await sb.api.call('POST', '/v3/enterprise/organizations', { body: { name: `Billing boundary ${Date.now()}` } })
    ).body as { org_id: string };
    const boundary = billingDayStart(now) - 10 * DAY_SECONDS; // 08:00:00 UTC ten days ago
    expect(new Date(boundary * 1000).toISOString()).toMatch(/T08:00:00\.000Z$/);
    insertSession(sb, { org_id: org.org_id, updated_at: boundary - 1, acus: 1.25 });
    insertSession(sb, { org_id: org.org_id, updated_at: boundary, acus: 2.5 });
    const body = await get<Consumption>(
      sb,
      `/v3/enterprise/consumption/daily/organizations/${org.org_id}?time_after=${boundary - DAY_SECONDS}&time_before=${boundary + DAY_SECONDS}`,
    );
    expect(body.consumption_by_date).toEqual([
      { date: boundary - DAY_SECONDS, acus: 1.25, acus_by_product: { agent: 1.25 } },
      { date: boundary, acus: 2.5, acus_by_product: { agent: 2.5 } },
    ]);
    expect(body.total_acus).toBe(3.75);
    // A range ending at 08:00:00 leaves the 08:00:00 session out (half-open).
    const before = await get<Consumption>(
      sb,
      `/v3/enterprise/consumption/daily/organizations/${org.org_id}?time_after=${boundary - DAY_SECONDS}&time_before=${boundary}`,
    );
    expect(before.total_acus).toBe(1.25);
    expect(before.consumption_by_date.map((d) => d.date)).toEqual([boundary - DAY_SECONDS]);
  });

  it("totals the sessions' compute units in range, day by day and product by product", async () => {
    const after = billingDayStart(now) - 29 * DAY_SECONDS;
    const before = billingDayStart(now) + DAY_SECONDS;
    const body = await get<Consumption>(
      sb,
      `/v3/enterprise/consumption/daily?time_after=${after}&time_before=${before}`,
    );
    expect(body.consumption_by_date).toHaveLength(30);
    expect(body.consumption_by_date.every((d, i) => d.date === after + i * DAY_SECONDS)).toBe(true);
    const sessions = await readAll<{ acus_consumed: number }>(
      sb,
      `/v3/enterprise/sessions?updated_after=${after}&updated_before=${before}`,
    );
    const cents = sessions.reduce((n, s) => n + Math.round(s.acus_consumed * 100), 0);
    expect(sessions.length).toBeGreaterThan(100);
    expect(Math.round(body.total_acus * 100)).toBe(cents);
    for (const d of body.consumption_by_date) {
      const sum = Object.values(d.acus_by_product).reduce((n, x) => n + Math.round(x * 100), 0);
      expect(sum).toBe(Math.round(d.acus * 100));
    }
    expect(Math.round(body.consumption_by_date.reduce((n, d) => n + d.acus * 100, 0))).toBe(cents);
    // More than one product is billed.
    const products = new Set(body.consumption_by_date.flatMap((d) => Object.keys(d.acus_by_product)));
    expect([...products].sort()).toEqual(['agent', 'automation', 'terminal']);
  });

  it("adds up: the organizations' figures sum to the enterprise's, day by day", async () => {
    const after = billingDayStart(now) - 89 * DAY_SECONDS;
    const before = billingDayStart(now) + DAY_SECONDS;
    const q = `time_after=${after}&time_before=${before}`;
    const all = (await get(sb, '/v3/enterprise/organizations?first=200')).items.map(
      (o: { org_id: string }) => o.org_id,
    );
    const enterprise = await get<Consumption>(sb, `/v3/enterprise/consumption/daily?${q}`);
    const perOrg = await Promise.all(
      all.map((id: string) => get<Consumption>(sb, `/v3/enterprise/consumption/daily/organizations/${id}?${q}`)),
    );
    const orgCents = perOrg.reduce((n, o) => n + Math.round(o.total_acus * 100), 0);
    expect(orgCents).toBe(Math.round(enterprise.total_acus * 100));
    enterprise.consumption_by_date.forEach((day, i) => {
      const sum = perOrg.reduce((n, o) => n + Math.round(o.consumption_by_date[i]!.acus * 100), 0);
      expect(sum, `day ${day.date}`).toBe(Math.round(day.acus * 100));
    });
    expect(enterprise.total_acus).toBeGreaterThan(1_000);
  });

  it('defaults to the current cycle, and answers per user and per service user', async () => {
    const cycles = await get(sb, '/v3/enterprise/consumption/cycles');
    const current = cycles.items[0] as { after: number; before: number };
    const body = await get<Consumption>(sb, '/v3/enterprise/consumption/daily');
    expect(body.consumption_by_date[0]!.date).toBe(current.after);
    expect(body.consumption_by_date.at(-1)!.date).toBe(billingDayStart(now));

    const user = sb.db.prepare('SELECT user_id FROM sessions WHERE user_id IS NOT NULL LIMIT 1').get() as {
      user_id: string;
    };
    const q = `time_after=${billingDayStart(now) - 89 * DAY_SECONDS}&time_before=${now + 1}`;
    const perUser = await get<Consumption>(sb, `/v3/enterprise/consumption/daily/users/${user.user_id}?${q}`);
    const expected = sb.db
      .prepare(
        'SELECT SUM(CAST(ROUND(acus_consumed * 100) AS INTEGER)) AS c FROM sessions WHERE user_id = ? AND updated_at >= ? AND updated_at < ?',
      )
      .get(user.user_id, billingDayStart(now) - 89 * DAY_SECONDS, now + 1) as { c: number };
    expect(Math.round(perUser.total_acus * 100)).toBe(expected.c);
    const su = await get<Consumption>(sb, `/v3/enterprise/consumption/daily/service-users/service-user-ci-bot?${q}`);
    expect(su.total_acus).toBeGreaterThan(0);
  });

  it('lists billing cycles newest first, contiguous, each starting at 08:00 UTC on the same day of the month', async () => {
    const cycles = await readAll<{ after: number; before: number }>(sb, '/v3/enterprise/consumption/cycles');
    expect(cycles.length).toBeGreaterThan(12);
    expect(cycles[0]!.after <= now && now < cycles[0]!.before).toBe(true);
    const days = new Set(cycles.map((c) => new Date(c.after * 1000).getUTCDate()));
    expect(days.size).toBe(1);
    for (let i = 0; i < cycles.length; i++) {
      expect(new Date(cycles[i]!.after * 1000).toISOString()).toMatch(/T08:00:00\.000Z$/);
      if (i > 0) expect(cycles[i]!.before).toBe(cycles[i - 1]!.after);
    }
  });
});

describe('usage metrics', () => {
  it("counts an organization's sessions, searches and pull requests from the store", async () => {
    const orgId = orgIds[0]!;
    const after = billingDayStart(now) - 29 * DAY_SECONDS;
    const before = now + 1;
    const m = await get(sb, `/v3/organizations/${orgId}/metrics/usage?time_after=${after}&time_before=${before}`);
    const created = await readAll<unknown>(
      sb,
      `/v3/organizations/${orgId}/sessions?created_after=${after}&created_before=${before}`,
    );
    expect(m.sessions_count).toBe(created.length);
    const updated = await readAll<{ pull_requests: Array<{ pr_state: string }> }>(
      sb,
      `/v3/organizations/${orgId}/sessions?updated_after=${after}&updated_before=${before}`,
    );
    const prs = updated.flatMap((s) => s.pull_requests);
    expect(m.prs_created_count).toBe(prs.length);
    expect(m.prs_merged_count).toBe(prs.filter((p) => p.pr_state === 'merged').length);
    expect(m.prs_merged_count).toBeGreaterThan(0);
    const searches = await readAll<unknown>(
      sb,
      `/v3/organizations/${orgId}/searches?time_after=${after}&time_before=${before}`,
    );
    expect(m.searches_count).toBe(searches.length);
    expect(m.searches_count).toBeGreaterThan(0);
    // Without a range: all time, at least as much.
    const all = await get(sb, `/v3/organizations/${orgId}/metrics/usage`);
    expect(all.sessions_count).toBeGreaterThanOrEqual(m.sessions_count);
  });

  it('counts active users per billing day, week and month, never more in a day than over the range', async () => {
    const after = billingDayStart(now) - 29 * DAY_SECONDS;
    const before = billingDayStart(now) + DAY_SECONDS;
    const q = `time_after=${after}&time_before=${before}`;
    const dau = await get<Array<{ active_users: number; start_time: number; end_time: number }>>(
      sb,
      `/v3/enterprise/metrics/dau?${q}`,
    );
    expect(dau).toHaveLength(30);
    expect(
      dau.every((d, i) => d.start_time === after + i * DAY_SECONDS && d.end_time === d.start_time + DAY_SECONDS),
    ).toBe(true);
    const wau = await get<typeof dau>(sb, `/v3/enterprise/metrics/wau?${q}`);
    expect(wau.map((w) => w.end_time - w.start_time)).toEqual([...Array(4).fill(7 * DAY_SECONDS), 2 * DAY_SECONDS]);
    const mau = await get<typeof dau>(sb, `/v3/enterprise/metrics/mau?${q}`);
    expect(mau[0]!.start_time).toBe(after);
    expect(mau.at(-1)!.end_time).toBe(before);
    const total = await get<{ active_users: number }>(sb, `/v3/enterprise/metrics/active-users?${q}`);
    expect(total.active_users).toBeGreaterThan(0);
    expect(Math.max(...dau.map((d) => d.active_users))).toBeLessThanOrEqual(total.active_users);
    expect(Math.max(...wau.map((d) => d.active_users))).toBeLessThanOrEqual(total.active_users);
    // Only searches count when min_sessions is 0; filtered to one organization, no more than the enterprise.
    const one = await get(sb, `/v3/enterprise/metrics/active-users?${q}&org_ids=${orgIds[0]}`);
    expect(one.active_users).toBeLessThanOrEqual(total.active_users);
    const searchersOnly = await get(sb, `/v3/enterprise/metrics/active-users?${q}&min_sessions=0`);
    expect(searchersOnly.active_users).toBeLessThanOrEqual(total.active_users);
  });

  it('reports pull requests, sessions by origin and size, and searches for the enterprise', async () => {
    const q = `time_after=${billingDayStart(now) - 29 * DAY_SECONDS}&time_before=${now + 1}`;
    const usage = await get(sb, `/v3/enterprise/metrics/usage?${q}`);
    const prs = await get(sb, `/v3/enterprise/metrics/prs?${q}`);
    expect(prs.prs_created_count).toBe(usage.prs_created_count);
    expect(prs.prs_merged_count + prs.prs_opened_count + prs.prs_closed_count).toBe(prs.prs_created_count);
    const sessions = await get(sb, `/v3/enterprise/metrics/sessions?${q}`);
    expect(sessions.sessions_created_count).toBe(usage.sessions_count);
    const sum = (r: Record<string, number>) => Object.values(r).reduce((n, x) => n + x, 0);
    expect(sum(sessions.sessions_created_by_origin)).toBe(usage.sessions_count);
    expect(sum(sessions.sessions_created_by_size)).toBe(usage.sessions_count);
    const searches = await get(sb, `/v3/enterprise/metrics/searches?${q}`);
    expect(searches.searches_created_count).toBe(usage.searches_count);
  });
});

describe('queue and hypervisors', () => {
  it('counts queued sessions (new, claimed, resuming) and answers the indicator', async () => {
    const q = await get<{ queue_size: number; status: string }>(sb, '/v3/enterprise/queue');
    const n = (
      sb.db.prepare(`SELECT count(*) AS n FROM sessions WHERE status IN ('new', 'claimed', 'resuming')`).get() as {
        n: number;
      }
    ).n;
    expect(q.queue_size).toBe(n);
    expect(['normal', 'elevated', 'high']).toContain(q.status);
    // Empty the queue, then fill it: normal → elevated → high as sessions wait per available hypervisor.
    const saved = sb.db
      .prepare(`SELECT session_id, status FROM sessions WHERE status IN ('new', 'claimed', 'resuming')`)
      .all() as Array<{ session_id: string; status: string }>;
    sb.db.prepare(`UPDATE sessions SET status = 'exit' WHERE status IN ('new', 'claimed', 'resuming')`).run();
    expect(await get(sb, '/v3/enterprise/queue')).toEqual({ queue_size: 0, status: 'normal' });
    const hosts = (await readAll<unknown>(sb, '/v3/enterprise/hypervisors')).length;
    const ids: string[] = [];
    for (let i = 0; i < hosts * 2; i++)
      ids.push(insertSession(sb, { org_id: orgIds[0]!, updated_at: now, acus: 0, status: 'new' }));
    expect(await get(sb, '/v3/enterprise/queue')).toEqual({ queue_size: hosts * 2, status: 'elevated' });
    for (let i = 0; i < hosts * 3; i++)
      ids.push(insertSession(sb, { org_id: orgIds[0]!, updated_at: now, acus: 0, status: 'claimed' }));
    expect((await get(sb, '/v3/enterprise/queue')).status).toBe('high');
    // Put the store back.
    sb.db.prepare(`DELETE FROM sessions WHERE session_id IN (${ids.map(() => '?').join(',')})`).run(...ids);
    const restore = sb.db.prepare('UPDATE sessions SET status = ? WHERE session_id = ?');
    for (const s of saved) restore.run(s.status, s.session_id);
  });

  it('filters hypervisors by status (default available, all for every one) and refuses an unknown one', async () => {
    const all = await readAll<{ status: string; utilization_percentage: number }>(
      sb,
      '/v3/enterprise/hypervisors?status=all',
    );
    const statuses = new Set(all.map((h) => h.status));
    expect([...statuses].sort()).toEqual(['available', 'disconnected', 'draining', 'restarting', 'terminated']);
    const byDefault = await readAll<{ status: string }>(sb, '/v3/enterprise/hypervisors');
    expect(byDefault.length).toBe(all.filter((h) => h.status === 'available').length);
    expect(byDefault.every((h) => h.status === 'available')).toBe(true);
    for (const s of statuses) {
      const list = await readAll<{ status: string }>(sb, `/v3/enterprise/hypervisors?status=${s}`);
      expect(list.length).toBe(all.filter((h) => h.status === s).length);
      expect(list.every((h) => h.status === s)).toBe(true);
    }
    expect(all.every((h) => h.utilization_percentage >= 0 && h.utilization_percentage <= 100)).toBe(true);
    const bad = await sb.api.get('/v3/enterprise/hypervisors?status=melting');
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['query', 'status']);
    // Paging holds.
    const page = await get(sb, '/v3/enterprise/hypervisors?status=all&first=5');
    expect(page.items).toHaveLength(5);
    expect(page.has_next_page).toBe(true);
  });

  it('moves utilization with the number of running sessions', async () => {
    const util = async () =>
      (await readAll<{ utilization_percentage: number }>(sb, '/v3/enterprise/hypervisors')).reduce(
        (n, h) => n + h.utilization_percentage,
        0,
      );
    const saved = sb.db.prepare(`SELECT session_id FROM sessions WHERE status = 'running'`).all() as Array<{
      session_id: string;
    }>;
    sb.db.prepare(`UPDATE sessions SET status = 'suspended' WHERE status = 'running'`).run();
    const idle = await util();
    const ids = Array.from({ length: 60 }, () =>
      insertSession(sb, { org_id: orgIds[1]!, updated_at: now, acus: 0, status: 'running' }),
    );
    const busy = await util();
    expect(busy).toBeGreaterThan(idle + 50);
    sb.db.prepare(`DELETE FROM sessions WHERE session_id IN (${ids.map(() => '?').join(',')})`).run(...ids);
    const restore = sb.db.prepare(`UPDATE sessions SET status = 'running' WHERE session_id = ?`);
    for (const s of saved) restore.run(s.session_id);
  });
});

describe('searches', () => {
  it("lists an organization's searches and the enterprise's, newest first", async () => {
    const org = await readAll<{ org_id: string; created_at: number; query: string }>(
      sb,
      `/v3/organizations/${orgIds[0]}/searches`,
    );
    expect(org.length).toBeGreaterThan(50);
    expect(org.every((s) => s.org_id === orgIds[0] && typeof s.query === 'string')).toBe(true);
    expect(org.every((s, i) => i === 0 || org[i - 1]!.created_at >= s.created_at)).toBe(true);
    const all = await get(sb, '/v3/enterprise/searches?first=1');
    const filtered = await readAll<{ org_id: string }>(sb, `/v3/enterprise/searches?org_ids=${orgIds[0]}`);
    expect(filtered.length).toBe(org.length);
    expect(all.total).toBeGreaterThan(org.length);
  });
});

describe('refused input', () => {
  const problem = async (path: string, status: number, token: string = ADMIN) => {
    const res = await sb.api.get(path, token);
    expect(res.status, `${path}: ${res.text}`).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    return res.body as { detail: string; errors?: Array<{ loc: Array<string | number>; msg: string }> };
  };

  it('answers 422 for time_after later than (or equal to) time_before, naming the field', async () => {
    for (const path of [
      '/v3/enterprise/consumption/daily?time_after=2000&time_before=1000',
      '/v3/enterprise/consumption/daily?time_after=1000&time_before=1000',
      `/v3/organizations/${orgIds[0]}/metrics/usage?time_after=2000&time_before=1000`,
      '/v3/enterprise/metrics/dau?time_after=2000&time_before=1000',
    ]) {
      const body = await problem(path, 422);
      expect(body.errors![0]!.loc).toEqual(['query', 'time_after']);
      expect(body.errors![0]!.msg).toMatch(/must be earlier than time_before/);
    }
    // Only a late time_after against the default time_before (now).
    const late = await problem(`/v3/enterprise/consumption/daily?time_after=${now + 10 * DAY_SECONDS}`, 422);
    expect(late.errors![0]!.loc).toEqual(['query', 'time_after']);
  });

  it('answers 422 for a non-integer time, a range over 400 days and both thresholds 0', async () => {
    for (const bad of ['1.5', 'abc', '1e9', '-5']) {
      const body = await problem(`/v3/enterprise/consumption/daily?time_after=${bad}&time_before=2000000000`, 422);
      expect(body.errors![0]!.loc).toEqual(['query', 'time_after']);
    }
    const long = await problem(`/v3/enterprise/consumption/daily?time_after=0&time_before=${401 * DAY_SECONDS}`, 422);
    expect(long.errors![0]!.msg).toMatch(/at most 400 days/);
    const req = await problem('/v3/enterprise/metrics/dau', 422);
    expect(req.errors!.map((e) => e.loc.at(-1)).sort()).toEqual(['time_after', 'time_before']);
    await problem(
      `/v3/enterprise/metrics/active-users?time_after=0&time_before=1000&min_sessions=0&min_searches=0`,
      422,
    );
  });

  it('answers 404 for an unknown organization, user or service user', async () => {
    await problem('/v3/enterprise/consumption/daily/organizations/org-doesnotexist', 404);
    await problem('/v3/organizations/org-doesnotexist/metrics/usage', 404);
    await problem('/v3/organizations/org-doesnotexist/searches', 404);
    await problem('/v3/enterprise/consumption/daily/users/user-nobody', 404);
    await problem('/v3/enterprise/consumption/daily/service-users/service-user-nobody', 404);
  });

  it('answers 403 naming ManageBilling to a viewer reading consumption; the viewer reads metrics and capacity', async () => {
    const body = await problem('/v3/enterprise/consumption/daily', 403, VIEWER);
    expect(body.detail).toMatch(/ManageBilling/);
    expect((await sb.api.get('/v3/enterprise/queue', VIEWER)).status).toBe(200);
    expect((await sb.api.get('/v3/enterprise/hypervisors', VIEWER)).status).toBe(200);
    expect((await sb.api.get(`/v3/organizations/${orgIds[0]}/metrics/usage`, VIEWER)).status).toBe(200);
  });
});

describe("a new session in today's figures", () => {
  let live: Sandbox;
  beforeAll(async () => {
    live = await startTestSandbox({ tickMs: 30 });
  });
  afterAll(() => live.stop());

  it("counts a session created now in today's sessions and queue, and its compute units in today's consumption", async () => {
    const orgId = (await get(live, '/v3/enterprise/organizations')).items[0].org_id as string;
    const t = Math.floor(Date.now() / 1000);
    const today = `time_after=${billingDayStart(t)}&time_before=${billingDayStart(t) + DAY_SECONDS}`;
    const before = await get(live, `/v3/organizations/${orgId}/metrics/usage?${today}`);
    const userId = `user-usage-test-${Date.now().toString(16)}`;
    expect((await live.api.get(`/v3/enterprise/consumption/daily/users/${userId}?${today}`)).status).toBe(404);
    const created = await live.api.call('POST', `/v3/organizations/${orgId}/sessions`, {
      body: { prompt: 'Bump the lodash version in acme/web-app', create_as_user_id: userId },
    });
    expect(created.status).toBe(200);
    const sessionId = created.body.session_id as string;
    const after = await get(live, `/v3/organizations/${orgId}/metrics/usage?${today}`);
    expect(after.sessions_count).toBe(before.sessions_count + 1);
    const dau = await get<Array<{ active_users: number }>>(
      live,
      `/v3/enterprise/metrics/dau?${today}&org_ids=${orgId}`,
    );
    expect(dau[0]!.active_users).toBeGreaterThan(0);

    // As the simulation runs it, its compute units land on today's billing day, for its user.
    const deadline = Date.now() + 25_000;
    const { acus, consumed } = await (async () => {
      for (;;) {
        const s = await get(live, `/v3/organizations/${orgId}/sessions/${sessionId}`);
        // Read after the session: once it has ended, nothing more lands on it.
        const c = await get<Consumption>(live, `/v3/enterprise/consumption/daily/users/${userId}?${today}`);
        if (['exit', 'error', 'suspended'].includes(s.status) && s.acus_consumed > 0) {
          return { acus: s.acus_consumed as number, consumed: c.total_acus };
        }
        if (Date.now() > deadline) throw new Error(`session still ${s.status}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    expect(consumed).toBeCloseTo(acus, 2);
    const c = await get<Consumption>(live, `/v3/enterprise/consumption/daily/users/${userId}?${today}`);
    expect(c.consumption_by_date).toHaveLength(1);
    expect(c.consumption_by_date[0]!.date).toBe(billingDayStart(t));
  });

  it('puts a session created now into the queue until it runs', async () => {
    const frozen = await startTestSandbox({ tickMs: 600_000 });
    try {
      const orgId = (await get(frozen, '/v3/enterprise/organizations')).items[0].org_id as string;
      const q0 = await get(frozen, '/v3/enterprise/queue');
      await frozen.api.call('POST', `/v3/organizations/${orgId}/sessions`, { body: { prompt: 'Add a changelog' } });
      const q1 = await get(frozen, '/v3/enterprise/queue');
      expect(q1.queue_size).toBe(q0.queue_size + 1);
    } finally {
      await frozen.stop();
    }
  });
});
