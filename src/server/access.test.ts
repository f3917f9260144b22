/**
 * Issue 10, "access control that holds": nobody without a sign-in session uses the console. One test per
 * rule, over real HTTP, against a recording upstream.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../test/fake-upstream';
import { rawRequest, startAuthConsole, testConfig } from '../test/harness';
import { createSignInFailureStore } from './console/sessions-store';
import { openSqliteConsoleStore } from './console/storage/console-store';
import { addressKey, FREE_FAILURES, SIGN_IN_REQUIRED_TYPE, TARGET_ATTEMPTS_PER_HOUR } from './access';
import { createConsoleServer, HSTS } from './app';

const SECRET = 'cog_access_test_credential_5d4c3b';
const TOKEN = 'console-access-token-for-tests-0123';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let up: Awaited<ReturnType<typeof startFakeUpstream>>;
beforeAll(async () => {
  up = await startFakeUpstream();
});
afterAll(() => up.close());

/** Consoles started by a test, closed after it. */
const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function consoleWith(config: Parameters<typeof testConfig>[0] = {}, now?: () => number) {
  const started = await startAuthConsole({ upstream: { baseUrl: up.url, apiKey: SECRET }, config, now });
  let closing: Promise<void> | undefined;
  const c = { ...started, close: () => (closing ??= started.close()) };
  running.push(c);
  const origin = { origin: `http://localhost:${c.port}` };
  return {
    ...c,
    get: (path: string, headers: Record<string, string> = {}) => rawRequest(c.port, 'GET', path, headers),
    postToken: (token: string) =>
      rawRequest(c.port, 'POST', '/console/sign-in', { ...FORM, ...origin }, `token=${encodeURIComponent(token)}`),
    signOut: (cookie: string) => rawRequest(c.port, 'POST', '/console/sign-out', { ...FORM, ...origin, cookie }, ''),
  };
}

const cookieOf = (res: { headers: IncomingHttpHeaders }) => res.headers['set-cookie']?.[0]?.split(';')[0];

/** A clock the test moves. */
function clock(start = Date.UTC(2030, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}
const MINUTE = 60_000;

describe('without a session', () => {
  it('answers /api and /console with a 401 sign-in problem, and sends pages to the sign-in page', async () => {
    const c = await consoleWith();
    const before = up.received.length;
    for (const path of ['/api/v3/self', '/api/v3/enterprise/organizations', '/console/config', '/console/session']) {
      const res = await c.get(path);
      expect(res.status, path).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(res.text)).toMatchObject({
        type: SIGN_IN_REQUIRED_TYPE,
        status: 401,
        sign_in: '/console/sign-in',
        instance: path.split('?')[0],
      });
    }
    expect(up.received.length).toBe(before);
    for (const path of ['/', '/orgs/x/sessions', '/index.html', '/assets/../index.html', '/assets/x/y.js']) {
      const res = await c.get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.location).toBe('/console/sign-in');
    }
    expect((await c.get('/console/health')).status).toBe(200);
    // The built app's hashed chunks hold nothing secret: a page whose session ended can still load one (and
    // its first API call then sends it to the sign-in page).
    expect((await c.get('/assets/index-Ab12.js')).status).toBe(200);
    expect((await rawRequest(c.port, 'POST', '/assets/index-Ab12.js', FORM, '')).status).toBe(303);
  });

  it('shows a sign-in page whose CSP allows its own style and nothing else', async () => {
    const c = await consoleWith();
    const res = await c.get('/console/sign-in');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1]!;
    expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|script-src/);
    expect(res.text).not.toMatch(/<script|style="/);
    // Without CONSOLE_ACCESS_TOKEN there is no token form: the link printed by `npm start` is the way in.
    expect(res.text).toContain('npm start');
    expect(res.text).not.toContain('<form');
  });
});

