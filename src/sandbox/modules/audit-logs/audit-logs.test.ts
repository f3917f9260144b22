/**
 * Audit logs over real HTTP: the seeded year, order, exact time boundaries, filters, 422s, and cursors that
 * stay exact while entries are appended between pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_AUDIT_ACTIONS, type AuditLogEntry } from '../../../api/operations/audit-logs';
import type { Page } from '../../../api/page';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';
import { sandboxModules } from '..';
import { migrate, openDb } from '../../../node/db';
import { createRng, seedFor } from '../../random';
import type { SeedContext } from '../../context';
import { auditLogsModule } from '.';
import { SEED_ENTRY_COUNT } from './seed-data';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgIds: string[];
const PATH = '/v3/enterprise/audit-logs';

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await sb.api.get<Page<{ org_id: string }>>('/v3/enterprise/organizations?first=200');
  orgIds = res.body.items.map((o) => o.org_id);
});
afterAll(() => sb.stop());

type AuditPage = Page<AuditLogEntry>;
const list = (query: string, token: string = ADMIN) => sb.api.get<AuditPage>(`${PATH}?${query}`, token);

/** Reads every page of a query; `between` runs after each page (e.g. to append entries meanwhile). */
async function readAll(query: string, first = 200, between?: () => void): Promise<AuditLogEntry[]> {
  const out: AuditLogEntry[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const res: { status: number; body: AuditPage } = await list(
      `${query}&first=${first}${after ? `&after=${after}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    between?.();
    if (!res.body.has_next_page) return out;
    after = res.body.end_cursor ?? null;
  }
  throw new Error('paging did not end');
}

const key = (e: AuditLogEntry, order: 'asc' | 'desc') => (a: AuditLogEntry) =>
  order === 'desc'
    ? a.created_at > e.created_at || (a.created_at === e.created_at && a.audit_log_id > e.audit_log_id)
    : a.created_at < e.created_at || (a.created_at === e.created_at && a.audit_log_id < e.audit_log_id);

function expectSorted(items: AuditLogEntry[], order: 'asc' | 'desc') {
  for (let i = 1; i < items.length; i++) {
    // Each item comes strictly after the previous one in (created_at, audit_log_id) order.
    expect(key(items[i]!, order)(items[i - 1]!), `${items[i - 1]!.audit_log_id} before ${items[i]!.audit_log_id}`).toBe(
      true,
    );
  }
}

describe('seed', () => {
  it('holds at least 20,000 entries over 12 months, across organizations and actions, with data objects', async () => {
    const first = await list('first=1');
    expect(first.status).toBe(200);
    expect(first.body.total).toBeGreaterThanOrEqual(20_000);
    const oldest = (await list('first=1&order=asc')).body.items[0]!;
    const newest = first.body.items[0]!;
    const spanDays = (newest.created_at - oldest.created_at) / 86_400;
    expect(spanDays).toBeGreaterThan(330);
    expect(spanDays).toBeLessThanOrEqual(366);

    const rows = sb.db
      .prepare(`SELECT action, count(*) AS n, count(DISTINCT org_id) AS orgs FROM audit_logs GROUP BY action`)
      .all() as Array<{ action: string; n: number; orgs: number }>;
    for (const action of KNOWN_AUDIT_ACTIONS) {
      const row = rows.find((r) => r.action === action);
      expect(row?.n, action).toBeGreaterThan(100);
      expect(row?.orgs, action).toBeGreaterThanOrEqual(Math.min(5, orgIds.length));
    }
    // Every month of the year has entries.
    const months = sb.db
      .prepare(
        `SELECT count(DISTINCT CAST((? - created_at) / (30 * 86400) AS INTEGER)) AS m FROM audit_logs WHERE created_at > ? - 360 * 86400`,
      )
      .get(newest.created_at, newest.created_at) as { m: number };
    expect(months.m).toBe(12);
  });

  it('sends entries with service users, users, both or neither, the ids absent or null, names as strings', async () => {
    const items = (await list('first=200')).body.items;
    for (const e of items) {
      expect(e.audit_log_id).toMatch(/^audit-/);
      expect(Number.isInteger(e.created_at)).toBe(true);
      expect(typeof e.action).toBe('string');
      expect(typeof e.service_user_name).toBe('string');
      expect(typeof e.user_email).toBe('string');
      expect(e.data).toBeTypeOf('object');
      expect(Array.isArray(e.data)).toBe(false);
    }
    const su = (e: AuditLogEntry) => typeof e.service_user_id === 'string';
    const u = (e: AuditLogEntry) => typeof e.user_id === 'string';
    expect(items.some((e) => su(e) && !u(e))).toBe(true);
    expect(items.some((e) => !su(e) && u(e))).toBe(true);
    expect(items.some((e) => su(e) && u(e))).toBe(true);
    expect(items.some((e) => !('service_user_id' in e))).toBe(true);
    expect(items.some((e) => 'service_user_id' in e && e.service_user_id === null)).toBe(true);
    expect(items.some((e) => !('user_id' in e))).toBe(true);
    expect(items.some((e) => 'user_id' in e && e.user_id === null)).toBe(true);
    const noPrincipal = (await list('first=200&action=automatic_join_event')).body.items;
    expect(noPrincipal.some((e) => !su(e) && !u(e))).toBe(true);
  });

  it('seeds the whole history of entries', () => {
    const db = openDb(':memory:');
    migrate(
      db,
      sandboxModules.flatMap((m) => m.migrations),
    );
    const orgs = ['org-a', 'org-b', 'org-c'];
    const ctx = { ...sb.ctx, db, rng: createRng(seedFor('audit-logs')), orgIds: () => orgs } as SeedContext;
    db.transaction(() => auditLogsModule.seed!(ctx))();
    expect((db.prepare('SELECT count(*) AS n FROM audit_logs').get() as { n: number }).n).toBe(SEED_ENTRY_COUNT);
    db.close();
  });
});

describe('order', () => {
  it('is newest first by default and with order=desc, oldest first with order=asc', async () => {
    const dflt = (await list('first=200')).body.items;
    const desc = (await list('first=200&order=desc')).body.items;
    const asc = (await list('first=200&order=asc')).body.items;
    expect(dflt.map((e) => e.audit_log_id)).toEqual(desc.map((e) => e.audit_log_id));
    expectSorted(desc, 'desc');
    expectSorted(asc, 'asc');
    expect(asc[0]!.created_at).toBeLessThan(desc[0]!.created_at);
  });

  it('keeps the order across pages, with ties in one second ordered by audit_log_id', async () => {
    const T = 1_000_000;
    for (let i = 0; i < 7; i++) sb.ctx.audit({ action: 'tie_test', created_at: T, data: { i } });
    sb.ctx.audit({ action: 'tie_test', created_at: T + 1 });
    for (const order of ['asc', 'desc'] as const) {
      const paged = await readAll(`action=tie_test&order=${order}`, 2);
      expect(paged).toHaveLength(8);
      expectSorted(paged, order);
      const onePage = (await list(`action=tie_test&order=${order}&first=200`)).body.items;
      expect(paged.map((e) => e.audit_log_id)).toEqual(onePage.map((e) => e.audit_log_id));
    }
  });

  it('refuses a cursor of one order in the other order', async () => {
    const page = (await list('first=5&order=desc')).body;
    const res = await list(`first=5&order=asc&after=${page.end_cursor}`);
    expect(res.status).toBe(422);
    expect((res.body as unknown as { errors: Array<{ loc: string[] }> }).errors[0]!.loc).toEqual(['query', 'after']);
  });
});

describe('time boundaries (time_after inclusive, time_before exclusive)', () => {
  const T = 2_000_000;
  beforeAll(() => {
    for (const t of [T - 1, T, T, T + 1, T + 2]) sb.ctx.audit({ action: 'boundary_test', created_at: t });
  });
  const times = async (q: string) =>
    (await list(`action=boundary_test&order=asc&${q}`)).body.items.map((e) => e.created_at);

  it('includes an entry exactly at time_after and excludes one exactly at time_before', async () => {
    expect(await times(`time_after=${T}&time_before=${T + 2}`)).toEqual([T, T, T + 1]);
    expect(await times(`time_after=${T}`)).toEqual([T, T, T + 1, T + 2]);
    expect(await times(`time_before=${T}`)).toEqual([T - 1]);
    expect(await times(`time_after=${T + 1}&time_before=${T + 2}`)).toEqual([T + 1]);
  });

  it('treats equal bounds as a valid, empty range; adjacent ranges do not overlap', async () => {
    expect(await times(`time_after=${T}&time_before=${T}`)).toEqual([]);
    const left = await times(`time_after=${T - 1}&time_before=${T + 1}`);
    const right = await times(`time_after=${T + 1}&time_before=${T + 3}`);
    expect([...left, ...right]).toEqual([T - 1, T, T, T + 1, T + 2]);
  });

  it('counts a range exactly in total, and the pages add up to it', async () => {
    const newest = (await list('first=1')).body.items[0]!.created_at;
    const q = `time_after=${newest - 30 * 86_400}&time_before=${newest - 20 * 86_400}`;
    const first = await list(`${q}&first=1`);
    const all = await readAll(q);
    expect(all).toHaveLength(first.body.total!);
    expect(all.every((e) => e.created_at >= newest - 30 * 86_400 && e.created_at < newest - 20 * 86_400)).toBe(true);
    const n = (
      sb.db
        .prepare('SELECT count(*) AS n FROM audit_logs WHERE created_at >= ? AND created_at < ?')
        .get(newest - 30 * 86_400, newest - 20 * 86_400) as { n: number }
    ).n;
    expect(all).toHaveLength(n);
  });
});

describe('filters', () => {
  it('filters by one action, or several (repeated keys or comma-joined)', async () => {
    const one = (await list('first=200&action=create_secret')).body.items;
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((e) => e.action === 'create_secret')).toBe(true);
    const repeated = await list('first=1&action=create_secret&action=delete_secret');
    const joined = await list('first=1&action=create_secret,delete_secret');
    const total = (q: string) =>
      sb.db.prepare(`SELECT count(*) AS n FROM audit_logs WHERE action IN (${q})`).get() as { n: number };
    expect(repeated.body.total).toBe(total(`'create_secret','delete_secret'`).n);
    expect(joined.body.total).toBe(repeated.body.total);
  });

  it('filters by service user and by user (sandbox extension)', async () => {
    const sample = (await list('first=200')).body.items;
    const su = sample.find((e) => e.service_user_id)!;
    const u = sample.find((e) => e.user_id)!;
    const bySu = await readAll(`service_user_id=${su.service_user_id}`);
    expect(bySu.length).toBeGreaterThan(0);
    expect(
      bySu.every((e) => e.service_user_id === su.service_user_id && e.service_user_name === su.service_user_name),
    ).toBe(true);
    const byU = await readAll(`user_id=${u.user_id}&action=create_session`);
    expect(byU.every((e) => e.user_id === u.user_id && e.action === 'create_session')).toBe(true);
  });

  it('lists one organization at /v3/organizations/{org_id}/audit-logs (extension), with the same query', async () => {
    const orgId = orgIds[1]!;
    const res = await sb.api.get<AuditPage>(
      `/v3/organizations/${orgId}/audit-logs?first=200&order=asc&action=update_git_permission`,
      VIEWER,
    );
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every((e) => e.org_id === orgId && e.action === 'update_git_permission')).toBe(true);
    expectSorted(res.body.items, 'asc');
    const missing = await sb.api.get('/v3/organizations/org-nope/audit-logs');
    expect(missing.status).toBe(404);
  });

  it('is readable by the viewer credential and refuses a missing one', async () => {
    expect((await list('first=1', VIEWER)).status).toBe(200);
    expect((await sb.api.get(PATH, null)).status).toBe(401);
  });
});

