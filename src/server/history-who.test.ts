/**
 * Issue 12, "history shows who made each change": the console learns a person at sign-in (the name typed on the
 * sign-in page, checked there and on the server; or bound to a one-time link), answers it on /console/session,
 * and records it on every git-permission and IP access list revision made in that session — a restore
 * included. Without a person, a revision says how it was made (a script's token, a link without a name,
 * access control off). Over real HTTP, against a test sandbox.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_NAME_MAX } from '../api/console/session';
import { rawRequest, startAuthConsole, startTestConsole } from '../test/harness';

const TOKEN = 'history-who-access-token-0123456789';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let c: Awaited<ReturnType<typeof startAuthConsole>>;
let origin: Record<string, string>;
let orgId: string;

beforeAll(async () => {
  c = await startAuthConsole({ config: { accessToken: TOKEN } });
  origin = { origin: `http://localhost:${c.port}` };
  orgId = (await c.sandbox!.api.get('/v3/enterprise/organizations?first=1')).body.items[0].org_id;
});
afterAll(() => c.close());

const cookieOf = (res: { headers: IncomingHttpHeaders }) => res.headers['set-cookie']?.[0]?.split(';')[0];

const signInForm = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  rawRequest(
    c.port,
    'POST',
    '/console/sign-in',
    { ...FORM, ...origin, ...headers },
    new URLSearchParams(fields).toString(),
  );

async function call(method: string, path: string, auth: Record<string, string>, body?: unknown) {
  const res = await rawRequest(
    c.port,
    method,
    path,
    { ...origin, ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body !== undefined ? JSON.stringify(body) : undefined,
  );
  return { status: res.status, body: res.text ? JSON.parse(res.text) : undefined };
}

/** Toggles one permission's read-only through the console (a revision), as the given client. */
async function toggle(auth: Record<string, string>) {
  const set = await call('GET', `/console/git-permissions/orgs/${orgId}`, auth);
  expect(set.status).toBe(200);
  const p = set.body.items[0];
  const res = await call('PATCH', `/console/git-permissions/orgs/${orgId}/permissions/${p.git_permission_id}`, auth, {
    read_only: !p.read_only,
    base_version: set.body.version,
  });
  expect(res.status).toBe(200);
  return res.body.revision as { revision_id: number; made_by: string | null; made_by_kind: string | null };
}

describe('signing in with a name', () => {
  it('shows the name field with its limit on the sign-in page', async () => {
    const page = await rawRequest(c.port, 'GET', '/console/sign-in');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="name">Your name</label>');
    expect(page.text).toMatch(/<input id="name" name="name"[^>]* required maxlength="80"/);
    expect(page.text).toContain('1–80 characters');
  });

  it('refuses an 81-character name with 422: the error on the name field, nothing signed in', async () => {
    const long = 'x'.repeat(SIGN_IN_NAME_MAX + 1);
    // A client asking for JSON gets an RFC 9457 problem whose error lands on body.name.
    const json = await signInForm({ name: long, token: TOKEN }, { accept: 'application/json' });
    expect(json.status).toBe(422);
    expect(json.headers['content-type']).toBe('application/problem+json');
    expect(json.headers['set-cookie']).toBeUndefined();
    expect(JSON.parse(json.text)).toMatchObject({
      status: 422,
      errors: [{ loc: ['body', 'name'], msg: 'At most 80 characters', type: 'invalid_name' }],
    });
    // The page (a browser's form post) comes back with the error on the field and the name kept.
    const html = await signInForm({ name: long, token: TOKEN }, { accept: 'text/html,*/*' });
    expect(html.status).toBe(422);
    expect(html.headers['set-cookie']).toBeUndefined();
    expect(html.text).toMatch(
      /<input id="name"[^>]*value="x{81}"[^>]*aria-describedby="name-error name-hint" aria-invalid="true"/,
    );
    expect(html.text).toContain('<p class="field-error" id="name-error">At most 80 characters</p>');
    // Blank (after trimming) and control characters are refused too; 80 characters are fine.
    for (const name of ['   ', 'Dana\u0000Reyes', 'Dana\u202eReyes']) {
      expect((await signInForm({ name, token: TOKEN })).status, JSON.stringify(name)).toBe(422);
    }
    expect((await signInForm({ name: 'y'.repeat(SIGN_IN_NAME_MAX), token: TOKEN })).status).toBe(303);
  });

  it('does not check the token when the name is refused (no failure counted, nothing said about it)', async () => {
    const res = await signInForm({ name: '', token: 'wrong-token-wrong-token' });
    expect(res.status).toBe(422);
    expect(res.text).not.toContain('access token was not accepted');
  });

  it('keeps the trimmed name on the session: /console/session answers it', async () => {
    const res = await signInForm({ name: '  Dana Reyes  ', token: TOKEN });
    expect(res.status).toBe(303);
    const cookie = cookieOf(res)!;
    const session = await call('GET', '/console/session', { cookie });
    expect(session.body).toMatchObject({ signed_in: true, method: 'token', name: 'Dana Reyes' });
  });

  it('a script posting the token alone signs in without a name; a Bearer token has none', async () => {
    const res = await signInForm({ token: TOKEN });
    expect(res.status).toBe(303);
    expect((await call('GET', '/console/session', { cookie: cookieOf(res)! })).body.name).toBeNull();
    const bearer = await call('GET', '/console/session', { authorization: `Bearer ${TOKEN}` });
    expect(bearer.body).toMatchObject({ method: 'bearer', name: null });
  });

  it('a one-time link bound to a name opens that person’s session; one without a name, a session without', async () => {
    const named = await rawRequest(c.port, 'GET', await c.server.newSignInLink('Sam Okafor'));
    expect(named.status).toBe(303);
    expect((await call('GET', '/console/session', { cookie: cookieOf(named)! })).body).toMatchObject({
      method: 'link',
      name: 'Sam Okafor',
    });
    const plain = await rawRequest(c.port, 'GET', await c.server.newSignInLink());
    expect((await call('GET', '/console/session', { cookie: cookieOf(plain)! })).body).toMatchObject({
      method: 'link',
      name: null,
    });
  });
});