describe('the one-time sign-in link', () => {
  it('opens a session once; opened again, or unknown, it is refused', async () => {
    const c = await consoleWith();
    const link = c.link();
    expect(link).toMatch(/^\/console\/sign-in\?once=[A-Za-z0-9_-]{43}$/);
    // A HEAD (a link checker, say) does not use it up.
    expect((await rawRequest(c.port, 'HEAD', link)).status).toBe(200);
    const first = await c.get(link);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = cookieOf(first)!;
    expect((await c.get('/', { cookie })).status).toBe(200);
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(200);
    expect(JSON.parse((await c.get('/console/session', { cookie })).text)).toMatchObject({
      signed_in: true,
      method: 'link',
    });

    const again = await c.get(link);
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.text).toContain('already been used or is not valid');
    // Plain words on a page (issue 29, item 8): no Markdown backticks around the command.
    expect(again.text).toContain('the latest one that npm start printed');
    expect(again.text.replace(/<style>[\s\S]*<\/style>/, '')).not.toContain('`');
    const unknown = await c.get(`/console/sign-in?once=${'A'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('shows the token form beside the refusal when CONSOLE_ACCESS_TOKEN is configured', async () => {
    const c = await consoleWith({ accessToken: TOKEN });
    const res = await c.get('/console/sign-in?once=used');
    expect(res.status).toBe(401);
    expect(res.text).toContain('already been used');
    expect(res.text).toContain('<form method="post" action="/console/sign-in">');
  });

  it('is refused when opened from another site', async () => {
    const c = await consoleWith();
    const res = await c.get(c.link(), { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('CONSOLE_ACCESS_TOKEN', () => {
  it('signs in on the page', async () => {
    const c = await consoleWith({ accessToken: TOKEN });
    const res = await c.postToken(TOKEN);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = cookieOf(res)!;
    expect(cookie).not.toContain(TOKEN);
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(200);
    expect(JSON.parse((await c.get('/console/session', { cookie })).text).method).toBe('token');
  });

  it('works as a Bearer token for scripts, without a cookie, and never reaches the upstream', async () => {
    const c = await consoleWith({ accessToken: TOKEN });
    const before = up.received.length;
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const res = await c.get('/api/v3/enterprise/organizations?first=1', bearer);
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    const put = await rawRequest(
      c.port,
      'PUT',
      '/api/v3/organizations/org-1/thing',
      { ...bearer, 'content-type': 'application/json' },
      '{"a":1}',
    );
    expect(put.status).toBe(200);
    const got = up.received.slice(before);
    expect(got).toHaveLength(2);
    for (const r of got) {
      expect(r.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(JSON.stringify(r)).not.toContain(TOKEN);
    }
    expect(JSON.parse((await c.get('/console/session', bearer)).text)).toMatchObject({
      signed_in: true,
      method: 'bearer',
    });
    // Pages need a session: a Bearer token is for /api and /console only.
    expect((await c.get('/', bearer)).status).toBe(303);
  });

  it('refuses a wrong token without saying anything about the right one', async () => {
    const c = await consoleWith({ accessToken: TOKEN });
    const bodies = new Set<string>();
    for (const wrong of ['x', TOKEN.slice(0, 20), `${TOKEN}x`]) {
      const res = await c.postToken(wrong);
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
      // (The name field, with its "1–80 characters" hint and maxlength, is about the name, not the token.)
      const page = res.text.replace(/<label for="name">[\s\S]*?(?=<label for="token">)/, '');
      expect(page).not.toMatch(/short|long|length|prefix|characters|\b16\b|\b35\b/i);
      bodies.add(res.text);
    }
    // The same answer whatever was wrong.
    expect(bodies.size).toBe(1);
    const bearer = await c.get('/api/v3/self', { authorization: 'Bearer nope' });
    expect(bearer.status).toBe(401);
    expect(JSON.parse(bearer.text).type).toBe(SIGN_IN_REQUIRED_TYPE);
    expect(bearer.text).not.toMatch(/short|length|prefix|characters/i);
  });
});

describe('guesses are limited per address', () => {
  it(`backs off exponentially after ${FREE_FAILURES} failures (429 + Retry-After), for the page and Bearer alike, and a success resets it`, async () => {
    const t = clock();
    const c = await consoleWith({ accessToken: TOKEN }, t.now);
    for (let i = 0; i < FREE_FAILURES; i++) expect((await c.postToken(`wrong-${i}`)).status).toBe(401);

    const blocked = await c.postToken(TOKEN);
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    expect(blocked.headers['set-cookie']).toBeUndefined();
    expect(blocked.text).toContain('Too many failed sign-in attempts');
    const bearer = await c.get('/api/v3/self', { authorization: `Bearer ${TOKEN}` });
    expect(bearer.status).toBe(429);
    expect(bearer.headers['retry-after']).toBe('1');
    expect(JSON.parse(bearer.text).status).toBe(429);
    expect((await c.get(c.link())).status).toBe(429);

    // Each further failure doubles the wait.
    t.advance(1_000);
    expect((await c.get('/api/v3/self', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await c.postToken(TOKEN)).headers['retry-after']).toBe('2');
    t.advance(2_000);
    expect((await c.get(`/console/sign-in?once=${'B'.repeat(43)}`)).status).toBe(401);
    expect((await c.postToken(TOKEN)).headers['retry-after']).toBe('4');

    t.advance(4_000);
    expect((await c.postToken(TOKEN)).status).toBe(303);
    // Reset: the next failures start from zero again.
    for (let i = 0; i < FREE_FAILURES - 1; i++) expect((await c.postToken(`again-${i}`)).status).toBe(401);
    expect((await c.get('/api/v3/self', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('keeps a bounded number of addresses, never releasing a blocked one: new addresses then share one row', async () => {
    // The counters live in the console's store (so replicas share them); the same test runs on PostgreSQL in
    // console/storage/console-store.test.ts.
    const store = openSqliteConsoleStore(':memory:');
    const limiter = createSignInFailureStore(store.sqlite!, 3);
    for (const key of ['a', 'b', 'c', 'd']) for (let i = 0; i < FREE_FAILURES; i++) await limiter.fail(key, 1_000);
    expect(await limiter.size()).toBe(4);
    // 'a' stays blocked: eviction never frees it.
    expect(await limiter.waitMs('a', 1_000)).toBeGreaterThan(0);
    // 'd' counted on the shared row, and so is any other address while that row is blocked.
    expect(await limiter.waitMs('d', 1_000)).toBeGreaterThan(0);
    expect(await limiter.waitMs('e', 1_000)).toBeGreaterThan(0);
    // Once their failures have lapsed (an hour, not blocked), addresses make room again.
    const later = 1_000 + 2 * 3_600_000;
    expect(await limiter.waitMs('e', later)).toBe(0);
    await limiter.fail('e', later);
    expect(await limiter.size()).toBeLessThanOrEqual(4);
    await store.close();
  });

  it(`evaluates at most ${FREE_FAILURES} of 1,000 parallel wrong guesses from one address, page and Bearer`, async () => {
    const t = clock();
    const c = await consoleWith({ accessToken: TOKEN }, t.now);
    const guesses = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        i % 2 ? c.postToken(`wrong-${i}`) : c.get('/api/v3/self', { authorization: `Bearer wrong-${i}` }),
      ),
    );
    const evaluated = guesses.filter((g) => g.status === 401).length;
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(FREE_FAILURES);
    expect(guesses.filter((g) => g.status === 429).length).toBe(1_000 - evaluated);
  });

  it('counts every loopback address as one client, and every address against the token', async () => {
    const t = clock();
    const c = await consoleWith({ accessToken: TOKEN }, t.now);
    const from = (i: number) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: c.port,
            method: 'POST',
            path: '/console/sign-in',
            localAddress: `127.0.${i >> 8}.${(i & 255) + 1}`,
            headers: { ...FORM, host: `localhost:${c.port}`, origin: `http://localhost:${c.port}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(`token=wrong-${i}`);
      });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push(await from(i));
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE_FAILURES);
    // Other addresses, one guess each, every one waiting long enough: the token's own budget stops them.
    const store = c.server.store.signInFailures;
    let evaluated = 0;
    for (let i = 0; i < TARGET_ATTEMPTS_PER_HOUR + 20; i++) {
      t.advance(1_000);
      const before = await store.waitMs('target:access-token', t.now());
      await store.fail(`192.0.2.${i}`, t.now());
      if (before === 0 && (await store.attempt([`198.51.100.${i}`, 'target:access-token'], t.now())) === 0) evaluated++;
    }
    expect(evaluated).toBeLessThanOrEqual(TARGET_ATTEMPTS_PER_HOUR);
    const blocked = await c.postToken(TOKEN);
    expect(blocked.status).toBe(429);
  });

  it('counts an IPv6 client by its /64', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::ffff:127.0.0.1')).toBe('loopback');
    expect(addressKey('127.9.8.7')).toBe('loopback');
    expect(addressKey('::1')).toBe('loopback');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('sessions', () => {
  it('are random, distinct per sign-in, and stored only as a SHA-256 hash', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'console-sessions-'));
    const c = await consoleWith({ dataDir });
    const a = (await c.signIn()).split('=')[1]!;
    const b = (await c.signIn()).split('=')[1]!;
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).not.toBe(a);
    const db = new Database(join(dataDir, 'console.db'), { readonly: true });
    const rows = db.prepare('SELECT * FROM console_sessions').all() as Array<Record<string, unknown>>;
    db.close();
    expect(rows.map((r) => r.id_hash).sort()).toEqual(
      [a, b].map((v) => createHash('sha256').update(v).digest('hex')).sort(),
    );
    expect(JSON.stringify(rows)).not.toContain(a);
  });

  it('expire when idle', async () => {
    const t = clock();
    const c = await consoleWith({ sessionIdleMinutes: 10 }, t.now);
    const cookie = await c.signIn();
    t.advance(9 * MINUTE);
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(200);
    // Use keeps it alive.
    t.advance(9 * MINUTE);
    const session = JSON.parse((await c.get('/console/session', { cookie })).text);
    expect(session.idle_expires_at).toBe(Math.floor((t.now() + 10 * MINUTE) / 1000));
    t.advance(10 * MINUTE + 1);
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(401);
    expect((await c.get('/', { cookie })).status).toBe(303);
  });

  it('expire after the maximum age however busy they are', async () => {
    const t = clock();
    const c = await consoleWith({ sessionIdleMinutes: 50, sessionMaxHours: 1 }, t.now);
    const cookie = await c.signIn();
    const session = JSON.parse((await c.get('/console/session', { cookie })).text);
    expect(session.expires_at).toBe(Math.floor((t.now() + 60 * MINUTE) / 1000));
    t.advance(40 * MINUTE);
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(200);
    t.advance(19 * MINUTE);
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(200);
    t.advance(1 * MINUTE);
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(401);
  });

  it('can be signed out of: the session is deleted on the server, and the cookie cleared', async () => {
    const c = await consoleWith();
    const cookie = await c.signIn();
    const other = await c.signIn();
    // Sign-out is refused from another site, like every /console path.
    const crossSite = await rawRequest(
      c.port,
      'POST',
      '/console/sign-out',
      { ...FORM, origin: 'https://evil.example', cookie },
      '',
    );
    expect(crossSite.status).toBe(403);
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(200);
    expect((await c.get('/console/sign-out', { cookie })).status).toBe(405);

    const out = await c.signOut(cookie);
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/console/sign-in');
    expect(out.headers['set-cookie']![0]).toMatch(/^console_session=; .*Max-Age=0/);
    // The old cookie, replayed, no longer works; other sessions do.
    expect((await c.get('/api/v3/self', { cookie })).status).toBe(401);
    expect((await c.get('/api/v3/self', { cookie: other })).status).toBe(200);
  });

  it('are revoked when CONSOLE_ACCESS_TOKEN changes, and survive a restart with the same one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'console-revoke-'));
    const a = await consoleWith({ dataDir, accessToken: TOKEN });
    const cookie = cookieOf(await a.postToken(TOKEN))!;
    const linkCookie = await a.signIn();
    await a.close();

    const same = await consoleWith({ dataDir, accessToken: TOKEN });
    expect((await same.get('/api/v3/self', { cookie })).status).toBe(200);
    expect((await same.get('/api/v3/self', { cookie: linkCookie })).status).toBe(200);
    await same.close();

    const changed = await consoleWith({ dataDir, accessToken: `${TOKEN}-rotated` });
    expect((await changed.get('/api/v3/self', { cookie })).status).toBe(401);
    expect((await changed.get('/api/v3/self', { cookie: linkCookie })).status).toBe(401);
    await changed.close();

    // Going back to the old token does not bring them back: they were deleted.
    const back = await consoleWith({ dataDir, accessToken: TOKEN });
    expect((await back.get('/api/v3/self', { cookie })).status).toBe(401);
  });

  it('links printed by an earlier start no longer work', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'console-links-'));
    const a = await consoleWith({ dataDir });
    const link = a.link();
    await a.close();
    const b = await consoleWith({ dataDir });
    expect((await b.get(link)).status).toBe(401);
  });

  it('set an HttpOnly, SameSite=Strict, Path=/ cookie (plain name over HTTP: browsers refuse __Host- without Secure)', async () => {
    const c = await consoleWith();
    const res = await c.get(c.link());
    const cookie = res.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=43200/);
    expect(cookie).not.toMatch(/Secure|Domain/);
  });

  it('are not locked out by a planted cookie of the same name', async () => {
    const c = await consoleWith();
    const cookie = await c.signIn();
    const value = cookie.split('=')[1]!;
    for (const planted of [
      `console_session=planted; ${cookie}`,
      `${cookie}; console_session=planted`,
      `console_session=${'C'.repeat(43)}; console_session=; ${cookie}`,
    ]) {
      expect((await c.get('/api/v3/self', { cookie: planted })).status, planted).toBe(200);
    }
    expect((await c.get('/api/v3/self', { cookie: 'console_session=planted' })).status).toBe(401);
    expect((await c.get('/api/v3/self', { cookie: `other_session=${value}` })).status).toBe(401);
  });

  it("never acts in a session another port's page planted beside the browser's: both are cleared", async () => {
    const c = await consoleWith();
    const victim = await c.signIn();
    const planted = await c.signIn(); // the attacker's own valid session, set under a longer Path or a Domain
    for (const both of [`${planted}; ${victim}`, `${victim}; ${planted}`]) {
      const res = await c.get('/api/v3/self', { cookie: both });
      expect(res.status, both).toBe(401);
      const cleared = res.headers['set-cookie'] ?? [];
      expect(cleared).toContain('console_session=; Path=/; Max-Age=0');
      expect(cleared).toContain('console_session=; Path=/api/v3; Max-Age=0');
      expect(cleared).toContain(`console_session=; Path=/api; Domain=localhost; Max-Age=0`);
    }
    // Each alone is its own session, as before.
    expect((await c.get('/api/v3/self', { cookie: victim })).status).toBe(200);
    expect((await c.get(`/console/session`, { cookie: `${victim}; ${victim}` })).status).toBe(200);
  });
});

