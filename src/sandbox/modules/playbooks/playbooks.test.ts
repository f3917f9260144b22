/** Playbooks over HTTP: both lists and their search, create/get/update/delete, macro rules, 404s, 422s, 403s, audit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER, startTestSandbox } from '../../../test/harness';
import { PLAYBOOKS } from '../sessions/seed-data';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgId: string;
let otherOrgId: string;

const ENT = '/v3/enterprise/playbooks';
const org = (id = orgId) => `/v3/organizations/${id}/playbooks`;

interface Playbook {
  playbook_id: string;
  title: string;
  body: string;
  macro: string | null;
  access_type: 'enterprise' | 'org';
  org_id: string | null;
  created_by: string;
  updated_by: string;
  created_at: number;
  updated_at: number;
}

async function all(path: string): Promise<Playbook[]> {
  const out: Playbook[] = [];
  let after: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: { status: number; body: any } = await sb.api.get(
      `${path}${sep}first=5${after ? `&after=${after}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

const audits = (action: string) =>
  sb.db.prepare('SELECT data, org_id FROM audit_logs WHERE action = ? ORDER BY rowid').all(action) as Array<{
    data: string;
    org_id: string | null;
  }>;

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await sb.api.get('/v3/enterprise/organizations');
  orgId = res.body.items[0].org_id;
  otherOrgId = res.body.items[1].org_id;
});
afterAll(() => sb.stop());

describe('seed', () => {
  it('holds enterprise playbooks with the ids seeded sessions use, and playbooks of each organization', async () => {
    const every = await all(ENT);
    const ids = new Set(every.map((p) => p.playbook_id));
    for (const id of PLAYBOOKS) expect(ids).toContain(id);
    expect(every.filter((p) => p.access_type === 'enterprise').every((p) => p.org_id === null)).toBe(true);
    expect(new Set(every.filter((p) => p.access_type === 'org').map((p) => p.org_id)).size).toBeGreaterThan(2);
    expect(every.some((p) => p.macro?.startsWith('!'))).toBe(true);
    for (const p of every) {
      expect(p.playbook_id).toMatch(/^playbook-/);
      expect(p.body.length).toBeGreaterThan(50);
      expect(Number.isInteger(p.created_at) && p.updated_at >= p.created_at).toBe(true);
    }
    // Every playbook a seeded session names resolves.
    const sessions = (await sb.api.get(`/v3/organizations/${orgId}/sessions?first=200`)).body.items as Array<{
      playbook_id: string | null;
    }>;
    const used = sessions.map((s) => s.playbook_id).filter((id): id is string => !!id);
    expect(used.length).toBeGreaterThan(0);
    for (const id of used) expect((await sb.api.get(`${ENT}/${id}`)).status).toBe(200);
  });
});

describe('lists', () => {
  it('the enterprise list holds every playbook in title order; access_type narrows it', async () => {
    const every = await all(ENT);
    const titles = every.map((p) => p.title.toLowerCase());
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const ent = await all(`${ENT}?access_type=enterprise`);
    const orgs = await all(`${ENT}?access_type=org`);
    expect(ent.length + orgs.length).toBe(every.length);
    expect(ent.every((p) => p.access_type === 'enterprise')).toBe(true);
  });

  it("an organization's list holds its own playbooks only", async () => {
    const mine = await all(org());
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((p) => p.access_type === 'org' && p.org_id === orgId)).toBe(true);
  });

  it('search matches title, macro and body, case-insensitively', async () => {
    expect((await all(`${ENT}?search=FLAKY`)).map((p) => p.playbook_id)).toContain('playbook-flaky-test');
    expect((await all(`${ENT}?search=!cve`)).map((p) => p.playbook_id)).toEqual(['playbook-security-patch']);
    expect((await all(`${ENT}?search=${encodeURIComponent('ignore list')}`)).map((p) => p.playbook_id)).toContain(
      'playbook-security-patch',
    );
    expect(await all(`${ENT}?search=zzzz-nothing`)).toEqual([]);
  });

  it('refuses an unknown access_type and an out-of-range page size', async () => {
    const bad = await sb.api.get(`${ENT}?access_type=team`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['query', 'access_type']);
    expect((await sb.api.get(`${org()}?first=201`)).status).toBe(422);
  });
});

describe('create, get, update, delete', () => {
  it('creates an organization playbook, attributed and audited, and reads it back', async () => {
    const res = await sb.api.call('POST', org(), {
      body: { title: '  Rotate keys ', body: '# Rotate\n\n1. Do it', macro: '!rotate-keys' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Rotate keys',
      access_type: 'org',
      org_id: orgId,
      macro: '!rotate-keys',
      created_by: 'service-user-sandbox-admin',
    });
    const got = await sb.api.get(`${org()}/${res.body.playbook_id}`);
    expect(got.body).toEqual(res.body);
    expect(audits('create_playbook').at(-1)).toMatchObject({ org_id: orgId });
    expect(JSON.parse(audits('create_playbook').at(-1)!.data)).toMatchObject({ playbook_id: res.body.playbook_id });
    // Another organization cannot see it.
    expect((await sb.api.get(`${org(otherOrgId)}/${res.body.playbook_id}`)).status).toBe(404);
    // The enterprise can.
    expect((await sb.api.get(`${ENT}/${res.body.playbook_id}`)).status).toBe(200);
  });

  it('creates an enterprise playbook', async () => {
    const res = await sb.api.call('POST', ENT, { body: { title: 'Enterprise one', body: 'Steps' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ access_type: 'enterprise', org_id: null, macro: null });
    // Not in an organization's own list, and not editable through it.
    expect((await all(org())).some((p) => p.playbook_id === res.body.playbook_id)).toBe(false);
    const put = await sb.api.call('PUT', `${org()}/${res.body.playbook_id}`, { body: { title: 'x', body: 'y' } });
    expect(put.status).toBe(404);
  });

  it('updates (PUT replaces: an omitted macro is cleared) and audits what changed', async () => {
    const created = (await sb.api.call('POST', org(), { body: { title: 'A', body: 'one', macro: '!aaa' } })).body;
    const res = await sb.api.call('PUT', `${org()}/${created.playbook_id}`, { body: { title: 'B', body: 'two' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'B', body: 'two', macro: null, created_at: created.created_at });
    expect(res.body.updated_at).toBeGreaterThanOrEqual(created.updated_at);
    expect(JSON.parse(audits('update_playbook').at(-1)!.data).changed).toEqual(['title', 'body', 'macro']);
  });

  it('deletes, answering the deleted playbook; then 404', async () => {
    const created = (await sb.api.call('POST', org(), { body: { title: 'Gone soon', body: 'x' } })).body;
    const res = await sb.api.call('DELETE', `${org()}/${created.playbook_id}`);
    expect(res.status).toBe(200);
    expect(res.body.playbook_id).toBe(created.playbook_id);
    expect((await sb.api.get(`${org()}/${created.playbook_id}`)).status).toBe(404);
    expect((await sb.api.call('DELETE', `${ENT}/${created.playbook_id}`)).status).toBe(404);
    expect(JSON.parse(audits('delete_playbook').at(-1)!.data)).toMatchObject({ title: 'Gone soon' });
  });

  it('answers 404 for unknown playbooks and organizations', async () => {
    expect((await sb.api.get(`${ENT}/playbook-nope`)).status).toBe(404);
    expect((await sb.api.call('PUT', `${ENT}/playbook-nope`, { body: { title: 'a', body: 'b' } })).status).toBe(404);
    expect((await sb.api.get(`/v3/organizations/org-nope/playbooks`)).status).toBe(404);
  });
});

describe('bad input changes nothing', () => {
  it('refuses an empty title and body, a malformed macro and unknown fields with field errors', async () => {
    const before = (await all(ENT)).length;
    const res = await sb.api.call('POST', org(), { body: { title: ' ', body: '', macro: 'no-bang', extra: 1 } });
    expect(res.status).toBe(422);
    const locs = res.body.errors.map((e: { loc: string[] }) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.title', 'body.body', 'body.macro']));
    expect(res.body.errors.find((e: any) => e.loc[1] === 'macro').msg).toMatch(/starts with !/);
    const long = await sb.api.call('POST', ENT, { body: { title: 'x'.repeat(201), body: 'b' } });
    expect(long.status).toBe(422);
    expect(long.body.errors[0].msg).toMatch(/at most 200/);
    expect((await all(ENT)).length).toBe(before);
  });

  it('refuses a macro another usable playbook holds (409), keeping both as they were', async () => {
    const res = await sb.api.call('POST', org(), { body: { title: 'Dup', body: 'x', macro: '!UPGRADE' } });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/Upgrade a dependency/);
    // A macro of another organization's playbook is free here.
    const other = (
      await sb.api.call('POST', org(otherOrgId), { body: { title: 'O', body: 'x', macro: '!only-there' } })
    ).body;
    expect(other.macro).toBe('!only-there');
    expect(
      (await sb.api.call('POST', org(), { body: { title: 'Mine', body: 'x', macro: '!only-there' } })).status,
    ).toBe(200);
  });

  it('the viewer is refused with the permission named', async () => {
    const res = await sb.api.call('POST', org(), { token: VIEWER, body: { title: 'a', body: 'b' } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageAccountPlaybooks');
  });
});