describe('who made each change', () => {
  it('records the signed-in person on git-permission revisions, restores included, and in the history', async () => {
    const dana = cookieOf(await signInForm({ name: 'Dana Reyes', token: TOKEN }))!;
    const sam = cookieOf(await rawRequest(c.port, 'GET', await c.server.newSignInLink('Sam Okafor')))!;
    const made = await toggle({ cookie: dana });
    expect(made).toMatchObject({ made_by: 'Dana Reyes', made_by_kind: 'person' });

    // Sam restores the set before Dana's change: the restore is Sam's.
    const set = await call('GET', `/console/git-permissions/orgs/${orgId}`, { cookie: sam });
    const restored = await call(
      'POST',
      `/console/git-permissions/orgs/${orgId}/revisions/${made.revision_id}/restore`,
      { cookie: sam },
      { base_version: set.body.version, set: 'previous' },
    );
    expect(restored.status).toBe(200);
    expect(restored.body.revision).toMatchObject({ action: 'restore', made_by: 'Sam Okafor', made_by_kind: 'person' });

    const history = await call('GET', `/console/git-permissions/orgs/${orgId}/revisions`, { cookie: dana });
    expect(history.body.items.slice(0, 2).map((r: any) => [r.action, r.made_by])).toEqual([
      ['restore', 'Sam Okafor'],
      ['update', 'Dana Reyes'],
    ]);
    const one = await call('GET', `/console/git-permissions/orgs/${orgId}/revisions/${made.revision_id}`, {
      cookie: sam,
    });
    expect(one.body).toMatchObject({ made_by: 'Dana Reyes', made_by_kind: 'person' });
  });

  it('says how a change was made when no person is known: a script’s token, a link without a name', async () => {
    expect(await toggle({ authorization: `Bearer ${TOKEN}` })).toMatchObject({
      made_by: 'access token (script)',
      made_by_kind: 'bearer_token',
    });
    const anonymous = cookieOf(await rawRequest(c.port, 'GET', await c.server.newSignInLink()))!;
    expect(await toggle({ cookie: anonymous })).toMatchObject({
      made_by: 'one-time link (no name given)',
      made_by_kind: 'one_time_link',
    });
    const tokenOnly = cookieOf(await signInForm({ token: TOKEN }))!;
    expect(await toggle({ cookie: tokenOnly })).toMatchObject({
      made_by: 'access token (sign-in page, no name given)',
      made_by_kind: 'access_token',
    });
  });

  it('records the person on IP access list revisions, restores included', async () => {
    const dana = cookieOf(await signInForm({ name: 'Dana Reyes', token: TOKEN }))!;
    const sam = cookieOf(await rawRequest(c.port, 'GET', await c.server.newSignInLink('Sam Okafor')))!;
    const list = await call('GET', '/console/ip-access-list', { cookie: dana });
    expect(list.status).toBe(200);
    const applied = await call(
      'PUT',
      '/console/ip-access-list',
      { cookie: dana },
      {
        base_version: list.body.version,
        ip_ranges: [...list.body.ip_ranges, '198.51.100.0/24'],
      },
    );
    expect(applied.status).toBe(200);
    expect(applied.body.revision).toMatchObject({ made_by: 'Dana Reyes', made_by_kind: 'person' });

    const restored = await call(
      'POST',
      `/console/ip-access-list/revisions/${applied.body.revision.revision_id}/restore`,
      { cookie: sam },
      { base_version: applied.body.version, set: 'previous' },
    );
    expect(restored.status).toBe(200);
    expect(restored.body.revision).toMatchObject({ action: 'restore', made_by: 'Sam Okafor' });
    const history = await call('GET', '/console/ip-access-list/revisions', { cookie: dana });
    expect(history.body.items.slice(0, 2).map((r: any) => r.made_by)).toEqual(['Sam Okafor', 'Dana Reyes']);
  });
});

describe('with access control off', () => {
  let off: Awaited<ReturnType<typeof startTestConsole>>;
  beforeAll(async () => {
    off = await startTestConsole();
  });
  afterAll(() => off.close());

  it('records "access control off" and answers no name', async () => {
    expect((await off.api.get('/console/session')).body).toMatchObject({ method: 'off', name: null });
    const org = (await off.sandbox!.api.get('/v3/enterprise/organizations?first=1')).body.items[0].org_id;
    const set = (await off.api.get(`/console/git-permissions/orgs/${org}`)).body;
    const p = set.items[0];
    const res = await off.api.call('PATCH', `/console/git-permissions/orgs/${org}/permissions/${p.git_permission_id}`, {
      body: { base_version: set.version, read_only: !p.read_only },
    });
    expect(res.status).toBe(200);
    expect(res.body.revision).toMatchObject({ made_by: 'access control off', made_by_kind: 'access_control_off' });
  });
});
