/**
 * Schedules over HTTP, on a clock the test moves: list (first/after and limit/offset), create, get, PATCH,
 * delete, runs; schedules that really run (one session per due run, with its prompt, playbook and tags),
 * failures counted and reset, one-time schedules that disable themselves, and bad input that changes nothing;
 * the vendor's fields, schedules paused when their creator or run-as principal is revoked, and the caps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULE_CAPS } from '../../../api/operations/schedules';
import { VIEWER, startTestSandbox } from '../../../test/harness';
import { advanceSchedules } from '.';

/** Monday 7 January 2030, 08:00:10 UTC. */
const START = Date.UTC(2030, 0, 7, 8, 0, 10);
let clock = START;
let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgId: string;
let base: string;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  sb = await startTestSandbox({ nowMs: () => clock, tickMs: 50 });
  orgId = (await sb.api.get('/v3/enterprise/organizations')).body.items[0].org_id;
  base = `/v3/organizations/${orgId}/schedules`;
});
afterAll(() => sb.stop());

/**
 * Moves the clock to `ms` and runs a few simulation passes there (as the background loop would), then lets
 * the event loop turn, so that timers the passes held up (the server's keep-alive) run before the next request.
 */
async function moveTo(ms: number, passes = 3): Promise<void> {
  clock = ms;
  for (let i = 0; i < passes; i++) advanceSchedules(sb.ctx);
  await new Promise((resolve) => setTimeout(resolve, 5));
}

interface SessionRow {
  session_id: string;
  prompt: string;
  playbook_id: string | null;
  tags: string;
  origin: string;
  title: string;
  status: string;
  service_user_id: string;
}

/** The sessions a schedule started, from the store (independent of the runs the API reports). */
function sessionsOf(scheduleId: string): SessionRow[] {
  return sb.db
    .prepare(
      `SELECT s.* FROM sessions s WHERE s.session_id IN (
         SELECT json_extract(data, '$.session_id') FROM audit_logs
         WHERE action = 'create_session' AND json_extract(data, '$.scheduled_session_id') = ?)
       ORDER BY s.created_at`,
    )
    .all(scheduleId) as SessionRow[];
}

/** Steps the simulation until the session ends, having fixed how it ends. */
async function runToEnd(sessionId: string, outcome: 'exit' | 'error'): Promise<void> {
  sb.db
    .prepare('UPDATE sessions SET sim_outcome = ?, sim_steps = min(sim_steps, 2) WHERE session_id = ?')
    .run(outcome, sessionId);
  for (let i = 0; i < 400; i++) {
    const { status } = sb.db.prepare('SELECT status FROM sessions WHERE session_id = ?').get(sessionId) as {
      status: string;
    };
    if (status === outcome) {
      await moveTo(clock + 100, 1);
      return;
    }
    await moveTo(clock + 100, 1);
  }
  throw new Error(`session ${sessionId} did not reach ${outcome}`);
}

async function create(body: Record<string, unknown>) {
  return sb.api.call('POST', base, { body: { prompt: 'Do the routine work.', ...body } });
}

async function count(): Promise<number> {
  return (await sb.api.get(`${base}?first=200`)).body.total;
}

describe('seed', () => {
  it('holds recurring and one-time schedules per organization, with runs and a failing one', async () => {
    const items = (await sb.api.get(`${base}?first=200`)).body.items as any[];
    expect(items.length).toBeGreaterThanOrEqual(4);
    expect(items.some((s) => s.schedule_type === 'one_time' && s.enabled && s.scheduled_at)).toBe(true);
    const recurring = items.filter((s) => s.schedule_type === 'recurring');
    expect(recurring.every((s) => typeof s.frequency === 'string' && s.frequency.split(' ').length === 5)).toBe(true);
    expect(recurring.some((s) => s.playbook?.title)).toBe(true);
    expect(recurring.some((s) => s.last_executed_at && s.last_session_id)).toBe(true);
    expect(items.some((s) => s.consecutive_failures > 0 && s.last_error_message)).toBe(true);
    for (const s of items) {
      expect(s.scheduled_session_id).toMatch(/^sched-/);
      expect(s.created_at).toMatch(ISO);
      expect(s.updated_at).toMatch(ISO);
      expect(['always', 'failure', 'never']).toContain(s.notify_on);
      if (s.enabled) expect(Date.parse(s.next_run_at)).toBeGreaterThan(START);
    }
    const withRuns = recurring.find((s) => s.last_session_id)!;
    const runs = (await sb.api.get(`${base}/${withRuns.scheduled_session_id}/runs`)).body.items;
    expect(runs[0].session_id).toBe(withRuns.last_session_id);
    const session = (await sb.api.get(`/v3/organizations/${orgId}/sessions/${withRuns.last_session_id}`)).body;
    expect(session).toMatchObject({ origin: 'automation', title: withRuns.name, prompt: withRuns.prompt });
  });
});