describe('CONSOLE_AUTH=off', () => {
  it('lets every request through, and says so', async () => {
    const c = await consoleWith({ consoleAuth: 'off' });
    expect((await c.get('/api/v3/self')).status).toBe(200);
    expect((await c.get('/')).status).toBe(200);
    expect(JSON.parse((await c.get('/console/session')).text)).toMatchObject({ signed_in: true, method: 'off' });
    expect(JSON.parse((await c.get('/console/config')).text).access_control).toBe('off');
  });

  it('/console/config names the mode when access control is on', async () => {
    const link = await consoleWith();
    expect(JSON.parse((await link.get('/console/config', { cookie: await link.signIn() })).text).access_control).toBe(
      'link',
    );
    const token = await consoleWith({ accessToken: TOKEN });
    const config = await token.get('/console/config', { authorization: `Bearer ${TOKEN}` });
    expect(JSON.parse(config.text).access_control).toBe('token');
    expect(config.text).not.toContain(TOKEN);
  });
});

describe('HTTPS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  beforeAll(() => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
  });

  function get(port: number, path: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          servername: 'localhost',
          port,
          path,
          ca: readFileSync(certFile),
          headers: { host: `localhost:${port}`, ...headers },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('serves HTTPS with TLS_CERT_FILE and TLS_KEY_FILE; the cookie is __Host- and Secure', async () => {
    const s = createConsoleServer({
      config: testConfig({ consoleAuth: 'on', tlsCertFile: certFile, tlsKeyFile: keyFile }),
      upstream: { baseUrl: up.url, apiKey: SECRET },
    });
    running.push(s);
    const { url, port } = await s.listen();
    expect(url).toBe(`https://localhost:${port}`);
    const health = await get(port, '/console/health');
    expect(health.status).toBe(200);
    // Once a browser has seen the console over HTTPS, it never tries plain HTTP on that host again.
    expect(health.headers['strict-transport-security']).toBe(HSTS);

    const signIn = await get(port, s.signInLink());
    expect(signIn.status).toBe(303);
    expect(signIn.headers['strict-transport-security']).toBe(HSTS);
    const cookie = signIn.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^__Host-console_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure/);
    const session = cookie.split(';')[0]!;
    expect((await get(port, '/api/v3/self', { cookie: session })).status).toBe(200);
    // Over HTTPS only the __Host- cookie counts: a plain-named one (which any subdomain could set) does not.
    const plain = session.replace('__Host-', '');
    expect((await get(port, '/api/v3/self', { cookie: plain })).status).toBe(401);
    // Plain HTTP is not served on that port.
    await expect(rawRequest(port, 'GET', '/console/health')).rejects.toThrow();
  });
});