describe('bad input (422)', () => {
  it.each([
    [
      'time_after later than time_before',
      'time_after=200&time_before=100',
      ['query', 'time_after'],
      /must not be later than time_before/,
    ],
    ['an unknown order', 'order=newest', ['query', 'order'], /order must be asc or desc/],
    ['a malformed cursor', 'after=%%%not-a-cursor', ['query', 'after'], /cursor/],
    [
      'a cursor of another list',
      `after=${Buffer.from(JSON.stringify({ s: 'organizations', k: [1, 'x'] })).toString('base64url')}`,
      ['query', 'after'],
      /cursor/,
    ],
    ['a time bound that is not an integer', 'time_after=yesterday', ['query', 'time_after'], /integer/],
    ['a negative time bound', 'time_before=-5', ['query', 'time_before'], /integer/],
    ['an action that is not a name', 'action=drop%20table', ['query', 'action', 0], /action value/],
  ])('refuses %s with a field error', async (_name, query, loc, msg) => {
    const res = await sb.api.get(`${PATH}?${query}`);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const err = (res.body.errors as Array<{ loc: unknown[]; msg: string }>).find(
      (e) => JSON.stringify(e.loc) === JSON.stringify(loc),
    );
    expect(err, JSON.stringify(res.body.errors)).toBeDefined();
    expect(err!.msg).toMatch(msg);
  });
});

