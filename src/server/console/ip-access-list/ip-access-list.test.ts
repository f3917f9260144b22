/**
 * The console's safe IP access list endpoints over HTTP, in front of a test sandbox that enforces the list:
 * the version check (409 with what changed), concurrent applies (exactly one wins), lockout protection (422
 * naming the addresses; the typed enterprise name overrides it, and then the sandbox really refuses the
 * console), validation (422 per entry), history with diffs and restore, and the credential never answered.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ConsoleIpAccessList,
  ConsoleIpApplyResult,
  IpAccessListConflict,
  IpAccessListLockout,
  IpRevisionPage,
} from '../../../api/console/ip-access-list';
import { ADMIN, startTestConsole } from '../../../test/harness';
import { startFakeUpstream } from '../../../test/fake-upstream';
import { readIpAccessList, resetIpAccessList, SEED_IP_RANGES } from '../../../sandbox/modules/ip-access-list';
import { ipAccessListVersion, SANDBOX_ENTERPRISE_NAME } from './index';

const PATH = '/console/ip-access-list';
const API_PATH = '/v3/enterprise/ip-access-list';

let con: Awaited<ReturnType<typeof startTestConsole>>;
/** Every answer the console gave in this file, to check none carries the credential. */
const answered: string[] = [];

async function call(method: string, path: string, body?: unknown) {
  const res = await con.api.call(method, path, body === undefined ? {} : { body });
  answered.push(res.text);
  return res;
}

async function current() {
  const res = await call('GET', PATH);
  expect(res.status, res.text).toBe(200);
  return ConsoleIpAccessList.parse(res.body);
}

const apply = (base: { version: string; ip_ranges: string[] }, ip_ranges: unknown, extra: object = {}) =>
  call('PUT', PATH, { base_version: base.version, base: base.ip_ranges, ip_ranges, ...extra });

const revisions = async () => IpRevisionPage.parse((await call('GET', `${PATH}/revisions`)).body);

beforeAll(async () => {
  con = await startTestConsole({ sandbox: { tickMs: 60_000 } });
});
afterAll(async () => {
  for (const text of answered) expect(text).not.toContain(ADMIN);
  await con?.close();
});
beforeEach(() => {
  const db = con.sandbox!.db;
  db.prepare('DELETE FROM ip_access_list').run();
  db.prepare(`INSERT INTO ip_access_list (position, ip_range) SELECT key, value FROM json_each(?)`).run(
    JSON.stringify(SEED_IP_RANGES),
  );
});

describe('reading', () => {
  it('answers the list, its version, the console’s own addresses and the enterprise’s name', async () => {
    const list = await current();
    expect(list.ip_ranges).toEqual([...SEED_IP_RANGES]);
    expect(list.count).toBe(SEED_IP_RANGES.length);
    expect(list.version).toBe(ipAccessListVersion([...SEED_IP_RANGES]));
    expect(list.protected_addresses).toEqual(['127.0.0.1', '::1']);
    expect(list.enterprise_name).toBe(SANDBOX_ENTERPRISE_NAME);
  });
});

