/**
 * The IP access list over HTTP: the seed (with loopback), replace, append (merging, no duplicates), clear, the
 * 422s that name the bad entry, the audit trail, and enforcement before authentication with its recovery.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IP_ACCESS_LIST_LIMITS } from '../../../api/operations/ip-access-list';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';
import { createSandbox, resetIpAccessListAt } from '../../index';
import { ipAccessRefusal, readIpAccessList, SEED_IP_RANGES } from './index';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
const PATH = '/v3/enterprise/ip-access-list';
const put = (ip_ranges: unknown, token: string = ADMIN) => sb.api.call('PUT', PATH, { body: { ip_ranges }, token });
const post = (ip_ranges: unknown) => sb.api.call('POST', PATH, { body: { ip_ranges } });
const lastAudit = () =>
  sb.db.prepare('SELECT * FROM audit_logs ORDER BY rowid DESC LIMIT 1').get() as {
    action: string;
    service_user_name: string;
    data: string;
  };

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
});
afterAll(() => sb.stop());
beforeEach(async () => {
  sb.db.prepare('DELETE FROM ip_access_list').run();
  sb.db
    .prepare(`INSERT INTO ip_access_list (position, ip_range) SELECT key, value FROM json_each(?)`)
    .run(JSON.stringify(SEED_IP_RANGES));
});

describe('read and change', () => {
  it('is seeded with a few ranges including loopback of both families', async () => {
    const res = await sb.api.get(PATH);
    expect(res.status).toBe(200);
    expect(res.body.ip_ranges).toEqual([...SEED_IP_RANGES]);
    expect(res.body.ip_ranges).toEqual(expect.arrayContaining(['127.0.0.0/8', '::1/128']));
  });

  it('replaces the whole list, storing entries as given (trimmed), duplicates after normalization once', async () => {
    const res = await put([' 127.0.0.1/32 ', '10.0.0.5/8', '10.0.0.0/8', '2001:DB8::/32', '198.51.100.7']);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ip_ranges).toEqual(['127.0.0.1/32', '10.0.0.5/8', '2001:DB8::/32', '198.51.100.7']);
    expect((await sb.api.get(PATH)).body.ip_ranges).toEqual(res.body.ip_ranges);
    const audit = lastAudit();
    expect(audit.action).toBe('replace_ip_access_list');
    expect(audit.service_user_name).toBeTruthy();
    expect(JSON.parse(audit.data).previous_ip_ranges).toEqual([...SEED_IP_RANGES]);
  });

  it('appends, merging with the current list without duplicates', async () => {
    const res = await post(['10.20.0.0/16', '10.20.1.1/16', '172.16.0.0/12', '172.16.0.0/12']);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ip_ranges).toEqual([...SEED_IP_RANGES, '172.16.0.0/12']);
    const audit = lastAudit();
    expect(audit.action).toBe('append_ip_access_list');
    expect(JSON.parse(audit.data).added).toEqual(['172.16.0.0/12']);
  });

  it('clears the list', async () => {
    const res = await sb.api.call('DELETE', PATH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ip_ranges: [] });
    expect(lastAudit().action).toBe('clear_ip_access_list');
    // Empty: every address is accepted.
    expect(ipAccessRefusal(sb.db, '203.0.113.99')).toBeNull();
  });

  it('answers 422 with a field error naming each bad entry, and changes nothing', async () => {
    for (const method of ['PUT', 'POST']) {
      const res = await sb.api.call(method, PATH, {
        body: { ip_ranges: ['127.0.0.1', '10.0.0.0/33', '::1/129', '300.1.1.1'] },
      });
      expect(res.status).toBe(422);
      const byLoc = Object.fromEntries(
        res.body.errors.map((e: { loc: unknown[]; msg: string }) => [e.loc.join('.'), e.msg]),
      );
      expect(byLoc['body.ip_ranges.1']).toContain('"10.0.0.0/33"');
      expect(byLoc['body.ip_ranges.2']).toContain('"::1/129"');
      expect(byLoc['body.ip_ranges.3']).toContain('"300.1.1.1"');
      expect(byLoc['body.ip_ranges.0']).toBeUndefined();
      expect(res.body.detail).toContain('10.0.0.0/33');
    }
    expect((await put('10.0.0.0/8')).status).toBe(422);
    expect((await sb.api.call('PUT', PATH, { body: {} })).status).toBe(422);
    expect((await sb.api.call('PUT', PATH, { body: { ip_ranges: [], extra: 1 } })).status).toBe(422);
    expect(readIpAccessList(sb.db)).toEqual([...SEED_IP_RANGES]);
  });

  it(`holds at most ${IP_ACCESS_LIST_LIMITS.entries} entries, on replace and on append`, async () => {
    const many = Array.from({ length: IP_ACCESS_LIST_LIMITS.entries + 1 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    expect((await put(many)).status).toBe(422);
    expect((await put(['127.0.0.1', ...many.slice(0, IP_ACCESS_LIST_LIMITS.entries - 1)])).status).toBe(200);
    const res = await post(['192.0.2.0/24']);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].msg).toContain(String(IP_ACCESS_LIST_LIMITS.entries));
  });

  it('needs ManageEnterpriseSettings', async () => {
    expect((await sb.api.get(PATH, VIEWER)).status).toBe(403);
    expect((await put([], VIEWER)).status).toBe(403);
  });
});

describe('enforcement', () => {
  it('refuses requests from outside a non-empty list with 401, before authentication', async () => {
    expect((await put(['10.0.0.0/8'])).status).toBe(200);
    for (const token of [ADMIN, null, 'cog_nope']) {
      const res = await sb.api.call('GET', '/v3/enterprise/organizations', { token });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body.detail).toBe(
        "Requests from IP address 127.0.0.1 are not allowed by the enterprise's IP access list",
      );
      expect(res.body.reason).toBe('ip_not_allowed');
    }
    // Locked out: the reset clears the list in the store.
    sb.db.prepare('DELETE FROM ip_access_list').run();
    expect((await sb.api.get('/v3/enterprise/organizations')).status).toBe(200);
  });

  it('accepts addresses inside the list; IPv4-mapped IPv6 counts as IPv4', () => {
    expect(ipAccessRefusal(sb.db, '127.0.0.1')).toBeNull();
    expect(ipAccessRefusal(sb.db, '::ffff:127.0.0.1')).toBeNull();
    expect(ipAccessRefusal(sb.db, '::1')).toBeNull();
    expect(ipAccessRefusal(sb.db, '10.20.3.4')).toBeNull();
    expect(ipAccessRefusal(sb.db, '2001:db8:4200:1::9')).toBeNull();
    expect(ipAccessRefusal(sb.db, '::ffff:192.0.2.1')).toContain('192.0.2.1 are not allowed');
    expect(ipAccessRefusal(sb.db, '2001:db8:4201::1')).toContain('not allowed');
  });
});

describe('--reset-ip-access-list', () => {
  it('a list without loopback answers 401 to the next request; the reset brings the sandbox back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ip-lockout-'));
    const dbPath = join(dir, 'sandbox.db');
    try {
      let running = await startTestSandbox({ dbPath, tickMs: 60_000 });
      try {
        const res = await running.api.call('PUT', PATH, { body: { ip_ranges: ['192.0.2.0/24'] } });
        expect(res.status).toBe(200);
        const next = await running.api.get('/v3/enterprise/organizations');
        expect(next.status).toBe(401);
        expect(next.body).toMatchObject({ reason: 'ip_not_allowed' });
        // Even the list itself cannot be read or changed back: the admin is locked out.
        expect((await running.api.call('DELETE', PATH)).status).toBe(401);
      } finally {
        await running.stop();
      }
      expect(resetIpAccessListAt(dbPath)).toEqual(['192.0.2.0/24']);
      running = await startTestSandbox({ dbPath, tickMs: 60_000 });
      try {
        expect((await running.api.get('/v3/enterprise/organizations')).status).toBe(200);
        expect((await running.api.get(PATH)).body).toEqual({ ip_ranges: [] });
      } finally {
        await running.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('clears the list of a store on disk and writes an audit entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ip-reset-'));
    try {
      const path = join(dir, 'sandbox.db');
      const first = createSandbox({ dbPath: path, tickMs: 60_000 });
      first.db.prepare('DELETE FROM ip_access_list').run();
      first.db.prepare(`INSERT INTO ip_access_list (position, ip_range) VALUES (0, '192.0.2.0/24')`).run();
      first.close();
      expect(resetIpAccessListAt(path)).toEqual(['192.0.2.0/24']);
      const again = createSandbox({ dbPath: path, tickMs: 60_000 });
      try {
        expect(readIpAccessList(again.db)).toEqual([]);
        const audit = again.db
          .prepare(`SELECT data FROM audit_logs WHERE action = 'clear_ip_access_list' ORDER BY rowid DESC LIMIT 1`)
          .get() as { data: string };
        expect(JSON.parse(audit.data).previous_ip_ranges).toEqual(['192.0.2.0/24']);
      } finally {
        again.close();
      }
      expect(resetIpAccessListAt(path)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
