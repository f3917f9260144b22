/**
 * Secrets over HTTP: list, create, delete, the rules (409 duplicate key, 422 empty key or value, deprecated
 * dictionary, a malformed TOTP seed, 404 unknown ids), the audit entries, encryption at rest, and that no
 * operation ever returns a value.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationList } from '../../../api/operations';
import { VIEWER, startTestSandbox } from '../../../test/harness';
import { createSandbox } from '../../index';
import { openSecretValue, SECRETS_KEY_FILE } from './store';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgId: string;
const path = () => `/v3/organizations/${orgId}/secrets`;
const create = (body: unknown) => sb.api.call('POST', path(), { body });
const lastAudit = () =>
  sb.db.prepare('SELECT action, org_id, data FROM audit_logs ORDER BY rowid DESC LIMIT 1').get() as {
    action: string;
    org_id: string;
    data: string;
  };
const count = () => (sb.db.prepare('SELECT count(*) AS n FROM secrets').get() as { n: number }).n;

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
  orgId = (await sb.api.get('/v3/enterprise/organizations?first=1')).body.items[0].org_id;
});
afterAll(() => sb.stop());

describe('secrets', () => {
  it('are seeded per organization, dictionary ones included, and listed newest first in cursor pages', async () => {
    const res = await sb.api.get(`${path()}?first=3`);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(3);
    expect(res.body.has_next_page).toBe(true);
    const all = [...res.body.items];
    let after = res.body.end_cursor;
    while (after) {
      const next = await sb.api.get(`${path()}?first=3&after=${after}`);
      all.push(...next.body.items);
      after = next.body.has_next_page ? next.body.end_cursor : null;
    }
    expect(all.length).toBe(res.body.total);
    expect(all.map((s) => s.created_at)).toEqual([...all.map((s) => s.created_at)].sort((a, b) => b - a));
    const types = new Set(
      (sb.db.prepare('SELECT secret_type FROM secrets').all() as { secret_type: string }[]).map((r) => r.secret_type),
    );
    expect(types).toEqual(new Set(['cookie', 'key-value', 'totp', 'dictionary']));
    for (const s of all) {
      expect(s).toMatchObject({
        secret_id: expect.any(String),
        key: expect.any(String),
        created_by: expect.any(String),
      });
      expect(s).not.toHaveProperty('value');
    }
  });

  it('creates a secret, answers it without its value, stores the value encrypted and audits it', async () => {
    const value = 'hunter2-created-value-9f8e7d';
    const res = await create({ type: 'key-value', key: 'DEPLOY_KEY', value, note: 'for deploys' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      secret_type: 'key-value',
      key: 'DEPLOY_KEY',
      note: 'for deploys',
      is_sensitive: true,
      access_type: 'org',
      created_by: expect.stringMatching(/^service-user-/),
      created_by_name: 'Sandbox Admin',
    });
    expect(res.text).not.toContain(value);
    const row = sb.db.prepare('SELECT * FROM secrets WHERE secret_id = ?').get(res.body.secret_id) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(row)).not.toContain(value);
    expect(Buffer.from(row.value_sealed as Buffer).includes(Buffer.from(value))).toBe(false);
    expect(openSecretValue(sb.db, res.body.secret_id, row.value_sealed as Buffer)).toBe(value);
    // Bound to its row: the ciphertext does not open as another secret's.
    expect(() => openSecretValue(sb.db, 'secret-other', row.value_sealed as Buffer)).toThrow();
    const audit = lastAudit();
    expect(audit).toMatchObject({ action: 'create_secret', org_id: orgId });
    expect(audit.data).toContain('DEPLOY_KEY');
    expect(audit.data).not.toContain(value);
    const listed = await sb.api.get(`${path()}?first=1`);
    expect(listed.body.items[0].secret_id).toBe(res.body.secret_id);
  });

  it('answers 409 to a second secret with the same key, changing nothing', async () => {
    await create({ type: 'cookie', key: 'dup.example.com', value: 'a=1' });
    const before = count();
    const res = await create({ type: 'key-value', key: 'dup.example.com', value: 'other' });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('dup.example.com');
    expect(count()).toBe(before);
    // The same key in another organization is another secret.
    const other = (await sb.api.get('/v3/enterprise/organizations?first=2')).body.items[1].org_id;
    const there = await sb.api.call('POST', `/v3/organizations/${other}/secrets`, {
      body: { type: 'cookie', key: 'dup.example.com', value: 'a=1' },
    });
    expect(there.status).toBe(200);
  });

  it.each([
    ['an empty key', { type: 'key-value', key: '  ', value: 'v' }, 'body.key'],
    ['an empty value', { type: 'key-value', key: 'EMPTY', value: '' }, 'body.value'],
    ['a dictionary secret (deprecated)', { type: 'dictionary', key: 'DICT', value: '{"a":1}' }, 'body.type'],
    ['an unknown type', { type: 'password', key: 'P', value: 'v' }, 'body.type'],
    ['a TOTP value that is no seed', { type: 'totp', key: 'MFA', value: 'not a seed!' }, 'body.value'],
    ['a key over 256 characters', { type: 'key-value', key: 'k'.repeat(257), value: 'v' }, 'body.key'],
    ['a missing value', { type: 'key-value', key: 'NOVALUE' }, 'body.value'],
  ])('answers 422 to %s, changing nothing', async (_name, body, loc) => {
    const before = count();
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { loc: string[] }) => e.loc.join('.'))).toContain(loc);
    expect(count()).toBe(before);
  });

  it('says why a dictionary secret is refused', async () => {
    const res = await create({ type: 'dictionary', key: 'DICT', value: 'x' });
    expect(res.body.errors[0].msg).toMatch(/deprecated/);
  });

  it('accepts a TOTP seed in base32 or as an otpauth URI', async () => {
    expect((await create({ type: 'totp', key: 'MFA_1', value: 'JBSW Y3DP EHPK 3PXP JBSW Y3DP' })).status).toBe(200);
    expect(
      (
        await create({
          type: 'totp',
          key: 'MFA_2',
          value: 'otpauth://totp/Acme:bot?secret=JBSWY3DPEHPK3PXP&issuer=Acme',
        })
      ).status,
    ).toBe(200);
  });

  it('deletes a secret (answering it without its value), audits it, and 404s unknown ids', async () => {
    const value = 'delete-me-value-5a4b3c';
    const made = await create({ type: 'key-value', key: 'TO_DELETE', value });
    const res = await sb.api.call('DELETE', `${path()}/${made.body.secret_id}`);
    expect(res.status).toBe(200);
    expect(res.body.key).toBe('TO_DELETE');
    expect(res.text).not.toContain(value);
    expect(lastAudit()).toMatchObject({ action: 'delete_secret', org_id: orgId });
    expect((await sb.api.call('DELETE', `${path()}/${made.body.secret_id}`)).status).toBe(404);
    expect((await sb.api.call('DELETE', `${path()}/secret-unknown`)).status).toBe(404);
    // A secret of another organization is not found through this one.
    const other = (await sb.api.get('/v3/enterprise/organizations?first=2')).body.items[1].org_id;
    const theirs = (await sb.api.get(`/v3/organizations/${other}/secrets?first=1`)).body.items[0];
    expect((await sb.api.call('DELETE', `${path()}/${theirs.secret_id}`)).status).toBe(404);
    // The key is free again.
    expect((await create({ type: 'key-value', key: 'TO_DELETE', value: 'again' })).status).toBe(200);
  });

  it('refuses the viewer (ManageOrgSecrets)', async () => {
    const res = await sb.api.call('GET', path(), { token: VIEWER });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageOrgSecrets');
  });

  it('never returns a value: every secrets operation, every answer body searched', async () => {
    const values = ['known-value-A-71c2e0d4', 'known-value-B-93ab11f7'];
    const bodies: string[] = [];
    const made = [];
    for (const [i, value] of values.entries()) {
      const r = await create({ type: 'key-value', key: `SEARCH_${i}`, value, is_sensitive: i === 0 });
      bodies.push(r.text);
      made.push(r.body);
    }
    bodies.push((await create({ type: 'key-value', key: 'SEARCH_0', value: values[0] })).text); // 409
    bodies.push((await create({ type: 'totp', key: 'SEARCH_T', value: values[1] })).text); // 422
    let after: string | null = null;
    do {
      const page: { text: string; body: { end_cursor: string | null; has_next_page: boolean } } = await sb.api.get(
        `${path()}?first=2${after ? `&after=${after}` : ''}`,
      );
      bodies.push(page.text);
      after = page.body.has_next_page ? page.body.end_cursor : null;
    } while (after);
    bodies.push((await sb.api.call('DELETE', `${path()}/${made[0].secret_id}`)).text);
    bodies.push((await sb.api.get(`/v3/enterprise/audit-logs?first=50`)).text);
    bodies.push((await sb.api.get(`/v3/organizations/${orgId}/audit-logs?first=50`)).text);
    const secretOps = operationList.filter((o) => o.id.startsWith('secrets.')).map((o) => o.id);
    expect(secretOps.sort()).toEqual(['secrets.create', 'secrets.delete', 'secrets.list']);
    for (const body of bodies) for (const value of values) expect(body).not.toContain(value);
  });
});

describe('encryption key at rest', () => {
  it('is kept in the data directory (0600) and opens the stored values after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-key-'));
    try {
      const dbPath = join(dir, 'sandbox.db');
      const first = createSandbox({ dbPath, tickMs: 60_000 });
      const org = (first.db.prepare('SELECT org_id FROM organizations LIMIT 1').get() as { org_id: string }).org_id;
      const res = await first.fetch(
        new Request(`http://127.0.0.1/v3/organizations/${org}/secrets`, {
          method: 'POST',
          headers: { authorization: 'Bearer cog_sandbox_admin', 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'key-value', key: 'AT_REST', value: 'persisted-value-1' }),
        }),
      );
      const { secret_id } = (await res.json()) as { secret_id: string };
      first.close();
      const keyFile = join(dir, SECRETS_KEY_FILE);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(keyFile)).toHaveLength(32);
      expect(readFileSync(dbPath).includes(Buffer.from('persisted-value-1'))).toBe(false);
      const again = createSandbox({ dbPath, tickMs: 60_000 });
      const row = again.db.prepare('SELECT value_sealed FROM secrets WHERE secret_id = ?').get(secret_id) as {
        value_sealed: Buffer;
      };
      expect(openSecretValue(again.db, secret_id, row.value_sealed)).toBe('persisted-value-1');
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
