/**
 * Issue 31 over real HTTP: single sign-on against a real OpenID Connect provider (oidc-provider on loopback),
 * console roles from a policy file enforced on every /api and /console request, and every write recorded in
 * Console activity under the person who made it. Refused callbacks (state, nonce, replay, a code used twice,
 * another issuer, another audience, an expired ID token, no grant) sign nobody in.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { ADMIN, rawRequest, startAuthConsole, startTestSandbox } from '../../test/harness';
import { CLOCK_TOLERANCE_S, createOidcClient, refusalReason } from './client';
import type { OidcConfig } from './config';
import { PEOPLE, signInAt, startTestProvider, type TestProvider } from './test-provider';

const PUBLIC_URL = 'http://localhost:4999';
const REDIRECT = `${PUBLIC_URL}/console/oidc/callback`;
const TOKEN = 'sso-test-access-token-0123456789';

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let provider: TestProvider;
let otherProvider: TestProvider;
let c: Awaited<ReturnType<typeof startAuthConsole>>;
let orgA: string;
let orgB: string;
let policyFile: string;
const dir = mkdtempSync(join(tmpdir(), 'sso-test-'));

const oidcOf = (issuer: string, clientId = 'console-app'): OidcConfig => ({
  issuer,
  clientId,
  clientSecret: `${clientId}-secret-0123456789`,
  groupsClaim: 'groups',
  scopes: 'openid profile email',
  providerName: 'Test IdP',
  redirectUri: REDIRECT,
});

const clients = [
  { client_id: 'console-app', client_secret: 'console-app-secret-0123456789', redirect_uris: [REDIRECT] },
  { client_id: 'other-app', client_secret: 'other-app-secret-0123456789', redirect_uris: [REDIRECT] },
];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const orgs = (await sandbox.api.get('/v3/enterprise/organizations?first=2')).body.items;
  orgA = orgs[0].org_id;
  orgB = orgs[1].org_id;
  policyFile = join(dir, 'policy.json');
  writeFileSync(
    policyFile,
    JSON.stringify({
      roles: {
        operator: {
          permissions: ['ViewOrgSessions', 'ManageOrgSessions', 'ManageGitIntegrations'],
          organizations: [orgA],
        },
      },
      grants: [
        { group: 'console-admins', role: 'admin' },
        { group: 'help-desk', role: 'viewer' },
        { email: 'dana@example.com', role: 'operator' },
        { token: true, role: 'viewer' },
      ],
    }),
  );
  [provider, otherProvider] = await Promise.all([startTestProvider({ clients }), startTestProvider({ clients })]);
  c = await startConsole(provider.issuer);
});
afterAll(async () => {
  await c?.close();
  await Promise.all([provider?.close(), otherProvider?.close()]);
  await sandbox?.stop();
});

function startConsole(issuer: string, opts: { now?: () => number; clientId?: string } = {}) {
  return startAuthConsole({
    upstream: { baseUrl: sandbox.url, apiKey: ADMIN },
    now: opts.now,
    config: {
      accessToken: TOKEN,
      oidc: oidcOf(issuer, opts.clientId),
      publicUrl: PUBLIC_URL,
      policyFile,
    },
  });
}

const cookieOf = (res: { headers: IncomingHttpHeaders }) => res.headers['set-cookie']?.[0]?.split(';')[0];
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The console's redirect to the provider. */
async function start(port: number) {
  const res = await rawRequest(port, 'GET', '/console/oidc/start');
  expect(res.status).toBe(303);
  return res.headers.location!;
}

/** Signs `login` in at the provider from the console's start, answering the callback's path and query. */
async function callbackFor(login: string, port = c.port, rewrite: (auth: URL) => void = () => undefined) {
  const auth = new URL(await start(port));
  rewrite(auth);
  return pathOf(await signInAt(auth.href, login));
}

async function ssoSignIn(login: string): Promise<string> {
  // The callback comes from the provider's site: the session opens on a page that moves on to the app.
  const res = await rawRequest(c.port, 'GET', await callbackFor(login), { 'sec-fetch-site': 'cross-site' });
  expect(res.status, res.text).toBe(200);
  expect(res.headers.refresh).toBe('0; url=/');
  return cookieOf(res)!;
}

