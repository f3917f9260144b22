/**
 * Allowed session tags over HTTP: the seed, append / replace / remove / clear, the default tag, and validation of
 * session creation and tag changes (422 naming the tag) while an organization's list is not empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER, startTestSandbox } from '../../../test/harness';
import { SEED_TAG_ORG_INDEXES } from './index';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgIds: string[];
const tagsPath = (orgId: string) => `/v3/enterprise/organizations/${orgId}/tags`;
const call = (method: string, path: string, body?: unknown) => sb.api.call(method, path, { body });
const lastAudit = () =>
  sb.db.prepare('SELECT * FROM audit_logs ORDER BY rowid DESC LIMIT 1').get() as {
    action: string;
    org_id: string;
    service_user_name: string;
    data: string;
  };

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
  orgIds = (await sb.api.get('/v3/enterprise/organizations?first=200')).body.items.map(
    (o: { org_id: string }) => o.org_id,
  );
});
afterAll(() => sb.stop());

describe('allowed tags', () => {
  it('are seeded on some organizations, not on the first (the one tests create sessions in)', async () => {
    expect((await sb.api.get(tagsPath(orgIds[0]!))).body).toEqual({ tags: [] });
    const seeded = (await sb.api.get(tagsPath(orgIds[SEED_TAG_ORG_INDEXES[0]]!))).body.tags as string[];
    expect(seeded.length).toBeGreaterThan(3);
    expect((await sb.api.get(`${tagsPath(orgIds[SEED_TAG_ORG_INDEXES[0]]!)}/default`)).body).toEqual({
      default_tag: 'compliance',
    });
    // Seeded sessions of validated organizations use allowed tags only.
    const rows = sb.db.prepare('SELECT tags FROM sessions WHERE org_id = ?').all(orgIds[SEED_TAG_ORG_INDEXES[0]]!) as {
      tags: string;
    }[];
    for (const r of rows) for (const t of JSON.parse(r.tags) as string[]) expect(seeded).toContain(t);
  });

  it('appends, replaces, removes and clears, with audit entries', async () => {
    const org = orgIds[1]!;
    expect((await call('PUT', tagsPath(org), { tags: [' infra ', 'billing', 'infra'] })).body).toEqual({
      tags: ['infra', 'billing'],
    });
    expect(lastAudit()).toMatchObject({ action: 'update_allowed_tags', org_id: org });
    expect((await call('POST', tagsPath(org), { tags: ['billing', 'urgent'] })).body).toEqual({
      tags: ['infra', 'billing', 'urgent'],
    });
    expect((await call('DELETE', `${tagsPath(org)}/billing`)).body).toEqual({ tags: ['infra', 'urgent'] });
    expect((await call('DELETE', `${tagsPath(org)}/billing`)).status).toBe(404);
    expect((await call('DELETE', tagsPath(org))).body).toEqual({ tags: [] });
    expect(JSON.parse(lastAudit().data).previous_tags).toEqual(['infra', 'urgent']);
  });

  it('refuses bad tags with 422, unknown organizations with 404, and the viewer with 403', async () => {
    const org = orgIds[1]!;
    for (const tags of [[''], ['a,b'], ['x'.repeat(65)], 'a']) {
      expect((await call('PUT', tagsPath(org), { tags })).status, JSON.stringify(tags)).toBe(422);
    }
    expect((await call('GET', tagsPath('org-doesnotexist'))).status).toBe(404);
    expect((await sb.api.get(tagsPath(org), VIEWER)).status).toBe(403);
  });
});

describe('default tag', () => {
  it('is set, read and cleared; must be allowed while validation is on; given to sessions without tags', async () => {
    const org = orgIds[2]!;
    const def = `${tagsPath(org)}/default`;
    expect((await sb.api.get(def)).body).toEqual({ default_tag: null });
    expect((await call('PUT', def, { tag: 'anything' })).body).toEqual({ default_tag: 'anything' });
    expect(lastAudit()).toMatchObject({ action: 'update_default_tag', org_id: org });
    await call('PUT', tagsPath(org), { tags: ['backend', 'frontend'] });
    // Replacing the list clears a default that is no longer allowed.
    expect((await sb.api.get(def)).body).toEqual({ default_tag: null });
    const refused = await call('PUT', def, { tag: 'anything' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].loc).toEqual(['body', 'tag', 0]);
    expect((await call('PUT', def, { tag: 'backend' })).status).toBe(200);
    const s = await call('POST', `/v3/organizations/${org}/sessions`, { prompt: 'Fix the build' });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.tags).toEqual(['backend']);
    expect((await call('DELETE', def)).body).toEqual({ default_tag: null });
  });
});

describe('validation of session tags', () => {
  it('refuses a session created or retagged with a tag outside the list, naming it', async () => {
    const org = orgIds[SEED_TAG_ORG_INDEXES[1]]!;
    const allowed = (await sb.api.get(tagsPath(org))).body.tags as string[];
    const sessions = `/v3/organizations/${org}/sessions`;
    const bad = await call('POST', sessions, { prompt: 'x', tags: [allowed[0], 'not-allowed'] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['body', 'tags', 1]);
    expect(bad.body.detail).toContain('"not-allowed"');
    const ok = await call('POST', sessions, { prompt: 'x', tags: [allowed[0]] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const path = `${sessions}/${ok.body.session_id}/tags`;
    expect((await call('POST', path, { tags: ['nope'] })).status).toBe(422);
    expect((await call('PUT', path, { tags: ['nope'] })).status).toBe(422);
    expect((await call('PUT', path, { tags: [allowed[1]] })).body).toEqual({ tags: [allowed[1]] });
    // The first organization does not validate.
    const free = await call('POST', `/v3/organizations/${orgIds[0]}/sessions`, { prompt: 'x', tags: ['whatever'] });
    expect(free.status).toBe(200);
    expect(free.body.tags).toEqual(['whatever']);
  });
});
