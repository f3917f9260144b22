/** The console server over real HTTP: the proxy's rules, the console endpoints, and failure answers. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../test/fake-upstream';
import { rawRequest, startTestConsole, testConfig } from '../test/harness';
import { createConsoleServer } from './app';
import { createStaticHandler } from './static';

const SECRET = 'cog_test_secret_credential_123456';

describe('proxy to the sandbox', () => {
  let c: Awaited<ReturnType<typeof startTestConsole>>;
  beforeAll(async () => {
    c = await startTestConsole();
  });
  afterAll(() => c.close());

  it('forwards API paths with the configured credential; the browser sends none', async () => {
    const res = await c.api.get('/api/v3/enterprise/organizations?first=2');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(2);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it("replaces the browser's own Authorization with the configured credential", async () => {
    const res = await c.api.call('GET', '/api/v3/self', { headers: { authorization: 'Bearer cog_sandbox_viewer' } });
    expect(res.body.service_user_name).toBe('Sandbox Admin');
  });

  it('passes problem bodies through with their status and type', async () => {
    const res = await c.api.get('/api/v3/enterprise/organizations?first=0');
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.errors[0].loc).toEqual(['query', 'first']);
  });

  it('answers /console/health and /console/config without the credential', async () => {
    const health = await c.api.get('/console/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    const config = await c.api.get('/console/config');
    expect(config.body).toMatchObject({ mode: 'sandbox', sandbox: true, sandbox_shape: 'spec' });
    // What the browser keys its knowledge of the upstream by: opaque, and never the credential.
    expect(config.body.upstream_id).toMatch(/^[0-9a-f]{16}$/);
    expect(config.text).not.toMatch(/cog_/);
  });
});

describe('proxy rules against a recording upstream', () => {
  let up: Awaited<ReturnType<typeof startFakeUpstream>>;
  let c: Awaited<ReturnType<typeof startTestConsole>>;
  beforeAll(async () => {
    up = await startFakeUpstream();
    c = await startTestConsole({ upstream: { baseUrl: up.url, apiKey: SECRET }, config: { upstreamTimeoutMs: 400 } });
  });
  afterAll(async () => {
    await c.close();
    await up.close();
  });

  it('keeps path and query unchanged and sends only the configured credential', async () => {
    up.respondWith((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    await rawRequest(c.port, 'GET', '/api/v3/organizations/org-1/sessions?origins=api&origins=webapp&first=5', {
      authorization: 'Bearer cog_attacker',
      cookie: 'session=abc',
      'proxy-authorization': 'Basic x',
      'x-forwarded-for': '6.6.6.6',
      'x-forwarded-host': 'evil.example',
      forwarded: 'for=6.6.6.6',
      connection: 'keep-alive, x-drop-me',
      'x-drop-me': '1',
      te: 'trailers',
      accept: 'application/json',
    });
    const r = up.received.at(-1)!;
    expect(r.url).toBe('/v3/organizations/org-1/sessions?origins=api&origins=webapp&first=5');
    expect(r.headers.authorization).toBe(`Bearer ${SECRET}`);
    for (const h of [
      'cookie',
      'proxy-authorization',
      'x-forwarded-for',
      'x-forwarded-host',
      'forwarded',
      'x-drop-me',
      'te',
    ]) {
      expect(r.headers[h], h).toBeUndefined();
    }
    expect(r.headers.accept).toBe('application/json');
  });

  it('forwards JSON bodies of writes unchanged', async () => {
    await c.api.call('PUT', '/api/v3/enterprise/organizations/org-1/git-providers/permissions', {
      body: { permissions: [] },
    });
    const r = up.received.at(-1)!;
    expect(r.method).toBe('PUT');
    expect(JSON.parse(r.body)).toEqual({ permissions: [] });
  });

  it('passes status, content type, Retry-After and body through; drops Set-Cookie', async () => {
    up.respondWith((_r, res) =>
      res
        .writeHead(429, {
          'content-type': 'application/problem+json',
          'retry-after': '7',
          'set-cookie': 'tracker=1; Path=/',
          'x-internal': 'secret',
        })
        .end('{"status":429,"title":"Too Many Requests","detail":"slow down"}'),
    );
    const res = await c.api.get('/api/v3beta1/organizations/org-1/snapshot-setup/builds');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('x-internal')).toBeNull();
    expect(res.body.detail).toBe('slow down');
  });

  it('never follows an upstream redirect with the credential', async () => {
    up.respondWith((_r, res) => res.writeHead(302, { location: 'http://elsewhere.example/steal' }).end());
    const before = up.received.length;
    const res = await c.api.get('/api/v3/self');
    expect(res.status).toBe(302);
    expect(up.received.length).toBe(before + 1);
  });

  it.each([
    '/api/v2/enterprise/organizations',
    '/api/v1/sessions',
    '/api/v3/../console/health',
    '/api/v3/%2e%2e/v2/x',
    '/api/v3/a%2fb',
    '/api/v3//v3/self',
    '/api/v3\\self',
    '/api/internal',
    '/apiv3/self',
  ])('refuses %s with a 404 problem and never forwards it', async (path) => {
    const before = up.received.length;
    const res = await rawRequest(c.port, 'GET', path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(up.received.length).toBe(before);
  });

  it('answers 504 with a problem body when the upstream does not answer in time', async () => {
    up.respondWith(() => {
      /* hang */
    });
    const res = await c.api.get('/api/v3/self');
    expect(res.status).toBe(504);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.detail).toMatch(/did not answer/);
    expect(res.text).not.toContain(SECRET);
  });
});

describe('upstream unreachable', () => {
  it('answers 502 with a problem body, without the credential', async () => {
    const up = await startFakeUpstream();
    const url = up.url;
    await up.close();
    const c = await startTestConsole({ upstream: { baseUrl: url, apiKey: SECRET } });
    try {
      const res = await c.api.get('/api/v3/enterprise/organizations');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        status: 502,
        title: 'Bad Gateway',
        instance: '/api/v3/enterprise/organizations',
      });
      expect(res.text).not.toContain(SECRET);
    } finally {
      await c.close();
    }
  });
});

describe('serving the app', () => {
  it('serves built files and answers deep links with index.html', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app-123.js'), 'console.log(1)');
    const up = await startFakeUpstream();
    const server = createConsoleServer({
      config: testConfig(),
      upstream: { baseUrl: up.url, apiKey: SECRET },
      serveApp: createStaticHandler(dist),
    });
    const { port } = await server.listen();
    const base = `http://127.0.0.1:${port}`;
    try {
      const deep = await fetch(`${base}/orgs/org-1/sessions?origins=api`);
      expect(deep.status).toBe(200);
      expect(await deep.text()).toContain('id="root"');
      expect(deep.headers.get('content-security-policy')).toContain("default-src 'self'");
      const asset = await fetch(`${base}/assets/app-123.js`);
      expect(asset.headers.get('content-type')).toContain('javascript');
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
      expect((await fetch(`${base}/../etc/passwd`)).status).not.toBe(500);
    } finally {
      await server.close();
      await up.close();
    }
  });
});