async function call(method: string, path: string, cookie: string, body?: unknown) {
  const res = await rawRequest(
    c.port,
    method,
    path,
    {
      cookie,
      origin: `http://localhost:${c.port}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body !== undefined ? JSON.stringify(body) : undefined,
  );
  return { status: res.status, body: res.text ? JSON.parse(res.text) : undefined };
}

/** Toggles one git permission's read-only through the console in `org`. */
async function toggle(cookie: string, org: string) {
  const set = await call('GET', `/console/git-permissions/orgs/${org}`, cookie);
  if (set.status !== 200) return set;
  const p = set.body.items[0];
  return call('PATCH', `/console/git-permissions/orgs/${org}/permissions/${p.git_permission_id}`, cookie, {
    read_only: !p.read_only,
    base_version: set.body.version,
  });
}

let admin: string;
let viewer: string;
let operator: string;

describe('signing in with the provider', () => {
  it('offers "Sign in with" the provider on the sign-in page', async () => {
    const page = await rawRequest(c.port, 'GET', '/console/sign-in');
    expect(page.text).toContain('href="/console/oidc/start">Sign in with Test IdP</a>');
    const auth = new URL(await start(c.port));
    expect(auth.origin).toBe(provider.issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('redirect_uri')).toBe(REDIRECT);
    for (const p of ['state', 'nonce', 'code_challenge']) expect(auth.searchParams.get(p)).toBeTruthy();
    // A sign-in at the provider older than a console session may last is asked to authenticate again.
    expect(auth.searchParams.get('max_age')).toBe(String(12 * 3600));
  });

  it('takes the name, email and groups from the ID token, and the roles from the policy', async () => {
    admin = await ssoSignIn('ana');
    const s = await call('GET', '/console/session', admin);
    expect(s.body).toMatchObject({
      method: 'oidc',
      name: PEOPLE.ana!.name,
      email: 'ana@example.com',
      subject: 'ana',
      groups: ['console-admins'],
      roles: [{ role: 'admin', grant: 'group console-admins → admin' }],
    });
    expect(s.body.permissions.ManageGitIntegrations).toBe('*');
    viewer = await ssoSignIn('hugo');
    operator = await ssoSignIn('dana');
    expect((await call('GET', '/console/session', operator)).body.permissions).toMatchObject({
      ManageGitIntegrations: [orgA],
    });
  });

  it('refuses a replayed callback, a wrong state and a code used twice: nothing signed in', async () => {
    const cb = await callbackFor('ana');
    const ok = await rawRequest(c.port, 'GET', cb);
    expect(ok.status).toBe(200);
    expect(ok.headers['set-cookie']).toBeDefined();
    const replay = await rawRequest(c.port, 'GET', cb);
    expect(replay.status).toBe(400);
    expect(replay.headers['set-cookie']).toBeUndefined();
    expect(replay.text).toContain('already used');
    expect(replay.text).toContain('href="/console/oidc/start">Try again</a>');

    const wrongState = cb.replace(/state=[^&]+/, 'state=forged-state-value');
    const forged = await rawRequest(c.port, 'GET', wrongState);
    expect(forged.status).toBe(400);
    expect(forged.headers['set-cookie']).toBeUndefined();

    // The same code again under a fresh, valid state: the provider refuses the code (used, other verifier).
    const fresh = new URL(await start(c.port)).searchParams.get('state')!;
    const twice = await rawRequest(c.port, 'GET', cb.replace(/state=[^&]+/, `state=${fresh}`));
    expect(twice.status).toBe(401);
    expect(twice.headers['set-cookie']).toBeUndefined();
    expect(twice.text).toContain('Sign-in refused');
  });

  it('refuses a wrong nonce, another issuer and another audience', async () => {
    const nonce = await rawRequest(
      c.port,
      'GET',
      await callbackFor('ana', c.port, (u) => u.searchParams.set('nonce', 'not-the-console-nonce')),
    );
    expect(nonce.status, nonce.text.slice(-700)).toBe(401);
    expect(nonce.text).toContain('nonce');
    expect(nonce.headers['set-cookie']).toBeUndefined();

    const issuer = await rawRequest(
      c.port,
      'GET',
      await callbackFor('ana', c.port, (u) => {
        const other = new URL(otherProvider.issuer);
        u.host = other.host;
      }),
    );
    expect(issuer.status).toBe(401);
    expect(issuer.text).toContain('another issuer');
    expect(issuer.headers['set-cookie']).toBeUndefined();

    const audience = await rawRequest(
      c.port,
      'GET',
      await callbackFor('ana', c.port, (u) => u.searchParams.set('client_id', 'other-app')),
    );
    expect(audience.status).toBe(401);
    expect(audience.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an expired ID token (the console’s clock two hours ahead)', async () => {
    const later = await startConsole(provider.issuer, { now: () => Date.now() + 2 * 3_600_000 });
    try {
      const res = await rawRequest(later.port, 'GET', await callbackFor('ana', later.port));
      expect(res.status).toBe(401);
      expect(res.text).toContain('expired');
      expect(res.headers['set-cookie']).toBeUndefined();
    } finally {
      await later.close();
    }
  });

  it('bounds the clock skew: an ID token a little off the console’s clock passes, one further off is refused', async () => {
    const ttl = 3600;
    /** Signs ana in with the console's clock `offsetS` seconds off: the person, or why it was refused. */
    const signInSkewed = async (offsetS: number) => {
      const client = createOidcClient(oidcOf(provider.issuer), { now: () => Date.now() + offsetS * 1000 });
      const started = await client.start();
      const back = new URL(await signInAt(started.url, 'ana'));
      return client.finish(back.search.slice(1), started).then(
        (p) => p.email,
        (err: unknown) => refusalReason(err),
      );
    };
    const inside = CLOCK_TOLERANCE_S - 10;
    const beyond = CLOCK_TOLERANCE_S + 20;
    // Ahead: the token expired that long ago. Behind: it was issued that far in the future.
    const [expiredInside, expiredBeyond, issuedInside, issuedBeyond] = await Promise.all(
      [ttl + inside, ttl + beyond, -inside, -beyond].map(signInSkewed),
    );
    expect(expiredInside).toBe('ana@example.com');
    expect(expiredBeyond).toContain('expired');
    expect(issuedInside).toBe('ana@example.com');
    expect(issuedBeyond).toContain("the provider's clock and the console's disagree");
  });

  it('refuses a person the policy grants nothing, saying so', async () => {
    const res = await rawRequest(c.port, 'GET', await callbackFor('olga'));
    expect(res.status).toBe(403);
    expect(res.text).toContain('No console role');
    expect(res.text).toContain('olga@example.com');
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('console roles, enforced on the server', () => {
  it('lets the viewer read and refuses a write with a 403 naming the permission and the policy', async () => {
    const read = await call('GET', `/api/v3/organizations/${orgA}/sessions?first=1`, viewer);
    expect(read.status).toBe(200);
    const write = await toggle(viewer, orgA);
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({
      type: 'urn:agent-platform-console:policy-refused',
      permission: 'ManageGitIntegrations',
      organization: orgA,
    });
    expect(write.body.detail).toContain("console's policy");
    expect(write.body.detail).toContain('ManageGitIntegrations');
    const unknown = await call('GET', '/api/v3/not-in-the-contract', viewer);
    expect(unknown.status).toBe(403);
    expect(unknown.body.permission).toBe('admin');
  });

  it('lets the operator change git permissions in their organization and refuses another', async () => {
    expect((await toggle(operator, orgA)).status).toBe(200);
    const other = await call('PATCH', `/console/git-permissions/orgs/${orgB}/permissions/gp-1`, operator, {
      read_only: true,
      base_version: 'v',
    });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ permission: 'ManageGitIntegrations', organization: orgB });
    expect(other.body.detail).toContain(`in organization ${orgB}`);
  });

  it('matches an organization named in the body, and the body reaches the endpoint intact', async () => {
    const rule = { name: 'Violations in A', kind: 'guardrail_violations', org_id: orgA, violations_per_day: 5 };
    const refused = await call('POST', '/console/alerts/rules', viewer, rule);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ permission: 'admin', organization: orgA });
    const created = await call('POST', '/console/alerts/rules', admin, rule);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: rule.name, org_id: orgA, violations_per_day: 5 });
    const recorded = await call(
      'GET',
      '/console/activity?operation=console.alerts.rules.create&outcome=succeeded',
      admin,
    );
    expect(recorded.body.items[0]).toMatchObject({ org_id: orgA, name: PEOPLE.ana!.name });
  });

  it('gives the access token the role of its grant (viewer)', async () => {
    const res = await rawRequest(c.port, 'GET', `/api/v3/enterprise/organizations/${orgA}/git-providers/permissions`, {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).type).toBe('urn:agent-platform-console:policy-refused');
  });

  it('records each write under the person who made it, with the grant; the history shows the person', async () => {
    const toggled = await toggle(admin, orgA);
    expect(toggled.status).toBe(200);
    expect(toggled.body.revision).toMatchObject({ made_by: PEOPLE.ana!.name, made_by_kind: 'person' });
    const list = await call('GET', `/console/activity?person=dana`, admin);
    expect(list.status).toBe(200);
    const dana = list.body.items as Array<Record<string, unknown>>;
    expect(dana.find((e) => e.outcome === 'succeeded')).toMatchObject({
      email: 'dana@example.com',
      name: PEOPLE.dana!.name,
      operation_id: 'console.gitPermissions.update',
      org_id: orgA,
      grant: 'email dana@example.com → operator',
      status: 200,
    });
    expect(dana.find((e) => e.outcome === 'refused')).toMatchObject({ org_id: orgB, status: 403 });
    const ana = await call('GET', `/console/activity?person=ana&org_id=${orgA}&outcome=succeeded`, admin);
    expect(ana.body.items[0]).toMatchObject({ name: PEOPLE.ana!.name, grant: 'group console-admins → admin' });
    // A write through the proxy is recorded too, with the ids of its path.
    const perms = await call('GET', `/api/v3/enterprise/organizations/${orgA}/git-providers/permissions`, admin);
    const gp = perms.body.items[0];
    const proxied = await call(
      'PATCH',
      `/api/v3/enterprise/organizations/${orgA}/git-providers/permissions/${gp.git_permission_id}`,
      admin,
      { read_only: !gp.read_only },
    );
    expect(proxied.status).toBe(200);
    const viaProxy = await call('GET', '/console/activity?operation=gitPermissions.update', admin);
    expect(viaProxy.body.items[0]).toMatchObject({
      name: PEOPLE.ana!.name,
      http_method: 'PATCH',
      org_id: orgA,
      ids: { org_id: orgA, git_permission_id: gp.git_permission_id },
      outcome: 'succeeded',
    });
    // Reads are not recorded.
    const all = await call('GET', '/console/activity?first=500', admin);
    expect((all.body.items as Array<{ http_method: string }>).every((e) => e.http_method !== 'GET')).toBe(true);
    // Console activity needs ViewAccountAuditLogs: the operator cannot read it.
    expect((await call('GET', '/console/activity', operator)).status).toBe(403);
  });

  it('ends the session on sign-out and offers the provider’s logout', async () => {
    const cookie = await ssoSignIn('ana');
    const out = await rawRequest(c.port, 'POST', '/console/sign-out', {
      cookie,
      origin: `http://localhost:${c.port}`,
    });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/console/sign-in?signed_out=1');
    expect((await call('GET', '/console/session', cookie)).status).toBe(401);
    const page = await rawRequest(c.port, 'GET', '/console/sign-in?signed_out=1');
    expect(page.text).toContain(`${provider.issuer}/session/end`);
    // A replica that signed nobody in itself finds the provider's logout too.
    const fresh = createOidcClient(oidcOf(provider.issuer));
    expect(fresh.endSessionUrl()).toBeUndefined();
    expect(await fresh.findEndSessionUrl()).toContain(`${provider.issuer}/session/end`);
    // A sign-in at the provider older than the session maximum is refused, saying so.
    const old = { message: 'too much time has elapsed since the last End-User authentication', claim: 'auth_time' };
    expect(refusalReason(new Error('check failed', { cause: old }))).toContain('older than a console session may last');
  });
});