describe('schedules run', () => {
  it('a schedule due in the next simulation steps starts exactly one session with its prompt, playbook and tags', async () => {
    const res = await create({
      name: 'Morning sweep',
      prompt: 'Sweep the flaky tests of last night.',
      frequency: '1 8 * * *',
      playbook_id: 'playbook-flaky-test',
      tags: ['tests', 'nightly'],
      notify_on: 'always',
    });
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      schedule_type: 'recurring',
      frequency: '1 8 * * *',
      enabled: true,
      consecutive_failures: 0,
      last_executed_at: null,
      playbook: { playbook_id: 'playbook-flaky-test', title: 'Fix a flaky test' },
      tags: ['tests', 'nightly'],
      next_run_at: iso(Date.UTC(2030, 0, 7, 8, 1)),
    });
    expect(s.created_at).toBe(iso(Math.floor(clock / 1000) * 1000));

    await moveTo(Date.UTC(2030, 0, 7, 8, 0, 59));
    expect(sessionsOf(s.scheduled_session_id)).toHaveLength(0);

    await moveTo(Date.UTC(2030, 0, 7, 8, 1, 0, 100));
    for (let i = 0; i < 10; i++) await moveTo(clock + 2_000);
    const started = sessionsOf(s.scheduled_session_id);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      prompt: 'Sweep the flaky tests of last night.',
      playbook_id: 'playbook-flaky-test',
      origin: 'automation',
      title: 'Morning sweep',
      service_user_id: 'service-user-sandbox-admin',
    });
    expect(JSON.parse(started[0]!.tags)).toEqual(['tests', 'nightly']);

    const after = (await sb.api.get(`${base}/${s.scheduled_session_id}`)).body;
    expect(after).toMatchObject({
      last_executed_at: iso(Date.UTC(2030, 0, 7, 8, 1)),
      last_session_id: started[0]!.session_id,
      next_run_at: iso(Date.UTC(2030, 0, 8, 8, 1)),
      enabled: true,
    });
    // The session is in the sessions list like any other.
    const list = (await sb.api.get(`/v3/organizations/${orgId}/sessions?origins=automation&first=200`)).body.items;
    expect(list.map((x: { session_id: string }) => x.session_id)).toContain(started[0]!.session_id);
    const runs = (await sb.api.get(`${base}/${s.scheduled_session_id}/runs`)).body.items;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ session_id: started[0]!.session_id, started_at: after.last_executed_at });
  });

  it('a failing run increments consecutive_failures; a success resets it', async () => {
    const s = (await create({ name: 'Every minute', frequency: '* * * * *' })).body;
    const id = s.scheduled_session_id as string;
    const minute = (n: number) => Math.ceil(clock / 60_000) * 60_000 + n;

    await moveTo(minute(50));
    const first = sessionsOf(id);
    expect(first).toHaveLength(1);
    await runToEnd(first[0]!.session_id, 'error');
    let now = (await sb.api.get(`${base}/${id}`)).body;
    expect(now.consecutive_failures).toBe(1);
    expect(now.last_error_at).toMatch(ISO);
    expect(now.last_error_message).toContain(`Session ${first[0]!.session_id} ended in error`);

    await moveTo(minute(50));
    const second = sessionsOf(id);
    expect(second).toHaveLength(2);
    await runToEnd(second[1]!.session_id, 'error');
    now = (await sb.api.get(`${base}/${id}`)).body;
    expect(now.consecutive_failures).toBe(2);

    await moveTo(minute(50));
    const third = sessionsOf(id);
    expect(third).toHaveLength(3);
    await runToEnd(third[2]!.session_id, 'exit');
    now = (await sb.api.get(`${base}/${id}`)).body;
    expect(now.consecutive_failures).toBe(0);
    const outcomes = (await sb.api.get(`${base}/${id}/runs`)).body.items.map((r: { outcome: string }) => r.outcome);
    expect(outcomes).toEqual(['success', 'failure', 'failure']);
    await sb.api.call('PATCH', `${base}/${id}`, { body: { enabled: false } });
  });

  it('a one-time schedule runs once and disables itself', async () => {
    const at = Math.ceil(clock / 1000) * 1000 + 90_000;
    const s = (await create({ name: 'Once', schedule_type: 'one_time', scheduled_at: iso(at) })).body;
    expect(s).toMatchObject({
      schedule_type: 'one_time',
      frequency: null,
      scheduled_at: iso(at),
      next_run_at: iso(at),
    });
    await moveTo(at - 1_000);
    expect(sessionsOf(s.scheduled_session_id)).toHaveLength(0);
    await moveTo(at + 100);
    for (let i = 0; i < 5; i++) await moveTo(clock + 60_000);
    expect(sessionsOf(s.scheduled_session_id)).toHaveLength(1);
    const after = (await sb.api.get(`${base}/${s.scheduled_session_id}`)).body;
    expect(after).toMatchObject({ enabled: false, next_run_at: null, last_executed_at: iso(at) });
    // Turning it back on needs a new date ahead.
    const again = await sb.api.call('PATCH', `${base}/${s.scheduled_session_id}`, { body: { enabled: true } });
    expect(again.status).toBe(422);
    expect(again.body.errors[0].loc).toEqual(['body', 'scheduled_at']);
    const later = iso(Math.ceil(clock / 1000) * 1000 + 3_600_000);
    const ok = await sb.api.call('PATCH', `${base}/${s.scheduled_session_id}`, {
      body: { enabled: true, scheduled_at: later },
    });
    expect(ok.body).toMatchObject({ enabled: true, next_run_at: later });
  });

  it('a run whose playbook was deleted fails to start and counts as a failure', async () => {
    const pb = (
      await sb.api.call('POST', `/v3/organizations/${orgId}/playbooks`, { body: { title: 'Short-lived', body: 'x' } })
    ).body;
    const at = Math.ceil(clock / 1000) * 1000 + 30_000;
    const s = (
      await create({ name: 'Orphan', schedule_type: 'one_time', scheduled_at: iso(at), playbook_id: pb.playbook_id })
    ).body;
    await sb.api.call('DELETE', `/v3/organizations/${orgId}/playbooks/${pb.playbook_id}`);
    expect((await sb.api.get(`${base}/${s.scheduled_session_id}`)).body.playbook).toEqual({
      playbook_id: pb.playbook_id,
      title: null,
    });
    await moveTo(at + 100);
    expect(sessionsOf(s.scheduled_session_id)).toHaveLength(0);
    const after = (await sb.api.get(`${base}/${s.scheduled_session_id}`)).body;
    expect(after).toMatchObject({ consecutive_failures: 1, enabled: false });
    expect(after.last_error_message).toMatch(/no longer exists/);
    const runs = (await sb.api.get(`${base}/${s.scheduled_session_id}/runs`)).body.items;
    expect(runs[0]).toMatchObject({ outcome: 'start_failed', session_id: null });
  });

  it('a disabled schedule does not run; enabling it computes its next run', async () => {
    const s = (await create({ name: 'Paused', frequency: '*/5 * * * *', enabled: false })).body;
    expect(s.next_run_at).toBeNull();
    await moveTo(clock + 15 * 60_000);
    expect(sessionsOf(s.scheduled_session_id)).toHaveLength(0);
    const on = (await sb.api.call('PATCH', `${base}/${s.scheduled_session_id}`, { body: { enabled: true } })).body;
    const next = Date.parse(on.next_run_at);
    expect(next).toBeGreaterThan(clock);
    expect(next - clock).toBeLessThanOrEqual(5 * 60_000);
    expect(new Date(next).getUTCMinutes() % 5).toBe(0);
    await sb.api.call('PATCH', `${base}/${s.scheduled_session_id}`, { body: { enabled: false } });
  });
});