describe('cursor stability while entries are appended', () => {
  it.each(['desc', 'asc'] as const)('never skips or repeats an entry (order=%s)', async (order) => {
    const newest = (await list('first=1')).body.items[0]!.created_at;
    const from = newest - 3 * 86_400;
    const q = `time_after=${from}&order=${order}`;
    const before = await readAll(q);
    let n = 0;
    const paged = await readAll(q, 37, () => {
      // New entries arrive now (after everything), and at instants inside the range already served or not.
      sb.ctx.audit({ action: 'create_session', org_id: orgIds[0], data: { n } });
      sb.ctx.audit({ action: 'create_session', created_at: from + ((n * 7919) % (3 * 86_400)), data: { n } });
      n++;
    });
    const ids = paged.map((e) => e.audit_log_id);
    expect(new Set(ids).size).toBe(ids.length);
    expectSorted(paged, order);
    const seen = new Set(ids);
    // Everything that existed when paging began was served, in order.
    expect(before.filter((e) => !seen.has(e.audit_log_id))).toEqual([]);
    const beforeIds = new Set(before.map((e) => e.audit_log_id));
    expect(ids.filter((id) => beforeIds.has(id))).toEqual(before.map((e) => e.audit_log_id));
  });

  it('shows an entry appended by a mutation (ctx.audit) first in the default order', async () => {
    sb.ctx.audit({
      action: 'create_secret',
      org_id: orgIds[0],
      principal: { service_user_id: 'service-user-sandbox-admin', service_user_name: 'Sandbox Admin' },
      data: { key: 'APPENDED_KEY' },
      created_at: sb.ctx.now() + 60,
    });
    const top = (await list('first=1')).body.items[0]!;
    expect(top).toMatchObject({
      action: 'create_secret',
      service_user_id: 'service-user-sandbox-admin',
      service_user_name: 'Sandbox Admin',
      data: { key: 'APPENDED_KEY' },
    });
  });
});

describe('every failing field at once', () => {
  it('reports an inverted range together with an unknown order', async () => {
    const res = await list('time_after=200&time_before=100&order=up');
    expect(res.status).toBe(422);
    const locs = (res.body as unknown as { errors: Array<{ loc: string[] }> }).errors.map((e) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['query.order', 'query.time_after']));
  });
});
