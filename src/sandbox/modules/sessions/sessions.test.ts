/**
 * Sessions over real HTTP: the seed, every operation, its validation and permissions, and the state
 * transitions of the simulation (tick 50 ms in tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ORIGINS } from '../../../api/operations/sessions';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';
import { createSandbox } from '../../index';
import { advanceDue } from './simulation';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgId: string;
let otherOrgId: string;
const base = () => `/v3/organizations/${orgId}/sessions`;

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 40 });
  const orgs = await sb.api.get('/v3/enterprise/organizations');
  orgId = orgs.body.items[0].org_id;
  otherOrgId = orgs.body.items[1].org_id;
});
afterAll(() => sb.stop());

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 8_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`timed out; last value ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

async function createSession(body: Record<string, unknown> = {}) {
  const res = await sb.api.call('POST', base(), {
    body: { prompt: 'Fix the flaky checkout test in acme/web-app', ...body },
  });
  expect(res.status).toBe(200);
  return res.body as { session_id: string; status: string; url: string; is_archived: boolean };
}

async function allOrgSessions(query = '') {
  const items: any[] = [];
  let after: string | null = null;
  do {
    const res: any = await sb.api.get(`${base()}?first=200${query}${after ? `&after=${after}` : ''}`);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return items;
}

describe('seed', () => {
  it('holds hundreds of sessions per organization in every status and origin, with their details', async () => {
    // A frozen clock keeps the seed as it was written: nothing moves.
    const frozen = await startTestSandbox({ nowMs: () => 1_790_000_000_000 });
    const items: any[] = [];
    try {
      let after: string | null = null;
      do {
        const res: any = await frozen.api.get(
          `/v3/organizations/${orgId}/sessions?first=200${after ? `&after=${after}` : ''}`,
        );
        items.push(...res.body.items);
        after = res.body.has_next_page ? res.body.end_cursor : null;
      } while (after);
    } finally {
      await frozen.stop();
    }
    expect(items.length).toBeGreaterThanOrEqual(200);
    const statuses = new Set(items.map((s) => s.status));
    for (const s of ['new', 'claimed', 'running', 'exit', 'error', 'suspended']) expect(statuses).toContain(s);
    const origins = new Set(items.map((s) => s.origin));
    for (const o of ['webapp', 'api', 'slack', 'automation', 'cli']) expect(origins).toContain(o);
    expect(items.filter((s) => s.title).length).toBeGreaterThan(items.length / 2);
    expect(items.some((s) => s.tags.length > 0)).toBe(true);
    expect(
      items.some((s) => s.pull_requests.some((p: any) => /^https:\/\/github.com\/.+\/pull\/\d+$/.test(p.pr_url))),
    ).toBe(true);
    expect(items.some((s) => s.acus_consumed > 1)).toBe(true);
    expect(items.some((s) => s.is_archived)).toBe(true);
    const child = items.find((s) => s.parent_session_id);
    expect(child).toBeTruthy();
    const parent = items.find((s) => s.session_id === child.parent_session_id);
    expect(parent.child_session_ids).toContain(child.session_id);
    const suspended = items.find((s) => s.status === 'suspended');
    expect(suspended.status_detail).toBeTruthy();
    const thread = await sb.api.get(`${base()}/${items.find((s) => s.status === 'exit').session_id}/messages`);
    expect(thread.body.items.length).toBeGreaterThan(0);
    expect(thread.body.items[0]).toMatchObject({
      event_id: expect.any(String),
      source: 'user',
      message: expect.any(String),
      created_at: expect.any(Number),
    });
  });
});

describe('list', () => {
  it('answers newest first, with a stable cursor that never repeats a session', async () => {
    const items = await allOrgSessions();
    const ids = items.map((s) => s.session_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < items.length; i++) expect(items[i - 1].created_at).toBeGreaterThanOrEqual(items[i].created_at);
    expect(items.every((s) => s.org_id === orgId)).toBe(true);
  });

  it('filters by origins, as repeated keys and comma-joined', async () => {
    const repeated = await allOrgSessions('&origins=slack&origins=cli');
    const joined = await allOrgSessions('&origins=slack,cli');
    expect(repeated.length).toBeGreaterThan(0);
    expect(repeated.every((s) => s.origin === 'slack' || s.origin === 'cli')).toBe(true);
    expect(joined.map((s) => s.session_id)).toEqual(repeated.map((s) => s.session_id));
  });

  it('refuses an unknown origin with a field error', async () => {
    const res = await sb.api.get(`${base()}?origins=fax`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['query', 'origins', 0]);
    expect(res.body.errors[0].msg).toMatch(/webapp/);
  });

  it('filters by tags, archived, status, time range, people, playbook, repository and session ids', async () => {
    const all = await allOrgSessions();
    const tagged = await allOrgSessions('&tags=security,urgent');
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((s) => s.tags.includes('security') || s.tags.includes('urgent'))).toBe(true);

    const archived = await allOrgSessions('&is_archived=true');
    expect(archived.length).toBeGreaterThan(0);
    expect(archived.every((s) => s.is_archived)).toBe(true);
    expect((await allOrgSessions('&is_archived=false')).length).toBe(all.length - archived.length);

    const failed = await allOrgSessions('&status=error&status=suspended');
    expect(failed.every((s) => s.status === 'error' || s.status === 'suspended')).toBe(true);

    const mid = all[Math.floor(all.length / 2)].created_at;
    const after = await allOrgSessions(`&created_after=${mid}`);
    expect(after.every((s) => s.created_at >= mid)).toBe(true);
    const before = await allOrgSessions(`&created_before=${mid}`);
    expect(before.every((s) => s.created_at < mid)).toBe(true);
    expect(after.length + before.length).toBeGreaterThanOrEqual(all.length - 2);
    const updated = await allOrgSessions(`&updated_after=${mid}&updated_before=${mid + 86_400 * 30}`);
    expect(updated.every((s) => s.updated_at >= mid && s.updated_at < mid + 86_400 * 30)).toBe(true);

    const byUser = all.find((s) => s.user_id)!;
    const mine = await allOrgSessions(`&user_ids=${byUser.user_id}`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((s) => s.user_id === byUser.user_id)).toBe(true);
    const bySu = all.find((s) => s.service_user_id)!;
    expect(
      (await allOrgSessions(`&service_user_ids=${bySu.service_user_id}`)).every(
        (s) => s.service_user_id === bySu.service_user_id,
      ),
    ).toBe(true);
    const withPlaybook = all.find((s) => s.playbook_id)!;
    expect(
      (await allOrgSessions(`&playbook_id=${withPlaybook.playbook_id}`)).every(
        (s) => s.playbook_id === withPlaybook.playbook_id,
      ),
    ).toBe(true);
    const repoPr = all.find((s) => s.pull_requests.length > 0)!;
    const repo = /github.com\/([^/]+\/[^/]+)\//.exec(repoPr.pull_requests[0].pr_url)![1];
    const inRepo = await allOrgSessions(`&repo_names=${repo}`);
    expect(inRepo.map((s) => s.session_id)).toContain(repoPr.session_id);

    const two = [all[0].session_id, all[5].session_id];
    const picked = await allOrgSessions(`&session_ids=${two.join(',')}`);
    expect(picked.map((s) => s.session_id).sort()).toEqual([...two].sort());
  });

  it('refuses malformed filters with 422, never 5xx', async () => {
    for (const q of ['created_after=yesterday', 'is_archived=maybe', 'updated_before=-1', 'first=0']) {
      const res = await sb.api.get(`${base()}?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.errors.length, q).toBeGreaterThan(0);
    }
  });

  it('lists across organizations, filtered by org_ids as repeated keys or comma-joined', async () => {
    const all = await sb.api.get('/v3/enterprise/sessions?first=200');
    expect(new Set(all.body.items.map((s: any) => s.org_id)).size).toBeGreaterThan(1);
    const repeated = await sb.api.get(`/v3/enterprise/sessions?first=50&org_ids=${orgId}&org_ids=${otherOrgId}`);
    const joined = await sb.api.get(`/v3/enterprise/sessions?first=50&org_ids=${orgId},${otherOrgId}`);
    expect(repeated.body.items.every((s: any) => s.org_id === orgId || s.org_id === otherOrgId)).toBe(true);
    expect(joined.body.items.map((s: any) => s.session_id)).toEqual(repeated.body.items.map((s: any) => s.session_id));
    const one = await sb.api.get(
      `/v3/enterprise/sessions?org_ids=${otherOrgId}&origins=${SESSION_ORIGINS[0]}&first=10`,
    );
    expect(one.body.items.every((s: any) => s.org_id === otherOrgId && s.origin === 'webapp')).toBe(true);
  });
});

describe('create', () => {
  it('creates a session attributed to the caller, answering the full session', async () => {
    const s = await createSession({ title: 'Flaky checkout', tags: ['flaky-test'], agent_mode: 'fast' });
    expect(s).toMatchObject({
      status: 'new',
      title: 'Flaky checkout',
      tags: ['flaky-test'],
      origin: 'api',
      service_user_id: 'service-user-sandbox-admin',
      org_id: orgId,
      is_archived: false,
    });
    expect(s.url).toContain(s.session_id);
    const got = await sb.api.get(`${base()}/${s.session_id}`);
    expect(got.body.session_id).toBe(s.session_id);
  });

  it('keeps session secrets for the session only and never answers their values', async () => {
    const s = await createSession({
      session_secrets: [{ key: 'STAGING_TOKEN', value: 'super-secret-value' }],
      create_as_user_id: 'user-on-behalf',
      session_links: ['https://app.agent-platform.example/sessions/session-1'],
      bypass_approval: true,
    });
    expect(JSON.stringify(s)).not.toContain('super-secret-value');
    expect((s as any).user_id).toBe('user-on-behalf');
    const log = sb.db
      .prepare(`SELECT data FROM audit_logs WHERE action = 'create_session' ORDER BY rowid DESC LIMIT 1`)
      .get() as { data: string };
    expect(log.data).toContain('STAGING_TOKEN');
    expect(log.data).not.toContain('super-secret-value');
  });

  it.each([
    ['missing prompt', {}, 'prompt'],
    ['empty prompt', { prompt: '   ' }, 'prompt'],
    ['prompt not a string', { prompt: 42 }, 'prompt'],
    ['unknown agent_mode', { prompt: 'x', agent_mode: 'turbo' }, 'agent_mode'],
    ['empty secret key', { prompt: 'x', session_secrets: [{ key: '', value: 'v' }] }, 'session_secrets.0.key'],
    [
      'secret key of 257 characters',
      { prompt: 'x', session_secrets: [{ key: 'k'.repeat(257), value: 'v' }] },
      'session_secrets.0.key',
    ],
    [
      'secret value over 65,536 characters',
      { prompt: 'x', session_secrets: [{ key: 'K', value: 'v'.repeat(65_537) }] },
      'session_secrets.0.value',
    ],
    ['title not a string', { prompt: 'x', title: 5 }, 'title'],
    ['tags not a list', { prompt: 'x', tags: 'a,b' }, 'tags'],
    ['bypass_approval not a boolean', { prompt: 'x', bypass_approval: 'yes' }, 'bypass_approval'],
    ['session_links not a list', { prompt: 'x', session_links: 'https://x' }, 'session_links'],
  ])('refuses %s with 422 on the field', async (_name, body, field) => {
    const res = await sb.api.call('POST', base(), { body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.loc.slice(1).join('.'))).toContain(field);
    expect(res.body.errors.every((e: any) => typeof e.msg === 'string' && e.msg.length > 0)).toBe(true);
  });

  it('accepts the limits exactly: key of 256 characters and a value of 65,536', async () => {
    const s = await createSession({
      session_secrets: [{ key: 'k'.repeat(256), value: 'v'.repeat(65_536), sensitive: false }],
    });
    expect(s.status).toBe('new');
  });

  it('404s an unknown organization', async () => {
    const res = await sb.api.call('POST', '/v3/organizations/org-nope/sessions', { body: { prompt: 'x' } });
    expect(res.status).toBe(404);
  });
});

describe('simulation', () => {
  it('moves a new session through claimed and running, one due step at a time, to exit, error or suspended', async () => {
    // Every step, on a clock the test moves (polling over HTTP could miss a step that lasts two ticks).
    let clock = Date.now();
    const own = createSandbox({ dbPath: ':memory:', nowMs: () => clock, tickMs: 1_000 });
    try {
      const call = async (method: string, path: string, body?: unknown) =>
        (
          await own.fetch(
            new Request(`http://sandbox${path}`, {
              method,
              headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
              body: body === undefined ? undefined : JSON.stringify(body),
            }),
          )
        ).json() as Promise<any>;
      const org = (await call('GET', '/v3/enterprise/organizations')).items[0].org_id as string;
      const created = await call('POST', `/v3/organizations/${org}/sessions`, { prompt: 'Fix the flaky test' });
      const read = () =>
        own.db
          .prepare(
            'SELECT status, status_detail, sim_next_ms, created_at, updated_at FROM sessions WHERE session_id = ?',
          )
          .get(created.session_id) as {
          status: string;
          status_detail: string | null;
          sim_next_ms: number | null;
          created_at: number;
          updated_at: number;
        };
      const path: string[] = [];
      let row = read();
      for (let i = 0; i < 100; i++) {
        path.push(row.status === 'running' ? `running:${row.status_detail}` : row.status);
        if (row.sim_next_ms === null) break;
        clock = row.sim_next_ms;
        advanceDue(own.ctx);
        row = read();
      }
      expect(path.slice(0, 3)).toEqual(['new', 'claimed', 'running:working']);
      expect(['exit', 'error', 'suspended']).toContain(path.at(-1));
      for (const step of path.slice(2, -1)) {
        expect(step).toMatch(/^running:(working|waiting_for_user|waiting_for_approval|finished)$/);
      }
      expect(row.updated_at).toBeGreaterThanOrEqual(row.created_at);
      const thread = await call('GET', `/v3/organizations/${org}/sessions/${created.session_id}/messages`);
      expect(thread.items.some((m: any) => m.source === 'agent')).toBe(true);
    } finally {
      own.close();
    }
  });

  it('runs on its own clock: a new session reaches an outcome over real ticks, seen over HTTP', async () => {
    const s = await createSession();
    const final = await waitFor(
      async () => (await sb.api.get(`${base()}/${s.session_id}`)).body,
      (b) => ['exit', 'error', 'suspended'].includes(b.status),
    );
    expect(final.updated_at).toBeGreaterThanOrEqual(final.created_at);
  });

  it('resumes a suspended session when a message arrives: resuming, then running', async () => {
    const suspended = (await sb.api.get(`${base()}?status=suspended&first=1`)).body.items[0];
    expect(suspended.status).toBe('suspended');
    const sent = await sb.api.call('POST', `${base()}/${suspended.session_id}/messages`, {
      body: { message: 'Please continue.' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ session_id: suspended.session_id, status: 'resuming' });
    const running = await waitFor(
      async () => (await sb.api.get(`${base()}/${suspended.session_id}`)).body,
      (b) => b.status === 'running',
    );
    expect(running.status_detail).toBeTruthy();
    const thread = await sb.api.get(`${base()}/${suspended.session_id}/messages?first=200`);
    expect(thread.body.items.some((m: any) => m.source === 'user' && m.message === 'Please continue.')).toBe(true);
  });

  it('delivers a message to a running session and refuses an empty one', async () => {
    const s = await createSession();
    const ok = await sb.api.call('POST', `${base()}/${s.session_id}/messages`, {
      body: { message: 'Also update the changelog.' },
    });
    expect(ok.status).toBe(200);
    const empty = await sb.api.call('POST', `${base()}/${s.session_id}/messages`, { body: { message: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].loc).toEqual(['body', 'message']);
  });
});

describe('messages', () => {
  it('pages the thread oldest first with a cursor', async () => {
    const s = await createSession({ prompt: 'first message' });
    for (let i = 0; i < 3; i++) {
      await sb.api.call('POST', `${base()}/${s.session_id}/messages`, { body: { message: `follow-up ${i}` } });
    }
    const p1 = await sb.api.get(`${base()}/${s.session_id}/messages?first=2`);
    expect(p1.body.items.map((m: any) => m.message)[0]).toBe('first message');
    expect(p1.body.has_next_page).toBe(true);
    const p2 = await sb.api.get(`${base()}/${s.session_id}/messages?first=2&after=${p1.body.end_cursor}`);
    const ids = [...p1.body.items, ...p2.body.items].map((m: any) => m.event_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(p2.body.items.some((m: any) => /follow-up/.test(m.message))).toBe(true);
  });
});

describe('archive and terminate', () => {
  it('archive sets is_archived', async () => {
    const s = await createSession();
    const res = await sb.api.call('POST', `${base()}/${s.session_id}/archive`);
    expect(res.status).toBe(200);
    expect(res.body.is_archived).toBe(true);
    expect((await sb.api.get(`${base()}/${s.session_id}`)).body.is_archived).toBe(true);
  });

  it('terminate ends a session; without archive it stays unarchived', async () => {
    const s = await createSession();
    const res = await sb.api.call('DELETE', `${base()}/${s.session_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'exit', is_archived: false });
    await new Promise((r) => setTimeout(r, 300));
    expect((await sb.api.get(`${base()}/${s.session_id}`)).body.status).toBe('exit');
    const msg = await sb.api.call('POST', `${base()}/${s.session_id}/messages`, { body: { message: 'hello?' } });
    expect(msg.status).toBe(409);
    expect(msg.body.detail).toMatch(/terminated/);
  });

  it('terminate with archive=true sets is_archived', async () => {
    const s = await createSession();
    const res = await sb.api.call('DELETE', `${base()}/${s.session_id}?archive=true`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'exit', is_archived: true });
    const listed = await sb.api.get(`${base()}?session_ids=${s.session_id}`);
    expect(listed.body.items[0].is_archived).toBe(true);
  });

  it('refuses a malformed archive parameter', async () => {
    const s = await createSession();
    expect((await sb.api.call('DELETE', `${base()}/${s.session_id}?archive=please`)).status).toBe(422);
  });
});

describe('tags', () => {
  it('gets, appends (keeping each tag once) and replaces', async () => {
    const s = await createSession({ tags: ['backend'] });
    const path = `${base()}/${s.session_id}/tags`;
    expect((await sb.api.get(path)).body).toEqual({ tags: ['backend'] });
    expect((await sb.api.call('POST', path, { body: { tags: ['urgent', 'backend'] } })).body).toEqual({
      tags: ['backend', 'urgent'],
    });
    expect((await sb.api.call('PUT', path, { body: { tags: ['docs'] } })).body).toEqual({ tags: ['docs'] });
    expect((await sb.api.get(`${base()}/${s.session_id}`)).body.tags).toEqual(['docs']);
  });

  it('refuses bad tags with field errors', async () => {
    const s = await createSession();
    const path = `${base()}/${s.session_id}/tags`;
    for (const tags of [['a,b'], ['x'.repeat(65)], [''], Array.from({ length: 51 }, (_, i) => `t${i}`)]) {
      const res = await sb.api.call('PUT', path, { body: { tags } });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].loc[1]).toBe('tags');
    }
    const over = await sb.api.call('POST', path, { body: { tags: Array.from({ length: 50 }, (_, i) => `t${i}`) } });
    expect(over.status).toBe(200);
    const tooMany = await sb.api.call('POST', path, { body: { tags: ['one-more'] } });
    expect(tooMany.status).toBe(422);
  });
});

describe('insights', () => {
  it('generates once (started, then already_exists) and the analysis appears after some ticks', async () => {
    const s = await createSession();
    const path = `${base()}/${s.session_id}/insights`;
    const before = await sb.api.get(path);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      session_id: s.session_id,
      analysis: null,
      num_user_messages: 1,
      session_size: 'xs',
    });
    const first = await sb.api.call('POST', `${path}/generate`);
    expect(first.body).toEqual({ session_id: s.session_id, status: 'started' });
    const second = await sb.api.call('POST', `${path}/generate`);
    expect(second.body).toEqual({ session_id: s.session_id, status: 'already_exists' });
    const ready = await waitFor(
      async () => (await sb.api.get(path)).body,
      (b) => b.analysis !== null,
    );
    expect(ready.analysis).toMatchObject({
      classification: { category: expect.any(String) },
      action_items: expect.any(Array),
      suggested_prompt: expect.any(String),
    });
    expect((await sb.api.call('POST', `${path}/generate`)).body.status).toBe('already_exists');
  });

  it('generates through the enterprise path too', async () => {
    const s = await createSession();
    const res = await sb.api.call('POST', `/v3/enterprise/sessions/${s.session_id}/insights/generate`);
    expect(res.body.status).toBe('started');
    expect((await sb.api.call('POST', `${base()}/${s.session_id}/insights/generate`)).body.status).toBe(
      'already_exists',
    );
  });
});

describe('enterprise get and message', () => {
  it('gets a session of any organization and sends it a message', async () => {
    const s = await createSession();
    const got = await sb.api.get(`/v3/enterprise/sessions/${s.session_id}`);
    expect(got.body).toMatchObject({ session_id: s.session_id, org_id: orgId });
    const sent = await sb.api.call('POST', `/v3/enterprise/sessions/${s.session_id}/messages`, {
      body: { message: 'from the enterprise' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.session_id).toBe(s.session_id);
  });

  it('404s an unknown session, and a session under another organization', async () => {
    expect((await sb.api.get('/v3/enterprise/sessions/session-doesnotexist')).status).toBe(404);
    expect((await sb.api.get(`${base()}/session-doesnotexist`)).status).toBe(404);
    const s = await createSession();
    const wrongOrg = await sb.api.get(`/v3/organizations/${otherOrgId}/sessions/${s.session_id}`);
    expect(wrongOrg.status).toBe(404);
    expect(wrongOrg.body.detail).toContain(s.session_id);
    expect((await sb.api.call('DELETE', `/v3/organizations/${otherOrgId}/sessions/${s.session_id}`)).status).toBe(404);
  });
});

describe('permissions', () => {
  it('lets the viewer read but not create, message, archive, terminate, tag or generate insights', async () => {
    const s = await createSession();
    const id = s.session_id;
    expect((await sb.api.get(`${base()}?first=5`, VIEWER)).status).toBe(200);
    expect((await sb.api.get(`${base()}/${id}`, VIEWER)).status).toBe(200);
    expect((await sb.api.get(`${base()}/${id}/messages`, VIEWER)).status).toBe(200);
    expect((await sb.api.get(`${base()}/${id}/insights`, VIEWER)).status).toBe(200);
    expect((await sb.api.get('/v3/enterprise/sessions?first=5', VIEWER)).status).toBe(200);
    const denied: Array<[string, string, unknown, string]> = [
      ['POST', base(), { prompt: 'x' }, 'UseAgentSessions'],
      ['POST', `${base()}/${id}/messages`, { message: 'x' }, 'UseAgentSessions'],
      ['POST', `${base()}/${id}/archive`, undefined, 'ManageOrgSessions'],
      ['DELETE', `${base()}/${id}?archive=true`, undefined, 'ManageOrgSessions'],
      ['POST', `${base()}/${id}/tags`, { tags: ['x'] }, 'ManageOrgSessions'],
      ['PUT', `${base()}/${id}/tags`, { tags: ['x'] }, 'ManageOrgSessions'],
      ['POST', `${base()}/${id}/insights/generate`, undefined, 'ManageOrgSessions'],
      ['POST', `/v3/enterprise/sessions/${id}/messages`, { message: 'x' }, 'ManageAccountSessions'],
    ];
    for (const [method, path, body, permission] of denied) {
      const res = await sb.api.call(method, path, { token: VIEWER, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toContain(permission);
    }
    const after = await sb.api.get(`${base()}/${id}`, ADMIN);
    expect(after.body.is_archived).toBe(false);
  });
});

describe('audit', () => {
  it('records every mutation', async () => {
    const s = await createSession();
    await sb.api.call('POST', `${base()}/${s.session_id}/archive`);
    await sb.api.call('PUT', `${base()}/${s.session_id}/tags`, { body: { tags: ['x'] } });
    await sb.api.call('DELETE', `${base()}/${s.session_id}`);
    const actions = (
      sb.db.prepare(`SELECT action FROM audit_logs WHERE data LIKE ?`).all(`%${s.session_id}%`) as Array<{
        action: string;
      }>
    ).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['create_session', 'archive_session', 'update_session_tags', 'terminate_session']),
    );
  });
});