describe('apply', () => {
  it('replaces the list and records a revision with what was added and removed', async () => {
    const base = await current();
    const next = [...SEED_IP_RANGES.filter((r) => r !== '203.0.113.0/24'), '172.16.0.0/12'];
    const res = await apply(base, next);
    expect(res.status, res.text).toBe(200);
    const result = ConsoleIpApplyResult.parse(res.body);
    expect(result.ip_ranges).toEqual(next);
    expect(result.version).toBe(ipAccessListVersion(next));
    expect(result.revision).toMatchObject({
      action: 'replace',
      status: 'applied',
      added: ['172.16.0.0/12'],
      removed: ['203.0.113.0/24'],
      previous_count: SEED_IP_RANGES.length,
      result_count: next.length,
      locked_out: [],
    });
    expect(readIpAccessList(con.sandbox!.db)).toEqual(next);
    // The sandbox's audit log has the change, made with the console's credential.
    const audit = con.sandbox!.db.prepare(`SELECT action FROM audit_logs ORDER BY rowid DESC LIMIT 1`).get() as {
      action: string;
    };
    expect(audit.action).toBe('replace_ip_access_list');
  });

  it('answers unchanged (and records nothing) when the list is the same', async () => {
    const base = await current();
    const before = (await revisions()).total;
    const res = await apply(base, [...SEED_IP_RANGES]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ unchanged: true, revision: null });
    expect((await revisions()).total).toBe(before);
  });

  it('answers 409 with what changed meanwhile, and applies nothing', async () => {
    const base = await current();
    // Another admin, directly through the API: one range added, one removed.
    const other = [...SEED_IP_RANGES.filter((r) => r !== '198.51.100.17'), '192.0.2.0/24'];
    expect((await con.sandbox!.api.call('PUT', API_PATH, { body: { ip_ranges: other } })).status).toBe(200);
    const before = (await revisions()).total;

    const res = await apply(base, [...SEED_IP_RANGES, '172.16.0.0/12']);
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = IpAccessListConflict.parse(res.body);
    expect(body.changes).toEqual({ added: ['192.0.2.0/24'], removed: ['198.51.100.17'] });
    expect(body.current).toEqual(other);
    expect(body.current_version).toBe(ipAccessListVersion(other));
    expect(body.detail).toMatch(/changed since the edit started \(1 added, 1 removed\)/);
    expect(readIpAccessList(con.sandbox!.db)).toEqual(other);
    expect((await revisions()).total).toBe(before);

    // A version alone (no base) still gets the 409, without the difference.
    const bare = await call('PUT', PATH, { base_version: 'stale', ip_ranges: [...SEED_IP_RANGES] });
    expect(bare.status).toBe(409);
    expect(bare.body.changes).toBeNull();
  });

  it('lets exactly one of two concurrent applies from the same version through', async () => {
    const base = await current();
    const a = [...SEED_IP_RANGES, '172.16.0.0/12'];
    const b = [...SEED_IP_RANGES, '192.0.2.0/24'];
    const results = await Promise.all([
      apply(base, a),
      apply(base, b),
      apply(base, [...SEED_IP_RANGES, '198.18.0.0/15']),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expect(readIpAccessList(con.sandbox!.db)).toEqual(winner.body.ip_ranges);
    for (const loser of results.filter((r) => r.status === 409)) {
      expect(loser.body.current).toEqual(winner.body.ip_ranges);
    }
  });

  it('refuses malformed entries with 422 on each one, and changes nothing', async () => {
    const base = await current();
    const res = await apply(base, ['127.0.0.1', '10.0.0.0/33', '::1/129', '300.1.1.1', '::1']);
    expect(res.status).toBe(422);
    const byLoc = Object.fromEntries(
      res.body.errors.map((e: { loc: unknown[]; msg: string }) => [e.loc.join('.'), e.msg]),
    );
    expect(byLoc['body.ip_ranges.1']).toMatch(/"10\.0\.0\.0\/33".*0 to 32/);
    expect(byLoc['body.ip_ranges.2']).toMatch(/"::1\/129".*0 to 128/);
    expect(byLoc['body.ip_ranges.3']).toContain('"300.1.1.1"');
    expect(byLoc['body.ip_ranges.0']).toBeUndefined();
    expect((await call('PUT', PATH, { ip_ranges: [] })).body.errors[0].loc).toEqual(['body', 'base_version']);
    const mismatch = await call('PUT', PATH, { base_version: base.version, base: ['10.0.0.0/8'], ip_ranges: [] });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors[0].loc).toEqual(['body', 'base']);
    expect(readIpAccessList(con.sandbox!.db)).toEqual([...SEED_IP_RANGES]);
  });
});