describe('operations', () => {
  it('pages with first/after and with limit/offset alike; not both styles at once', async () => {
    const total = await count();
    const byCursor: string[] = [];
    let after: string | null = null;
    do {
      const res: any = await sb.api.get(`${base}?first=3${after ? `&after=${after}` : ''}`);
      byCursor.push(...res.body.items.map((s: { scheduled_session_id: string }) => s.scheduled_session_id));
      after = res.body.has_next_page ? res.body.end_cursor : null;
    } while (after);
    const byOffset: string[] = [];
    for (let offset = 0; offset < total; offset += 3) {
      const res = await sb.api.get(`${base}?limit=3&offset=${offset}`);
      expect(res.body.total).toBe(total);
      expect(res.body.has_next_page).toBe(offset + 3 < total);
      byOffset.push(...res.body.items.map((s: { scheduled_session_id: string }) => s.scheduled_session_id));
    }
    expect(byCursor).toHaveLength(total);
    expect(byOffset).toEqual(byCursor);
    // An offset page's cursor continues with first/after.
    const page = (await sb.api.get(`${base}?limit=2`)).body;
    const next = (await sb.api.get(`${base}?first=2&after=${page.end_cursor}`)).body;
    expect(next.items[0].scheduled_session_id).toBe(byCursor[2]);
    const both = await sb.api.get(`${base}?after=${page.end_cursor}&offset=2`);
    expect(both.status).toBe(422);
    expect((await sb.api.get(`${base}?limit=0`)).status).toBe(422);
    expect((await sb.api.get(`${base}?offset=-1`)).status).toBe(422);
  });

  it('PATCH changes only what it is given, clears playbook and tags with null, and is audited', async () => {
    const s = (
      await create({ name: 'Patchable', frequency: '0 9 * * 1-5', playbook_id: 'playbook-docs', tags: ['docs'] })
    ).body;
    const res = await sb.api.call('PATCH', `${base}/${s.scheduled_session_id}`, {
      body: { name: 'Patched', playbook_id: null, tags: null, notify_on: 'never' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Patched',
      prompt: s.prompt,
      frequency: '0 9 * * 1-5',
      playbook: null,
      tags: null,
      notify_on: 'never',
      next_run_at: s.next_run_at,
    });
    const audit = sb.db
      .prepare(`SELECT data FROM audit_logs WHERE action = 'update_schedule' ORDER BY rowid DESC LIMIT 1`)
      .get() as { data: string };
    expect(JSON.parse(audit.data)).toMatchObject({
      scheduled_session_id: s.scheduled_session_id,
      changed: ['name', 'notify_on', 'playbook_id', 'tags'],
    });
    const freq = await sb.api.call('PATCH', `${base}/${s.scheduled_session_id}`, { body: { frequency: '30 7 * * *' } });
    expect(new Date(freq.body.next_run_at).getUTCHours()).toBe(7);
  });

  it('delete answers the schedule, which then is gone (404) and never runs', async () => {
    const s = (await create({ name: 'Doomed', frequency: '* * * * *' })).body;
    const del = await sb.api.call('DELETE', `${base}/${s.scheduled_session_id}`);
    expect(del.status).toBe(200);
    expect(del.body.scheduled_session_id).toBe(s.scheduled_session_id);
    expect((await sb.api.get(`${base}/${s.scheduled_session_id}`)).status).toBe(404);
    expect((await sb.api.call('DELETE', `${base}/${s.scheduled_session_id}`)).status).toBe(404);
    await moveTo(clock + 5 * 60_000);
    expect(sessionsOf(s.scheduled_session_id)).toHaveLength(0);
    const audit = sb.db.prepare(`SELECT data FROM audit_logs WHERE action = 'delete_schedule'`).all() as any[];
    expect(audit.some((a) => JSON.parse(a.data).scheduled_session_id === s.scheduled_session_id)).toBe(true);
  });

  it('answers 404 for unknown schedules and organizations, 403 to the viewer', async () => {
    expect((await sb.api.get(`${base}/sched-nope`)).status).toBe(404);
    expect((await sb.api.call('PATCH', `${base}/sched-nope`, { body: { enabled: false } })).status).toBe(404);
    expect((await sb.api.get(`${base}/sched-nope/runs`)).status).toBe(404);
    expect((await sb.api.get('/v3/organizations/org-nope/schedules')).status).toBe(404);
    const viewer = await sb.api.get(base, VIEWER);
    expect(viewer.status).toBe(403);
    expect(viewer.body.detail).toContain('ManageOrgSchedules');
  });
});

describe('bad input: clear 422s, nothing changes', () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    [
      'a minute of 61',
      { name: 'x', frequency: '61 * * * *' },
      'body.frequency',
      /minute value 61 is out of range 0–59/,
    ],
    ['six fields', { name: 'x', frequency: '0 0 9 * * 1' }, 'body.frequency', /6 fields; write five/],
    ['a date that never comes', { name: 'x', frequency: '0 0 31 2 *' }, 'body.frequency', /never matches/],
    ['no frequency', { name: 'x' }, 'body.frequency', /required for a recurring schedule/],
    ['an empty prompt', { name: 'x', frequency: '0 9 * * *', prompt: '  ' }, 'body.prompt', /must not be empty/],
    ['an empty name', { name: '', frequency: '0 9 * * *' }, 'body.name', /must not be empty/],
    [
      'an unknown playbook',
      { name: 'x', frequency: '0 9 * * *', playbook_id: 'playbook-nope' },
      'body.playbook_id',
      /not a playbook/,
    ],
    [
      'an unknown notify_on',
      { name: 'x', frequency: '0 9 * * *', notify_on: 'sometimes' },
      'body.notify_on',
      /always, failure or never/,
    ],
    [
      'a one-time date in the past',
      { name: 'x', schedule_type: 'one_time', scheduled_at: '2020-01-01T00:00:00Z' },
      'body.scheduled_at',
      /must be in the future/,
    ],
    [
      'a one-time date without a time zone',
      { name: 'x', schedule_type: 'one_time', scheduled_at: '2031-01-01T00:00:00' },
      'body.scheduled_at',
      /ISO 8601 date-time with a time zone/,
    ],
    ['an unknown field', { name: 'x', frequency: '0 9 * * *', interval: 2 }, 'body', /interval|unrecognized/i],
  ];

  it.each(cases)('refuses %s', async (_what, body, loc, message) => {
    const before = await count();
    // Other areas' background work (say, guardrail violations) writes audit entries of its own meanwhile.
    const mine = `SELECT action, data FROM audit_logs WHERE action LIKE '%schedule%' OR action = 'create_session'`;
    const audits = sb.db.prepare(mine).all().length;
    const res = await create(body);
    expect(res.status).toBe(422);
    const error = res.body.errors.find((e: { loc: string[] }) => e.loc.join('.').startsWith(loc));
    expect(error, JSON.stringify(res.body.errors)).toBeTruthy();
    expect(`${error.msg} ${JSON.stringify(error.loc)}`).toMatch(message);
    expect(await count()).toBe(before);
    expect(sb.db.prepare(mine).all().slice(audits)).toEqual([]);
  });

  it('a refused PATCH leaves the schedule as it was', async () => {
    const s = (await create({ name: 'Stable', frequency: '0 9 * * *' })).body;
    for (const body of [
      { frequency: '61 * * * *' },
      { playbook_id: 'playbook-nope' },
      { prompt: '' },
      { notify_on: 'x' },
    ]) {
      const res = await sb.api.call('PATCH', `${base}/${s.scheduled_session_id}`, { body });
      expect(res.status).toBe(422);
    }
    expect((await sb.api.get(`${base}/${s.scheduled_session_id}`)).body).toEqual(s);
  });
});