describe('configuration', () => {
  const base = { CONSOLE_AUTH: 'on', DATA_DIR: dir };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env }, { dotEnv: {} });
      return [];
    } catch (err) {
      return err instanceof ConfigError ? err.problems : [String(err)];
    }
  };

  it('stops the start on a policy naming an unknown permission or role, naming them', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        roles: { helper: { permissions: ['ViewOrgSessions', 'ManageEverything'] } },
        grants: [{ group: 'x', role: 'superuser' }],
      }),
    );
    const problems = problemsOf({ CONSOLE_POLICY_FILE: bad });
    expect(problems.some((p) => p.includes('unknown permission "ManageEverything"'))).toBe(true);
    expect(problems.some((p) => p.includes('unknown role "superuser"'))).toBe(true);
  });

  it('checks the provider settings, one line per problem', () => {
    const problems = problemsOf({ CONSOLE_OIDC_ISSUER: 'http://idp.example.com' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('CONSOLE_OIDC_ISSUER must use https://'),
        expect.stringContaining('CONSOLE_OIDC_CLIENT_ID is required'),
        expect.stringContaining('CONSOLE_OIDC_CLIENT_SECRET is required'),
        expect.stringContaining('CONSOLE_PUBLIC_URL is required'),
      ]),
    );
  });
});