describe('lockout protection', () => {
  afterEach(() => {
    // Whatever a test did, the console can reach the sandbox again.
    resetIpAccessList(con.sandbox!.db);
  });

  it('refuses a list that no longer admits the console’s addresses, naming them, and changes nothing', async () => {
    const base = await current();
    const before = (await revisions()).total;
    const res = await apply(base, ['10.20.0.0/16', '::1/128']);
    expect(res.status).toBe(422);
    const body = IpAccessListLockout.parse(res.body);
    expect(body.locked_out).toEqual(['127.0.0.1']);
    expect(body.override_available).toBe(true);
    expect(body.detail).toMatch(/would lock the console out.*127\.0\.0\.1/);
    expect(res.body.errors[0].loc).toEqual(['body', 'override_enterprise_name']);
    expect(readIpAccessList(con.sandbox!.db)).toEqual([...SEED_IP_RANGES]);
    expect((await revisions()).total).toBe(before);

    // A name that is not exactly the enterprise's does not override.
    const wrong = await apply(base, ['10.20.0.0/16'], {
      override_enterprise_name: SANDBOX_ENTERPRISE_NAME.toLowerCase(),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.locked_out).toEqual(['127.0.0.1', '::1']);
    expect(wrong.body.errors[0].msg).toMatch(/does not match/i);
    expect(readIpAccessList(con.sandbox!.db)).toEqual([...SEED_IP_RANGES]);
  });

  it('applies it when the enterprise’s name is typed exactly; the sandbox then refuses the console (401)', async () => {
    const base = await current();
    const res = await apply(base, ['10.20.0.0/16'], { override_enterprise_name: SANDBOX_ENTERPRISE_NAME });
    expect(res.status, res.text).toBe(200);
    expect(res.body.revision).toMatchObject({ status: 'applied', locked_out: ['127.0.0.1', '::1'] });
    expect(readIpAccessList(con.sandbox!.db)).toEqual(['10.20.0.0/16']);

    // Locked out for real: the console's next request reaches the sandbox from loopback.
    const after = await call('GET', PATH);
    expect(after.status).toBe(401);
    expect(after.body.reason).toBe('ip_not_allowed');
    expect(after.body.detail).toMatch(/127\.0\.0\.1 are not allowed/);
    expect((await con.api.get('/api/v3/enterprise/organizations')).status).toBe(401);

    // The reset (npm start -- --reset-ip-access-list) clears the list: everything answers again.
    resetIpAccessList(con.sandbox!.db);
    expect((await current()).ip_ranges).toEqual([]);
  });

  it('clears the list without any override (an empty list restricts nobody)', async () => {
    const base = await current();
    const res = await apply(base, []);
    expect(res.status, res.text).toBe(200);
    expect(res.body.ip_ranges).toEqual([]);
    expect(res.body.revision).toMatchObject({ action: 'clear', removed: [...SEED_IP_RANGES], added: [] });
  });
});

describe('history and restore', () => {
  it('lists revisions newest first with their diffs, and restores a previous list through the same checks', async () => {
    const start = await current();
    const first = await apply(start, [...SEED_IP_RANGES, '172.16.0.0/12']);
    expect(first.status).toBe(200);
    const second = await apply(
      first.body,
      first.body.ip_ranges.filter((r: string) => r !== '10.20.0.0/16'),
    );
    expect(second.status).toBe(200);

    const page = await revisions();
    expect(page.items[0]).toMatchObject({
      revision_id: second.body.revision.revision_id,
      removed: ['10.20.0.0/16'],
      added: [],
    });
    expect(page.items[1]).toMatchObject({ revision_id: first.body.revision.revision_id, added: ['172.16.0.0/12'] });
    const one = await call('GET', `${PATH}/revisions/${first.body.revision.revision_id}`);
    expect(one.body.previous).toEqual([...SEED_IP_RANGES]);
    expect(one.body.result).toEqual([...SEED_IP_RANGES, '172.16.0.0/12']);

    // Restore from a stale version: 409, nothing changes.
    const restorePath = `${PATH}/revisions/${first.body.revision.revision_id}/restore`;
    const stale = await call('POST', restorePath, { base_version: start.version });
    expect(stale.status).toBe(409);
    expect(readIpAccessList(con.sandbox!.db)).toEqual(second.body.ip_ranges);

    // Restore the list before the first change (the default), from the current version.
    const now = await current();
    const restored = await call('POST', restorePath, { base_version: now.version, base: now.ip_ranges });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.ip_ranges).toEqual([...SEED_IP_RANGES]);
    expect(restored.body.revision).toMatchObject({
      action: 'restore',
      restored_from: first.body.revision.revision_id,
      added: ['10.20.0.0/16'],
      removed: ['172.16.0.0/12'],
    });
    expect(readIpAccessList(con.sandbox!.db)).toEqual([...SEED_IP_RANGES]);

    // Or a revision's result.
    const again = await current();
    const result = await call('POST', restorePath, { base_version: again.version, set: 'result' });
    expect(result.body.ip_ranges).toEqual([...SEED_IP_RANGES, '172.16.0.0/12']);
  });

  it('refuses a restore that would lock the console out unless overridden, and 404s an unknown revision', async () => {
    const start = await current();
    const cleared = await apply(start, []);
    const locked = await apply(cleared.body, ['10.0.0.0/8'], { override_enterprise_name: SANDBOX_ENTERPRISE_NAME });
    expect(locked.status).toBe(200);
    resetIpAccessList(con.sandbox!.db);
    // Revision `locked` resulted in a list without loopback: restoring its result is refused.
    const now = await current();
    const res = await call('POST', `${PATH}/revisions/${locked.body.revision.revision_id}/restore`, {
      base_version: now.version,
      set: 'result',
    });
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('lockout');
    expect(readIpAccessList(con.sandbox!.db)).toEqual([]);
    expect((await call('GET', `${PATH}/revisions/999999`)).status).toBe(404);
    expect((await call('POST', `${PATH}/revisions/999999/restore`, { base_version: now.version })).status).toBe(404);
    expect((await call('GET', `${PATH}/revisions/abc`)).status).toBe(404);
  });

  it('pages the history by cursor', async () => {
    let base = await current();
    for (const r of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      const res = await apply(base, [...base.ip_ranges, r]);
      base = res.body;
    }
    const page1 = IpRevisionPage.parse((await call('GET', `${PATH}/revisions?first=2`)).body);
    expect(page1.items).toHaveLength(2);
    expect(page1.has_next_page).toBe(true);
    const page2 = IpRevisionPage.parse((await call('GET', `${PATH}/revisions?first=2&after=${page1.end_cursor}`)).body);
    expect(page2.items[0]!.revision_id).toBeLessThan(page1.items[1]!.revision_id);
    expect((await call('GET', `${PATH}/revisions?first=0`)).status).toBe(422);
  });
});

