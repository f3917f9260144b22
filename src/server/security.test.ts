/**
 * Issue 7: only the console's own pages may use the credential; nothing takes the console down.
 * One test (or group) per rule, over real HTTP.
 */
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../test/fake-upstream';
import { rawRequest, startTestConsole, testConfig } from '../test/harness';
import { createConsoleServer } from './app';

const SECRET = 'cog_security_test_credential_9f8e7d';

let up: Awaited<ReturnType<typeof startFakeUpstream>>;
let c: Awaited<ReturnType<typeof startTestConsole>>;
const ok = () =>
  up.respondWith((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'));

beforeAll(async () => {
  up = await startFakeUpstream();
  c = await startTestConsole({
    upstream: { baseUrl: up.url, apiKey: SECRET },
    config: { upstreamTimeoutMs: 500, maxUpstreamConnections: 3 },
  });
});
afterAll(async () => {
  await c.close();
  await up.close();
});

describe('cross-site requests are refused', () => {
  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['a foreign port of localhost', { origin: 'http://localhost:1' }],
    ['a null Origin', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
  ])('with %s: 403 problem, never forwarded', async (_name, headers) => {
    ok();
    const before = up.received.length;
    for (const path of ['/api/v3/self', '/console/config']) {
      const res = await rawRequest(c.port, 'GET', path, headers);
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(up.received.length).toBe(before);
  });

  it("accepts the console's own origin and same-origin fetches", async () => {
    ok();
    const res = await rawRequest(c.port, 'GET', '/api/v3/self', {
      origin: `http://localhost:${c.port}`,
      'sec-fetch-site': 'same-origin',
    });
    expect(res.status).toBe(200);
  });

  it('never grants CORS: a preflight is refused without Access-Control headers', async () => {
    const res = await rawRequest(c.port, 'OPTIONS', '/api/v3/self', {
      origin: 'https://evil.example',
      'access-control-request-method': 'PUT',
    });
    expect(res.status).toBe(403);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const same = await rawRequest(c.port, 'OPTIONS', '/api/v3/self', { 'access-control-request-method': 'PUT' });
    expect(same.status).toBe(403);
    expect(same.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'refuses a %s body (only JSON, which forces a preflight)',
    async (type) => {
      const before = up.received.length;
      const res = await rawRequest(
        c.port,
        'POST',
        '/api/v3/organizations/org-1/sessions',
        { 'content-type': type },
        'prompt=hi',
      );
      expect(res.status).toBe(415);
      expect(up.received.length).toBe(before);
    },
  );
});

describe('DNS rebinding is blocked', () => {
  it.each(['evil.example', `evil.example:${0}`, 'localhost:1', '127.0.0.2'])('refuses Host %s', async (host) => {
    const h = host.endsWith(':0') ? host.replace(':0', `:${c.port}`) : host;
    const before = up.received.length;
    for (const path of ['/api/v3/self', '/console/health', '/']) {
      const res = await rawRequest(c.port, 'GET', path, { host: h });
      expect(res.status).toBe(403);
    }
    expect(up.received.length).toBe(before);
  });

  it('accepts the loopback names on the served port', async () => {
    for (const host of [`localhost:${c.port}`, `127.0.0.1:${c.port}`, `[::1]:${c.port}`]) {
      expect((await rawRequest(c.port, 'GET', '/console/health', { host })).status).toBe(200);
    }
  });

  it('accepts configured ALLOWED_HOSTS', async () => {
    const s = createConsoleServer({
      config: testConfig({ allowedHosts: ['console.internal'] }),
      upstream: { baseUrl: up.url, apiKey: SECRET },
    });
    const { port } = await s.listen();
    try {
      expect((await rawRequest(port, 'GET', '/console/health', { host: `console.internal:${port}` })).status).toBe(200);
      // Behind a load balancer the browser sends the name alone (its scheme's default port).
      expect((await rawRequest(port, 'GET', '/console/health', { host: 'console.internal' })).status).toBe(200);
      expect((await rawRequest(port, 'GET', '/console/health', { host: 'localhost' })).status).toBe(403);
    } finally {
      await s.close();
    }
  });
});

describe('only API paths reach the upstream, after normalization', () => {
  it.each([
    '/api/v3/%2E%2E/%2E%2E/admin',
    '/api/v3/.%2e/x',
    '/api/v3/%5cself',
    '/api/v3/%00',
    '/api/v3/./self',
    '/api/v3beta1/../v2/x',
    '/api/v3//self',
    '/api//v3/self',
    '/API/v3/self',
    '/api/v3',
    '/api/v3beta2/x',
    'http://evil.example/api/v3/self',
    '//evil.example/api/v3/self',
    '/api/v3/self#frag',
    '/api/v3/se lf',
  ])('refuses %s', async (target) => {
    const before = up.received.length;
    const res = await rawRequest(c.port, 'GET', target).catch(() => ({ status: 400, headers: {}, text: '' }));
    expect([400, 403, 404]).toContain(res.status);
    expect(up.received.length).toBe(before);
  });
});

describe('header hygiene', () => {
  it('does not forward Proxy-*, X-Forwarded-* or Cookie, and replaces Authorization', async () => {
    ok();
    await rawRequest(c.port, 'GET', '/api/v3/self', {
      authorization: 'Bearer cog_browser',
      cookie: 'a=b',
      'proxy-connection': 'keep-alive',
      'x-forwarded-proto': 'https',
      'x-real-ip': '1.2.3.4',
      'x-forwarded-prefix': '/admin',
    });
    const h = up.received.at(-1)!.headers;
    expect(h.authorization).toBe(`Bearer ${SECRET}`);
    for (const name of ['cookie', 'proxy-connection', 'x-forwarded-proto', 'x-real-ip', 'x-forwarded-prefix'])
      expect(h[name]).toBeUndefined();
  });
});

describe('limits', () => {
  it('answers 413 to an oversized body and does not forward it', async () => {
    const before = up.received.length;
    const big = JSON.stringify({ prompt: 'x'.repeat(1_100_000) });
    const res = await rawRequest(
      c.port,
      'POST',
      '/api/v3/organizations/org-1/sessions',
      { 'content-type': 'application/json' },
      big,
    );
    expect(res.status).toBe(413);
    expect(up.received.length).toBe(before);
  });

  it('answers 413 to an oversized chunked body', async () => {
    const res = await new Promise<number>((resolve) => {
      const sock = connect(c.port, '127.0.0.1', () => {
        sock.write(
          `POST /api/v3/organizations/org-1/sessions HTTP/1.1\r\nhost: localhost:${c.port}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
        );
        const chunk = 'y'.repeat(64 * 1024);
        for (let i = 0; i < 20; i++) sock.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        sock.write('0\r\n\r\n');
      });
      let data = '';
      sock.on('data', (d) => {
        data += d.toString();
        const m = /^HTTP\/1\.1 (\d+)/.exec(data);
        if (m) {
          resolve(Number(m[1]));
          sock.destroy();
        }
      });
      sock.on('error', () => resolve(0));
    });
    expect(res).toBe(413);
  });

  it('answers 431 to oversized headers', async () => {
    const res = await rawRequest(c.port, 'GET', '/api/v3/self', { 'x-big': 'z'.repeat(20_000) }).catch(() => ({
      status: 0,
    }));
    expect(res.status).toBe(431);
  });

  it('answers 504 when the upstream hangs', async () => {
    up.respondWith(() => undefined);
    const res = await rawRequest(c.port, 'GET', '/api/v3/self');
    expect(res.status).toBe(504);
    expect(JSON.parse(res.text)).toMatchObject({ status: 504, title: 'Gateway Timeout' });
  });

  it('caps concurrent upstream connections', async () => {
    let inFlight = 0;
    let peak = 0;
    up.respondWith((_r, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }, 80);
    });
    const results = await Promise.all(Array.from({ length: 9 }, () => rawRequest(c.port, 'GET', '/api/v3/self')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
  });

  it('a hanging upstream call and a slow client do not hold up other requests', async () => {
    up.respondWith((r, res) => {
      if (r.url.includes('hang')) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const hanging = rawRequest(c.port, 'GET', '/api/v3/hang');
    // A slow client: headers sent, body trickling.
    const slow = connect(c.port, '127.0.0.1', () => {
      slow.write(
        `POST /api/v3/x HTTP/1.1\r\nhost: localhost:${c.port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`,
      );
    });
    const t0 = Date.now();
    const health = await rawRequest(c.port, 'GET', '/console/health');
    const other = await rawRequest(c.port, 'GET', '/api/v3/self');
    expect(health.status).toBe(200);
    expect(other.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(400);
    slow.destroy();
    expect((await hanging).status).toBe(504);
  });
});

describe('the credential never leaks', () => {
  it('is redacted should the upstream echo it, in body and headers', async () => {
    up.respondWith((r, res) =>
      res
        .writeHead(401, {
          'content-type': 'application/problem+json',
          'www-authenticate': `Bearer ${r.headers.authorization}`,
        })
        .end(
          JSON.stringify({ status: 401, title: 'Unauthorized', detail: `bad credential ${r.headers.authorization}` }),
        ),
    );
    const res = await rawRequest(c.port, 'GET', '/api/v3/self');
    expect(res.status).toBe(401);
    expect(res.text).not.toContain(SECRET);
    expect(JSON.stringify(res.headers)).not.toContain(SECRET);
    expect(res.text).toContain('[redacted]');
  });

  it('appears in no log line, and logs are one line per request: method, path, status, duration', async () => {
    const lines: string[] = [];
    const s = createConsoleServer({
      config: testConfig(),
      upstream: { baseUrl: up.url, apiKey: SECRET },
      log: (l) => lines.push(l),
    });
    const { port } = await s.listen();
    ok();
    try {
      await rawRequest(port, 'GET', `/api/v3/self?token=${SECRET}`);
      await rawRequest(port, 'GET', '/api/../etc');
      await new Promise((r) => setTimeout(r, 20));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^GET \/api\/v3\/self 200 \d+\.\dms$/);
      expect(lines.join('\n')).not.toContain(SECRET);
    } finally {
      await s.close();
    }
  });

  it('is not in /console/config, errors or problem bodies', async () => {
    const config = await rawRequest(c.port, 'GET', '/console/config');
    expect(config.text).not.toContain(SECRET);
    up.respondWith((_r, res) => res.destroy());
    const reset = await rawRequest(c.port, 'GET', '/api/v3/self');
    expect(reset.status).toBe(502);
    expect(reset.text).not.toContain(SECRET);
  });
});

describe('access control (see access.test.ts for every rule)', () => {
  const TOKEN = 'a-long-console-access-token';
  let s: ReturnType<typeof createConsoleServer>;
  let port: number;
  beforeAll(async () => {
    s = createConsoleServer({
      config: testConfig({ accessToken: TOKEN, consoleAuth: 'on' }),
      upstream: { baseUrl: up.url, apiKey: SECRET },
      serveApp: (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<div id="root"></div>'),
    });
    port = (await s.listen()).port;
  });
  afterAll(() => s.close());

  it('sends people to the sign-in page and refuses API calls without a session', async () => {
    const home = await rawRequest(port, 'GET', '/');
    expect(home.status).toBe(303);
    expect(home.headers.location).toBe('/console/sign-in');
    const api = await rawRequest(port, 'GET', '/api/v3/self');
    expect(api.status).toBe(401);
    expect(JSON.parse(api.text)).toMatchObject({
      type: 'urn:agent-platform-console:sign-in-required',
      sign_in: '/console/sign-in',
      detail: expect.stringMatching(/Sign in/),
    });
    const page = await rawRequest(port, 'GET', '/console/sign-in');
    expect(page.text).toContain('Access token');
    expect((await rawRequest(port, 'GET', '/console/health')).status).toBe(200);
  });

  it('refuses a wrong token; the right one sets an HttpOnly, SameSite=Strict cookie that opens the console', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: `http://localhost:${port}` };
    const wrong = await rawRequest(port, 'POST', '/console/sign-in', form, 'token=nope');
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const right = await rawRequest(port, 'POST', '/console/sign-in', form, `token=${TOKEN}`);
    expect(right.status).toBe(303);
    const cookie = right.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0]!;
    ok();
    expect((await rawRequest(port, 'GET', '/', { cookie: session })).status).toBe(200);
    expect((await rawRequest(port, 'GET', '/api/v3/self', { cookie: session })).status).toBe(200);
    // The session cookie is never forwarded upstream.
    expect(up.received.at(-1)!.headers.cookie).toBeUndefined();
  });

  it('refuses a cross-site sign-in', async () => {
    const res = await rawRequest(
      port,
      'POST',
      '/console/sign-in',
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      `token=${TOKEN}`,
    );
    expect(res.status).toBe(403);
  });
});

describe('fault tolerance', () => {
  it.each([
    ['garbage', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops')],
    [
      'a 503',
      (res: ServerResponse) => res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '3' }).end('down'),
    ],
    [
      'a 500 problem',
      (res: ServerResponse) =>
        res
          .writeHead(500, { 'content-type': 'application/problem+json' })
          .end('{"status":500,"title":"Internal Server Error"}'),
    ],
  ])('passes %s through unchanged for the browser to explain', async (_name, respond) => {
    up.respondWith((_r, res) => respond(res));
    const res = await rawRequest(c.port, 'GET', '/api/v3/self');
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(600);
  });

  it('recovers by itself once the upstream is back', async () => {
    up.respondWith((_r, res) => res.destroy());
    expect((await rawRequest(c.port, 'GET', '/api/v3/self')).status).toBe(502);
    ok();
    expect((await rawRequest(c.port, 'GET', '/api/v3/self')).status).toBe(200);
  });
});

describe('guarded sets through the proxy (issue 26)', () => {
  it('refuses every write to the IP access list, whatever the path form, and sends nothing upstream', async () => {
    ok();
    const before = up.received.length;
    const json = { 'content-type': 'application/json' };
    const lockout = JSON.stringify({ ip_ranges: ['203.0.113.0/24'] });
    for (const [method, path] of [
      ['PUT', '/api/v3/enterprise/ip-access-list'],
      ['POST', '/api/v3/enterprise/ip-access-list'],
      ['DELETE', '/api/v3/enterprise/ip-access-list'],
      ['PUT', '/api/v3beta1/enterprise/ip-access-list'],
      ['PUT', '/api/v3/enterprise/ip-access-lis%74'],
      ['PUT', '/api/v3/enterprise/IP-Access-List/'],
      ['PUT', '/api/v3/enterprise/ip-access-list?x=1'],
    ] as const) {
      const res =
        method === 'DELETE'
          ? await rawRequest(c.port, method, path)
          : await rawRequest(c.port, method, path, json, lockout);
      expect(res.status, `${method} ${path}`).toBe(403);
      const problem = JSON.parse(res.text) as { guarded_endpoint: string; detail: string };
      expect(problem.guarded_endpoint).toBe('/console/ip-access-list');
      expect(problem.detail).toContain('lock the console out');
    }
    expect(up.received.length).toBe(before);
    // Reading it still goes through.
    expect((await rawRequest(c.port, 'GET', '/api/v3/enterprise/ip-access-list')).status).toBe(200);
  });

  it("runs a raw git-permission PATCH under the organization's lock, as the console's own changes", async () => {
    const server = createConsoleServer({ config: testConfig(), upstream: { baseUrl: up.url, apiKey: SECRET } });
    const { port } = await server.listen();
    try {
      ok();
      let release!: () => void;
      const held = server.store.locks.run('git-permissions', 'org-1', () => new Promise<void>((r) => (release = r)));
      const before = up.received.length;
      const patch = rawRequest(
        port,
        'PATCH',
        '/api/v3/enterprise/organizations/org-1/git-providers/permissions/gp-1',
        { 'content-type': 'application/json' },
        '{"read_only":true}',
      );
      // Another organization's set is not held up.
      const other = await rawRequest(
        port,
        'DELETE',
        '/api/v3/enterprise/organizations/org-2/git-providers/permissions/gp-9',
      );
      expect(other.status).toBe(200);
      await new Promise((r) => setTimeout(r, 150));
      expect(up.received.slice(before).map((r) => r.method)).toEqual(['DELETE']);
      release();
      await held;
      expect((await patch).status).toBe(200);
      expect(up.received.at(-1)).toMatchObject({ method: 'PATCH' });
    } finally {
      await server.close();
    }
  });
});

describe('escaped copies of the credential in proxied answers (issue 26)', () => {
  const hex = (ch: string, width: number) => ch.charCodeAt(0).toString(16).padStart(width, '0');
  it.each([
    ['literal \\x text (JSON doubles the backslash)', [...SECRET].map((ch) => `\\\\x${hex(ch, 2)}`).join('')],
    ['literal \\u text', [...SECRET].map((ch) => `\\\\u${hex(ch, 4)}`).join('')],
    ['HTML decimal references', SECRET.replace(/_/g, '&#95;')],
    ['HTML hex references', SECRET.replace(/_/g, '&#x5f;')],
    ['HTML named references', SECRET.replace(/_/g, '&lowbar;')],
  ])('masks a %s copy, keeping the JSON valid', async (_name, copy) => {
    up.respondWith((_r, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"ip_ranges":["10.0.0.0/8 ${copy}"]}`),
    );
    const res = await rawRequest(c.port, 'GET', '/api/v3/enterprise/ip-access-list');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(copy);
    expect(res.text).toContain('[redacted]');
    const value = (JSON.parse(res.text) as { ip_ranges: string[] }).ip_ranges[0]!;
    expect(value.startsWith('10.0.0.0/8 [redacted]')).toBe(true);
  });
});