describe("the vendor's fields, revoked principals and the caps", () => {
  /** A user who may start sessions in the organization (a run-as user). */
  function ableUser(): string {
    return (
      sb.db
        .prepare(
          `SELECT principal_id FROM role_assignments WHERE principal_type = 'user' AND org_id IN ('', ?)
           AND role_id IN ('role-enterprise-admin', 'role-org-admin', 'role-org-member', 'role-session-operator')
           ORDER BY principal_id LIMIT 1`,
        )
        .get(orgId) as { principal_id: string }
    ).principal_id;
  }

  /**
   * A new service user of the organization that may manage schedules, and its credential (the creator a test
   * then revokes). No built-in role a service user may be given holds ManageOrgSchedules, and the API creates no
   * roles: the store gets one, and the service user (created with a grantable role) is moved onto it.
   */
  async function newCreator(name: string) {
    const res = await sb.api.call('POST', `/v3beta1/organizations/${orgId}/service-users`, {
      body: { name, role_id: 'role-session-operator' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    sb.db
      .prepare(
        `INSERT OR IGNORE INTO roles (role_id, role_name, role_type, permissions, is_built_in, position)
         VALUES ('role-test-scheduler', 'Scheduler', 'org', '["ManageOrgSchedules","UseAgentSessions"]', 0, 99)`,
      )
      .run();
    sb.db
      .prepare(`UPDATE role_assignments SET role_id = 'role-test-scheduler' WHERE principal_id = ?`)
      .run(res.body.service_user_id);
    return { id: res.body.service_user_id as string, token: res.body.credential as string };
  }

  it('accepts the vendor create fields (devin for agent) and echoes them; created enabled, then PATCHed disabled', async () => {
    const user = ableUser();
    const res = await create({
      name: 'Vendor shaped',
      frequency: '0 3 * * *',
      agent: 'devin',
      interval_count: 2,
      platform: 'windows',
      slack_channel_id: 'C0123ABC',
      slack_team_id: 'T0456DEF',
      create_as_user_id: user,
      bypass_approval: true,
      target_devin_id: 'devin-abc123',
      notify_on: 'never',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      enabled: true,
      agent: 'agent',
      interval_count: 2,
      platform: 'windows',
      slack_channel_id: 'C0123ABC',
      slack_team_id: 'T0456DEF',
      create_as_user_id: user,
      bypass_approval: true,
      target_devin_id: 'devin-abc123',
      paused_reason: null,
    });
    // Every field the vendor's ScheduleResponse requires, with its type (timestamps as ISO 8601 strings).
    for (const k of ['created_by', 'last_executed_at', 'last_error_at', 'last_error_message', 'playbook', 'frequency'])
      expect(res.body).toHaveProperty(k);
    expect(res.body.created_at).toMatch(ISO);

    const id = res.body.scheduled_session_id as string;
    const patched = await sb.api.call('PATCH', `${base}/${id}`, {
      body: { enabled: false, run_as_user_id: 'service-user-sandbox-admin', agent: 'data_analyst', platform: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      enabled: false,
      next_run_at: null,
      run_as_user_id: 'service-user-sandbox-admin',
      agent: 'data_analyst',
      platform: null,
      slack_channel_id: 'C0123ABC',
    });
    expect((await sb.api.get(`${base}/${id}`)).body.enabled).toBe(false);

    for (const [body, loc] of [
      [{ agent: 'robot' }, 'agent'],
      [{ interval_count: 0 }, 'interval_count'],
      [{ create_as_user_id: 'user-nobody' }, 'create_as_user_id'],
      [{ platform: 'win\u202edows' }, 'platform'],
    ] as const) {
      const bad = await create({ name: 'x', frequency: '0 3 * * *', ...body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.errors[0].loc).toEqual(['body', loc]);
    }
  });

  it("a deleted creator's schedule starts nothing, is paused with the reason, and cannot be enabled again", async () => {
    const creator = await newCreator('Nightly bot');
    const s = (
      await sb.api.call('POST', base, {
        token: creator.token,
        body: { name: 'Revoked nightly', prompt: 'Run it.', frequency: '* * * * *' },
      })
    ).body;
    expect(s).toMatchObject({ created_by: creator.id, enabled: true });
    const del = await sb.api.call(
      'DELETE',
      `/v3/enterprise/organizations/${orgId}/members/service-users/${creator.id}`,
    );
    expect(del.status).toBe(200);
    const audits = `SELECT count(*) AS n FROM audit_logs WHERE service_user_id = ?`;
    const before = (sb.db.prepare(audits).get(creator.id) as { n: number }).n;

    await moveTo(Math.ceil(clock / 60_000) * 60_000 + 5_000);
    await moveTo(clock + 60_000);
    expect(sessionsOf(s.scheduled_session_id)).toHaveLength(0);
    expect((sb.db.prepare(audits).get(creator.id) as { n: number }).n).toBe(before);
    const after = (await sb.api.get(`${base}/${s.scheduled_session_id}`)).body;
    expect(after).toMatchObject({ enabled: false, next_run_at: null });
    expect(after.paused_reason).toMatch(/creator, service user Nightly bot .* was deleted/);
    expect(after.paused_at).toMatch(ISO);

    const again = await sb.api.call('PATCH', `${base}/${s.scheduled_session_id}`, { body: { enabled: true } });
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({ loc: ['body', 'enabled'] });
    expect(again.body.errors[0].msg).toMatch(/was deleted/);
  });

  it('a creator that lost the permission, or a run-as user that was removed, pauses the schedule', async () => {
    const creator = await newCreator('Demoted bot');
    const s = (
      await sb.api.call('POST', base, {
        token: creator.token,
        body: { name: 'Demoted', prompt: 'Run it.', frequency: '0 4 * * *' },
      })
    ).body;
    // Its role becomes one without ManageOrgSchedules (as a role change would leave it).
    sb.db.prepare(`UPDATE role_assignments SET role_id = 'role-org-viewer' WHERE principal_id = ?`).run(creator.id);
    const demoted = (await sb.api.get(`${base}/${s.scheduled_session_id}`)).body;
    expect(demoted.enabled).toBe(false);
    expect(demoted.paused_reason).toMatch(/does not hold ManageOrgSchedules or UseAgentSessions/);

    const runAs = (await create({ name: 'Runs as a user', frequency: '0 4 * * *' })).body;
    const user = sb.db
      .prepare(`SELECT user_id FROM users WHERE user_id NOT IN (SELECT principal_id FROM role_assignments) LIMIT 1`)
      .get() as { user_id: string } | undefined;
    if (user) {
      const refused = await sb.api.call('PATCH', `${base}/${runAs.scheduled_session_id}`, {
        body: { run_as_user_id: user.user_id },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].msg).toMatch(/does not hold UseAgentSessions/);
    }
    await sb.api.call('PATCH', `${base}/${runAs.scheduled_session_id}`, { body: { run_as_user_id: ableUser() } });
    sb.db.prepare(`DELETE FROM role_assignments WHERE principal_type = 'user' AND principal_id = ?`).run(ableUser());
    const paused = (await sb.api.get(`${base}/${runAs.scheduled_session_id}`)).body;
    expect(paused.enabled).toBe(false);
    expect(paused.paused_reason).toMatch(/the principal it runs as, user .* does not hold UseAgentSessions/);
  });

  it('a schedule starts at most the hourly cap of sessions; an organization holds at most its cap of schedules', async () => {
    const at = Math.ceil(clock / 1000) * 1000 + 30_000;
    const s = (await create({ name: 'Re-armed', schedule_type: 'one_time', scheduled_at: iso(at) })).body;
    const insertRun = sb.db.prepare(
      `INSERT INTO schedule_runs (run_id, scheduled_session_id, org_id, session_id, started_at, outcome, settled_at)
       VALUES (?, ?, ?, ?, ?, 'success', ?)`,
    );
    const t = Math.floor(clock / 1000);
    for (let i = 0; i < SCHEDULE_CAPS.sessionsPerHour; i++)
      insertRun.run(`run-cap-${i}`, s.scheduled_session_id, orgId, `session-cap-${i}`, t - i * 30, t - i * 30);
    await moveTo(at + 100);
    expect(sessionsOf(s.scheduled_session_id)).toHaveLength(0);
    const runs = (await sb.api.get(`${base}/${s.scheduled_session_id}/runs?first=1`)).body.items;
    expect(runs[0]).toMatchObject({ outcome: 'start_failed', session_id: null });
    expect(runs[0].error_message).toContain(
      `already started ${SCHEDULE_CAPS.sessionsPerHour} sessions in the past hour`,
    );

    // The organization's cap: fill it in the store (cheaper than that many requests), then one more is a 409.
    const other = (await sb.api.get('/v3/enterprise/organizations')).body.items[1].org_id as string;
    const have = (await sb.api.get(`/v3/organizations/${other}/schedules?first=1`)).body.total as number;
    const fill = sb.db.prepare(
      `INSERT INTO schedules (scheduled_session_id, org_id, name, prompt, frequency, schedule_type, enabled, notify_on,
         created_by, created_by_name, created_at, updated_at)
       VALUES (?, ?, 'Filler', 'x', '0 0 1 1 *', 'recurring', 0, 'never', 'service-user-sandbox-admin', 'Sandbox Admin', 0, 0)`,
    );
    for (let i = have; i < SCHEDULE_CAPS.perOrganization; i++) fill.run(`sched-fill-${i}`, other);
    const res = await sb.api.call('POST', `/v3/organizations/${other}/schedules`, {
      body: { name: 'One too many', prompt: 'x', frequency: '0 9 * * *' },
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain(`the most one organization may have (${SCHEDULE_CAPS.perOrganization})`);
    sb.db.prepare(`DELETE FROM schedules WHERE scheduled_session_id LIKE 'sched-fill-%'`).run();
    expect(
      (
        await sb.api.call('POST', `/v3/organizations/${other}/schedules`, {
          body: { name: 'Fits again', prompt: 'x', frequency: '0 9 * * *' },
        })
      ).status,
    ).toBe(200);
  });
});