describe('CONSOLE_EGRESS_IPS against a real API', () => {
  it('protects the configured addresses and, without CONSOLE_ENTERPRISE_NAME, allows no override', async () => {
    const other = await startTestConsole({
      config: { mode: 'upstream', consoleEgressIps: ['198.51.100.17', '2001:db8:4200::9'] },
      sandbox: { tickMs: 60_000 },
    });
    try {
      const base = (await other.api.get(PATH)).body;
      expect(base.protected_addresses).toEqual(['198.51.100.17', '2001:db8:4200::9']);
      expect(base.enterprise_name).toBeNull();
      const res = await other.api.call('PUT', PATH, {
        body: {
          base_version: base.version,
          ip_ranges: ['127.0.0.0/8', '2001:db8:4200::/48'],
          override_enterprise_name: 'x',
        },
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ locked_out: ['198.51.100.17'], override_available: false });
      expect(res.body.detail).toMatch(/CONSOLE_ENTERPRISE_NAME/);
    } finally {
      await other.close();
    }
  });
});

describe('the credential', () => {
  it('never reaches an answer or the history, even when the API echoes it in a failure', async () => {
    const KEY = 'cog_test_secret_never_shown_123';
    const fake = await startFakeUpstream((req, res) => {
      if (req.method === 'GET') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ip_ranges: ['127.0.0.1', '::1'] }));
      } else {
        res
          .writeHead(500, { 'content-type': 'application/problem+json' })
          .end(JSON.stringify({ status: 500, title: 'Internal', detail: `credential ${KEY} failed` }));
      }
    });
    const other = await startTestConsole({
      upstream: { baseUrl: fake.url, apiKey: KEY },
      config: { enterpriseName: 'Fake Corp' },
    });
    try {
      const base = (await other.api.get(PATH)).body;
      expect(base.enterprise_name).toBe('Fake Corp');
      const res = await other.api.call('PUT', PATH, {
        body: { base_version: base.version, ip_ranges: ['127.0.0.1', '::1', '10.0.0.0/8'] },
      });
      expect(res.status).toBe(500);
      expect(res.text).not.toContain(KEY);
      const history = await other.api.get(`${PATH}/revisions`);
      expect(history.body.items[0]).toMatchObject({ status: 'failed' });
      expect(history.text).not.toContain(KEY);
      expect(history.body.items[0].error).toMatch(/failed/);
    } finally {
      await other.close();
      await fake.close();
    }
  });
});
