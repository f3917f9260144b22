/** Guardrail violations over HTTP: the seed, filters and order, paging, the actions' effects, 404s, 422s, 403. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUARDRAIL_ACTIONS } from '../../../api/operations/guardrails';
import { VIEWER, startTestSandbox } from '../../../test/harness';
import { recordViolation } from './index';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgIds: string[];

interface Violation {
  violation_id: string;
  guardrail_id: string;
  guardrail_name: string;
  org_id: string;
  session_id: string;
  confidence_score: number;
  action_taken: string;
  user_message: string;
  reasoning: string;
  created_at: number;
}

const ENT = '/v3beta1/enterprise/guardrail-violations';
const org = (id: string) => `/v3beta1/enterprise/organizations/${id}/guardrail-violations`;

async function all(path: string, query = ''): Promise<Violation[]> {
  const out: Violation[] = [];
  let after: string | null = null;
  do {
    const res: { status: number; body: any } = await sb.api.get(
      `${path}?first=200${query}${after ? `&after=${after}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

const isSorted = (v: Violation[], dir: 'asc' | 'desc') =>
  v.every((x, i) => {
    if (i === 0) return true;
    const p = v[i - 1]!;
    const cmp = p.created_at - x.created_at || p.violation_id.localeCompare(x.violation_id);
    return dir === 'desc' ? cmp > 0 : cmp < 0;
  });

let everything: Violation[];

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 600_000 });
  orgIds = (await sb.api.get('/v3/enterprise/organizations')).body.items.map((o: { org_id: string }) => o.org_id);
  everything = await all(ENT);
});
afterAll(() => sb.stop());

describe('seed', () => {
  it('months of violations across organizations and sessions, every action, a spread of confidence', () => {
    expect(everything.length).toBeGreaterThan(500);
    expect(new Set(everything.map((v) => v.action_taken))).toEqual(new Set(GUARDRAIL_ACTIONS));
    expect(new Set(everything.map((v) => v.org_id)).size).toBe(orgIds.length);
    expect(new Set(everything.map((v) => v.session_id)).size).toBeGreaterThan(200);
    const times = everything.map((v) => v.created_at);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(60 * 86_400);
    const scores = everything.map((v) => v.confidence_score);
    expect(Math.min(...scores)).toBeLessThan(0.4);
    expect(Math.max(...scores)).toBeGreaterThan(0.95);
    for (const v of everything) {
      expect(v.confidence_score).toBeGreaterThanOrEqual(0);
      expect(v.confidence_score).toBeLessThanOrEqual(1);
      expect(v.user_message.length).toBeGreaterThan(0);
      expect(v.reasoning.length).toBeGreaterThan(0);
    }
  });

  it('every kill_session violation left its session in error', async () => {
    const kills = everything.filter((v) => v.action_taken === 'kill_session');
    expect(kills.length).toBeGreaterThan(5);
    for (const v of kills.slice(0, 25)) {
      const s = await sb.api.get(`/v3/enterprise/sessions/${v.session_id}`);
      expect(s.body.status).toBe('error');
    }
  });

  it('a block_message violation shows in its session thread as a blocked message', async () => {
    const v = everything.find((x) => x.action_taken === 'block_message')!;
    const thread = await sb.api.get(`/v3/organizations/${v.org_id}/sessions/${v.session_id}/messages?first=200`);
    const blocked = thread.body.items.filter((m: { source: string }) => m.source === 'guardrail');
    expect(blocked.some((m: { message: string }) => m.message.includes(v.user_message))).toBe(true);
  });

  it('violations write audit-log entries', async () => {
    const res = await sb.api.get('/v3/enterprise/audit-logs?action=guardrail_violation&first=5');
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBe(5);
    expect(res.body.items[0].data.violation_id).toMatch(/^violation-/);
  });
});

describe('filters and order', () => {
  it('is newest first by default and oldest first with order=asc, across pages', async () => {
    expect(isSorted(everything, 'desc')).toBe(true);
    const asc = await all(ENT, '&order=asc');
    expect(asc).toHaveLength(everything.length);
    expect(isSorted(asc, 'asc')).toBe(true);
    expect(asc[0]!.violation_id).toBe(everything[everything.length - 1]!.violation_id);
  });

  it('guardrail_id keeps that guardrail only', async () => {
    const g = everything[0]!.guardrail_id;
    const got = await all(ENT, `&guardrail_id=${g}`);
    expect(got.length).toBe(everything.filter((v) => v.guardrail_id === g).length);
    expect(got.every((v) => v.guardrail_id === g)).toBe(true);
  });

  it('session_id keeps that session only', async () => {
    const s = everything[3]!.session_id;
    const got = await all(ENT, `&session_id=${s}`);
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((v) => v.session_id === s)).toBe(true);
  });

  it('time_after is inclusive and time_before exclusive', async () => {
    const mid = everything[Math.floor(everything.length / 2)]!.created_at;
    const got = await all(ENT, `&time_after=${mid}&time_before=${mid + 7 * 86_400}`);
    expect(got.length).toBe(everything.filter((v) => v.created_at >= mid && v.created_at < mid + 7 * 86_400).length);
    expect(got.some((v) => v.created_at === mid)).toBe(true);
  });

  it('the organization list keeps its organization, with the same filters', async () => {
    const got = await all(org(orgIds[1]!), '&order=asc&action_taken=kill_session,block_message');
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((v) => v.org_id === orgIds[1])).toBe(true);
    expect(got.every((v) => v.action_taken === 'kill_session' || v.action_taken === 'block_message')).toBe(true);
    expect(isSorted(got, 'asc')).toBe(true);
  });

  it('guardrails.list names every guardrail the violations use', async () => {
    const res = await sb.api.get('/v3beta1/enterprise/guardrails');
    expect(res.status).toBe(200);
    const ids = new Set(res.body.items.map((g: { guardrail_id: string }) => g.guardrail_id));
    for (const v of everything) expect(ids.has(v.guardrail_id)).toBe(true);
  });
});

describe('live violations', () => {
  it('a kill_session violation ends its running session in error and is listed first', async () => {
    const running = await sb.api.get(`/v3/enterprise/sessions?status=running&first=1`);
    const session = running.body.items[0];
    expect(session.status).toBe('running');
    const guardrail = everything.find((v) => v.action_taken === 'kill_session')!.guardrail_id;
    const v = recordViolation(sb.ctx, {
      guardrail_id: guardrail,
      session_id: session.session_id,
      confidence_score: 0.97,
      action_taken: 'kill_session',
    });
    const after = await sb.api.get(`/v3/enterprise/sessions/${session.session_id}`);
    expect(after.body.status).toBe('error');
    const listed = await sb.api.get(`${ENT}?session_id=${session.session_id}&first=1`);
    expect(listed.body.items[0].violation_id).toBe(v.violation_id);
    const audit = await sb.api.get('/v3/enterprise/audit-logs?action=guardrail_violation&first=1');
    expect(audit.body.items[0].data.violation_id).toBe(v.violation_id);
  });
});

describe('bad input', () => {
  it.each([
    ['order=up', 'order'],
    ['time_after=200&time_before=100', 'time_after'],
    ['action_taken=explode', 'action_taken'],
    ['first=0', 'first'],
  ])('%s answers 422 naming %s', async (q, field) => {
    const res = await sb.api.get(`${ENT}?${q}`);
    expect(res.status).toBe(422);
    const locs: string[] = res.body.errors.map((e: { loc: string[] }) => e.loc.slice(0, 2).join('.'));
    expect(locs).toContain(`query.${field}`);
  });

  it('unknown session, guardrail and organization answer 404', async () => {
    expect((await sb.api.get(`${ENT}?session_id=session-nope`)).status).toBe(404);
    expect((await sb.api.get(`${ENT}?guardrail_id=guardrail-nope`)).status).toBe(404);
    expect((await sb.api.get(org('org-nope'))).status).toBe(404);
  });

  it('the viewer gets 403 naming ManageEnterpriseSettings', async () => {
    const res = await sb.api.get(ENT, VIEWER);
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageEnterpriseSettings');
  });
});
