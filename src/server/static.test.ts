/**
 * Serving the built app: the precompressed copy the browser accepts, Vary, caching (immutable hashed assets,
 * revalidated index.html and deep links), over real HTTP; and the negotiation rules on their own. The console's
 * own index.html (from the repository's template and a build manifest): the shell it paints before any script,
 * the theme script the CSP admits by hash, what it preloads for each deep link, and never the credential.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { startFakeUpstream } from '../test/fake-upstream';
import { rawRequest, testConfig } from '../test/harness';
import { createConsoleServer } from './app';
import { negotiateEncoding, varyOnEncoding } from './encoding';
import { ENTERPRISE_NAV } from '../lib/nav';
import type { FirstScreenRenderer } from './first-screen-render';
import { createStaticHandler } from './static';

const APP_JS = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{id:${i},name:"row ${i}"}`).join(',')}];`;
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/app-3f9a.js"></script></head><body><div id="root"></div>${' '.repeat(400)}</body></html>`;

let port: number;
let close: () => Promise<void>;

beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'app-3f9a.js'), APP_JS);
  writeFileSync(join(dist, 'assets', 'tiny-77aa.js'), 'export{}');
  writeFileSync(join(dist, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(100)}</svg>`);
  // As the build's plugin does after `vite build`.
  expect(await precompressDir(dist)).toBe(6);
  const up = await startFakeUpstream();
  const server = createConsoleServer({
    config: testConfig(),
    upstream: { baseUrl: up.url, apiKey: 'cog_static_test_credential_1234' },
    serveApp: createStaticHandler(dist),
  });
  port = (await server.listen()).port;
  close = async () => {
    await server.close();
    await up.close();
  };
});
afterAll(() => close());

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(port, method, path, headers);

describe('precompressed assets', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.9', 'br'],
    ['*', 'br'],
    ['br;q=0, *;q=0.5', 'gzip'],
    ['GZIP', 'gzip'],
  ])('with Accept-Encoding %s, sends %s', async (accept, coding) => {
    const res = await get('/assets/app-3f9a.js', { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers.vary).toBe('accept-encoding');
    expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
    expect(res.bytes.length).toBeLessThan(APP_JS.length / 3);
    const decoded = coding === 'br' ? brotliDecompressSync(res.bytes) : gunzipSync(res.bytes);
    expect(decoded.toString()).toBe(APP_JS);
  });

  it.each([
    ['absent', undefined],
    ['identity', 'identity'],
    ['deflate only', 'deflate'],
    ['br and gzip refused', 'br;q=0, gzip;q=0'],
    ['everything refused', 'identity;q=0, *;q=0'],
  ])('with Accept-Encoding %s, sends the file as it is', async (_name, accept) => {
    const res = await get('/assets/app-3f9a.js', accept === undefined ? {} : { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.text).toBe(APP_JS);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('sends a file too small to compress as it is, without Vary', async () => {
    const res = await get('/assets/tiny-77aa.js', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.text).toBe('export{}');
  });

  it('caches hashed assets as immutable for a year, in every coding', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await get('/assets/app-3f9a.js', { 'accept-encoding': accept });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers HEAD with the headers of the chosen copy and no body', async () => {
    const res = await get('/assets/app-3f9a.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expect(res.bytes.length).toBe(0);
  });
});

describe('index.html and deep links', () => {
  it.each(['/', '/index.html', '/orgs/org-1/sessions', '/audit-logs/'])(
    '%s: index.html, compressed, revalidated (no-cache), with the CSP',
    async (path) => {
      const res = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(brotliDecompressSync(res.bytes).toString()).toBe(INDEX);
    },
  );

  it('answers a revalidation with 304 when unchanged, per coding', async () => {
    const first = await get('/orgs/org-1', { 'accept-encoding': 'br' });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^".+-br"$/);
    const again = await get('/orgs/org-1', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers['cache-control']).toBe('no-cache');
    // The identity copy has its own tag: a br tag does not validate it.
    const plain = await get('/orgs/org-1', { 'if-none-match': etag });
    expect(plain.status).toBe(200);
    expect(plain.headers.etag).not.toBe(etag);
    expect(plain.text).toBe(INDEX);
  });

  it('revalidates other files at the root (no-cache), and 404s a missing asset', async () => {
    const icon = await get('/favicon.svg', { 'accept-encoding': 'gzip' });
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect(icon.headers['content-encoding']).toBe('gzip');
    expect((await get('/assets/missing-1234.js')).status).toBe(404);
    expect((await get('/assets/app-3f9a.js', {}, 'POST')).status).toBe(405);
  });
});

describe('negotiateEncoding', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    [undefined, both, 'identity'],
    ['', both, 'identity'],
    ['gzip, br', both, 'br'],
    ['gzip, br', ['gzip'] as const, 'gzip'],
    ['br', ['gzip'] as const, 'identity'],
    ['gzip;q=1.0, br;q=0.99', both, 'gzip'],
    ['br;q=0.2, identity;q=0.5', both, 'identity'],
    ['br;q=0.5, identity', both, 'identity'],
    ['br;q=0.5', both, 'br'],
    ['*;q=0.1, gzip;q=0', both, 'br'],
    ['x-unknown, compress', both, 'identity'],
    ['br ; q = 0.7 , gzip ; q = 0.6', both, 'br'],
  ] as const)('%s of %s → %s', (header, available, chosen) => {
    expect(negotiateEncoding(header, available)).toBe(chosen);
  });

  it('adds accept-encoding to Vary once', () => {
    expect(varyOnEncoding(undefined)).toBe('accept-encoding');
    expect(varyOnEncoding('origin')).toBe('origin, accept-encoding');
    expect(varyOnEncoding('Origin, Accept-Encoding')).toBe('Origin, Accept-Encoding');
    expect(varyOnEncoding('*')).toBe('*');
  });
});

describe("the console's index.html", () => {
  const CREDENTIAL = 'cog_static_html_credential_5678';
  const ACCESS_TOKEN = 'console-access-token-never-in-html-0000';
  // The repository's template, as the build writes it: the entry script in the head, the body as written.
  const TEMPLATE = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8').replace(
    /<script type="module" src="\/src\/main.tsx"><\/script>/,
    '',
  );
  // As the build writes it (vite.config.ts): the entry preloaded in the head, started by a script at the body's end.
  const BUILT = TEMPLATE.replace(
    '</head>',
    '<link rel="stylesheet" href="/assets/index-1.css"><link rel="modulepreload" crossorigin href="/assets/index-1.js"><link rel="modulepreload" crossorigin href="/assets/shared-1.js"></head>',
  ).replace(
    '</body>',
    `<script>(function () { var s = document.createElement('script'); s.type = 'module'; s.src = '/assets/index-1.js'; requestAnimationFrame(function () { document.head.appendChild(s); }); })();</script></body>`,
  );
  const MANIFEST = {
    'index.html': { file: 'assets/index-1.js', src: 'index.html', isEntry: true, imports: ['_shared-1.js'] },
    '_shared-1.js': { file: 'assets/shared-1.js' },
    '_table-1.js': { file: 'assets/table-1.js', imports: ['_shared-1.js'] },
    'src/routes/index.tsx?tsr-split=component---loader': {
      file: 'assets/routes-1.js',
      src: 'src/routes/index.tsx?tsr-split=component---loader',
      imports: ['index.html', '_shared-1.js', '_table-1.js'],
    },
    'src/routes/orgs/$orgId/route.tsx?tsr-split=component---loader': {
      file: 'assets/route-1.js',
      src: 'src/routes/orgs/$orgId/route.tsx?tsr-split=component---loader',
      imports: ['index.html'],
    },
    'src/routes/orgs/$orgId/route.tsx?tsr-split=notFoundComponent': {
      file: 'assets/route-404.js',
      src: 'src/routes/orgs/$orgId/route.tsx?tsr-split=notFoundComponent',
    },
    'src/routes/orgs/$orgId/sessions/index.tsx?tsr-split=component---loader': {
      file: 'assets/sessions-1.js',
      src: 'src/routes/orgs/$orgId/sessions/index.tsx?tsr-split=component---loader',
      imports: ['index.html', '_table-1.js'],
    },
    'src/routes/orgs/$orgId/sessions/new.tsx?tsr-split=component---loader': {
      file: 'assets/new-1.js',
      src: 'src/routes/orgs/$orgId/sessions/new.tsx?tsr-split=component---loader',
    },
    'src/routes/orgs/$orgId/sessions/$sessionId.tsx?tsr-split=component---loader': {
      file: 'assets/session-1.js',
      src: 'src/routes/orgs/$orgId/sessions/$sessionId.tsx?tsr-split=component---loader',
    },
  };
  let appPort: number;
  let stop: () => Promise<void>;

  /** A console serving a build of the template and manifest above (with a first-screen renderer, or none). */
  async function serveBuilt(firstScreen?: FirstScreenRenderer) {
    const dist = mkdtempSync(join(tmpdir(), 'dist-app-'));
    mkdirSync(join(dist, 'assets'));
    mkdirSync(join(dist, '.vite'));
    writeFileSync(join(dist, 'index.html'), BUILT);
    writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    const up = await startFakeUpstream();
    const server = createConsoleServer({
      config: testConfig({ accessToken: ACCESS_TOKEN }),
      upstream: { baseUrl: up.url, apiKey: CREDENTIAL },
      serveApp: createStaticHandler(dist, { firstScreen }),
    });
    const port = (await server.listen()).port;
    const close = async () => {
      await server.close();
      await up.close();
    };
    return { port, close };
  }

  beforeAll(async () => {
    ({ port: appPort, close: stop } = await serveBuilt());
  });
  afterAll(() => stop());

  /** The page as the browser reads it, in the coding asked for. */
  const page = async (path: string, accept = 'br, gzip') => {
    const res = await rawRequest(appPort, 'GET', path, { 'accept-encoding': accept });
    const coding = res.headers['content-encoding'];
    const html = (
      coding === 'br' ? brotliDecompressSync(res.bytes) : coding === 'gzip' ? gunzipSync(res.bytes) : res.bytes
    ).toString();
    return { res, html };
  };
  const links = (html: string, rel: string) =>
    [...html.matchAll(new RegExp(`<link rel="${rel}"[^>]*href="([^"]+)"`, 'g'))].map((m) =>
      m[1]!.replace(/&amp;/g, '&'),
    );

  it.each(['/', '/orgs/org-1/sessions', '/orgs/org-1/sessions/session-1', '/audit-logs', '/no/such/page'])(
    '%s paints the shell before any script: header, navigation, heading area, theme',
    async (path) => {
      const { res, html } = await page(path);
      expect(res.status).toBe(200);
      const body = html.slice(html.indexOf('<body>'));
      const shell = body.slice(body.indexOf('id="first-paint"'), body.indexOf('id="root"'));
      expect(shell).toContain('data-shell="static"');
      expect(shell).toMatch(/<header[^>]*class="[^"]*\bh-14\b/);
      expect(shell).toMatch(/<aside[^>]*aria-label="Main navigation"/);
      expect(shell).toContain('<main');
      expect(shell).toMatch(/role="status" aria-label="Loading the page"/);
      // The navigation of the app (src/lib/nav.ts), in its order, as links that work before the app runs.
      const nav = [...shell.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].slice(1).map((m) => [m[2], m[1]]);
      expect(nav).toEqual(ENTERPRISE_NAV.map((item) => [item.label, item.to]));
      // The theme is applied before the first paint by an inline script the page's CSP admits by its hash only.
      const theme = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
      expect(theme).toContain("localStorage.getItem('console-theme')");
      const hash = createHash('sha256').update(theme).digest('base64');
      expect(res.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}' `);
      expect(/script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))![1]).not.toContain('unsafe');
      expect(html.indexOf('<script>')).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
    },
  );

  it.each([
    ['/', ['/assets/routes-1.js', '/assets/table-1.js'], []],
    [
      '/orgs/org-1/sessions',
      ['/assets/route-1.js', '/assets/sessions-1.js', '/assets/table-1.js'],
      ['/api/v3/enterprise/organizations/org-1', '/api/v3/organizations/org-1/sessions?first=100'],
    ],
    [
      '/orgs/org-1/sessions/session-1',
      ['/assets/route-1.js', '/assets/session-1.js'],
      [
        '/api/v3/enterprise/organizations/org-1',
        '/api/v3/organizations/org-1/sessions/session-1',
        '/api/v3/organizations/org-1/sessions/session-1/insights',
        '/api/v3/organizations/org-1/sessions/session-1/messages?first=50',
        '/api/v3/enterprise/organizations/org-1/tags',
      ],
    ],
    [
      '/orgs/org-1/sessions/new',
      ['/assets/route-1.js', '/assets/new-1.js'],
      ['/api/v3/enterprise/organizations/org-1'],
    ],
    // Filters in the URL: the list is the app's to ask for; the shell's answers still start with the page.
    [
      '/orgs/org-1/sessions?status=running',
      ['/assets/route-1.js', '/assets/sessions-1.js', '/assets/table-1.js'],
      ['/api/v3/enterprise/organizations/org-1'],
    ],
    ['/audit-logs', [], []],
  ])('%s starts its chunks and its answers with the HTML', async (path, chunks, data) => {
    const { html } = await page(path);
    // Only what the entry does not load already; never another route's chunk, nor an error view's.
    expect(
      links(html, 'modulepreload')
        .filter((h) => h !== '/assets/shared-1.js' && h !== '/assets/index-1.js')
        .sort(),
    ).toEqual([...chunks].sort());
    const shell = [
      '/api/v3/enterprise/organizations?first=100',
      '/api/v3/self',
      '/console/session',
      '/api/v3/enterprise/queue',
      '/console/config',
      '/console/alerts/notifications/unread-count',
      '/console/doctor/summary',
    ];
    // The screen's own answers first (at `/`, the organizations), then the shell's, which nothing waits on.
    const own = path === '/' ? shell.slice(0, 1) : data;
    expect(links(html, 'preload')).toEqual([...own, ...shell.filter((h) => !own.includes(h))]);
    const high = html.match(/<link rel="preload"[^>]*fetchpriority="high"[^>]*>/g) ?? [];
    expect(high).toHaveLength(own.length);
    // The screen's answers ahead of the chunks (the browser's six connections go in the links' order), the
    // shell's behind them.
    const at = (needle: string) => html.indexOf(needle);
    if (own.length > 0 && chunks.length > 0) {
      expect(at('fetchpriority="high"')).toBeLessThan(at('<link rel="modulepreload"'));
      expect(at('fetchpriority="low"')).toBeGreaterThan(html.lastIndexOf('<link rel="modulepreload"'));
    }
    // As fetches the app's same-origin requests can take over (same URL, mode and credentials).
    expect(html.match(/<link rel="preload"[^>]*>/g)!.every((l) => l.includes('as="fetch" crossorigin '))).toBe(true);
  });

  it('preloads nothing from a path it would have to escape', async () => {
    const { html } = await page('/orgs/%22%3E%3Cscript%3E/sessions');
    expect(html).not.toContain('"><script>');
    expect(links(html, 'preload')).toHaveLength(7);
  });

  it('never carries the credential or the access token, in any coding', async () => {
    for (const path of ['/', '/index.html', '/orgs/org-1/sessions', `/?k=${ACCESS_TOKEN}`]) {
      for (const accept of ['br', 'gzip', 'identity']) {
        const { res, html } = await page(path, accept);
        expect(res.status).toBe(200);
        expect(html).toContain('data-shell="static"');
        for (const secret of [CREDENTIAL, ACCESS_TOKEN]) {
          expect(html).not.toContain(secret);
          expect(html).not.toContain(Buffer.from(secret).toString('base64').slice(0, 24));
        }
      }
    }
  });

  it('revalidates each hinted page by its own ETag, and keeps the build manifest private', async () => {
    const first = await page('/orgs/org-1/sessions');
    const etag = first.res.headers.etag!;
    const again = await rawRequest(appPort, 'GET', '/orgs/org-1/sessions', {
      'accept-encoding': 'br, gzip',
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    const other = await rawRequest(appPort, 'GET', '/orgs/org-2/sessions', {
      'accept-encoding': 'br, gzip',
      'if-none-match': etag,
    });
    expect(other.status).toBe(200);
    expect(first.res.headers['cache-control']).toBe('no-cache');
    expect((await rawRequest(appPort, 'GET', '/.vite/manifest.json')).status).toBe(404);
  });

  describe('with its first screen rendered on the server', () => {
    const SESSIONS = '/api/v3/organizations/org-1/sessions?first=100';
    let renderedPort: number;
    let stopRendered: () => Promise<void>;
    /** What the fake renderer is asked, and how it answers (markup and answers, or null after `delayMs`). */
    const asked: Array<{ url: string; cookie: string | undefined }> = [];
    let answer: { html: string; answers: Record<string, unknown> } | null = null;
    let delayMs = 0;

    beforeAll(async () => {
      ({ port: renderedPort, close: stopRendered } = await serveBuilt({
        async render(req, url) {
          asked.push({ url, cookie: req.headers.cookie });
          await new Promise((r) => setTimeout(r, delayMs));
          return answer;
        },
        close: async () => undefined,
      }));
    });
    afterAll(() => stopRendered());

    const get = async (path: string, accept = 'br') => {
      const res = await rawRequest(renderedPort, 'GET', path, {
        'accept-encoding': accept,
        authorization: `Bearer ${ACCESS_TOKEN}`,
        cookie: 'console_session=abc',
      });
      const coding = res.headers['content-encoding'];
      const html = (
        coding === 'br' ? brotliDecompressSync(res.bytes) : coding === 'gzip' ? gunzipSync(res.bytes) : res.bytes
      ).toString();
      return { res, html };
    };

    it('streams the painted shell, then the rendered screen in its place with the answers it was made from', async () => {
      answer = {
        html: '<div class="flex min-h-dvh"><main><h1>Sessions</h1><a href="/orgs/org-1/sessions/s-1">Fix the build</a></main></div>',
        answers: {
          [SESSIONS]: { items: [{ title: 'a </script><script>alert(1)</script> title' }] },
          '/console/config': { access_control: 'token' },
        },
      };
      delayMs = 0;
      for (const accept of ['br', 'gzip', 'identity']) {
        const { res, html } = await get('/orgs/org-1/sessions', accept);
        expect(res.status).toBe(200);
        // Asked for this page's URL, with the browser's cookie (the renderer asks the console as that browser).
        expect(asked.at(-1)).toEqual({ url: '/orgs/org-1/sessions', cookie: 'console_session=abc' });
        // It holds this browser's answers: never stored, and varying with the cookie.
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers.vary).toBe('accept-encoding, cookie');
        expect(res.headers.etag).toBeUndefined();
        // The painted shell first (what paints at once), then the rendered screen, marked and inert, then the root.
        const painted = html.indexOf('<div id="first-paint">');
        const rendered = html.indexOf(
          '<template id="first-screen"><div id="first-paint" inert><div data-shell="static" class="flex min-h-dvh"><main aria-hidden="true">',
        );
        expect(painted).toBeGreaterThan(0);
        expect(html.indexOf('role="status" aria-label="Loading the page"')).toBeGreaterThan(painted);
        expect(rendered).toBeGreaterThan(painted);
        expect(html.indexOf('Fix the build')).toBeGreaterThan(rendered);
        expect(html.indexOf('<div id="root">')).toBeGreaterThan(html.indexOf('Fix the build'));
        // The painted shell gives way by a script the page's policy admits by its hash.
        const giveWay =
          "(function () { var t = document.getElementById('first-screen'); var p = document.getElementById('first-paint'); if (!matchMedia('(min-width: 768px)').matches) { t.remove(); return; } function swap() { t.replaceWith(t.content); p.remove(); } if (performance.getEntriesByType('paint').length > 0 || document.visibilityState === 'hidden') swap(); else requestAnimationFrame(function () { setTimeout(swap, 0); }); })();";
        expect(html).toContain(`</div></template><script>${giveWay}</script>`);
        const hash = createHash('sha256').update(giveWay).digest('base64');
        expect(res.headers['content-security-policy']).toContain(`'sha256-${hash}'`);
        // The answers embedded for the app, unable to end their element; not preloaded as well.
        const block = /<script type="application\/json" id="first-answers">([\s\S]*?)<\/script>/.exec(html)!;
        expect(block[1]).not.toContain('</script>');
        expect(JSON.parse(block[1]!)).toEqual(answer.answers);
        expect(links(html, 'preload')).not.toContain(SESSIONS);
        // The scripts are asked for after it (fetching and compiling them slowed the render on a small machine).
        expect(html.indexOf('<link rel="modulepreload"')).toBeGreaterThan(html.indexOf('Fix the build'));
        expect(links(html, 'modulepreload')).toEqual([
          '/assets/index-1.js',
          '/assets/shared-1.js',
          '/assets/route-1.js',
          '/assets/sessions-1.js',
          '/assets/table-1.js',
        ]);
        // The shell's own answers are still asked for with the page, after the rendered screen, but for those
        // the page carries (what the server knows itself: its config, who is signed in).
        expect(links(html, 'preload')).toContain('/api/v3/self');
        expect(links(html, 'preload')).not.toContain('/console/config');
        expect(links(html, 'preload')).toContain('/console/session');
        expect(html.indexOf('href="/api/v3/self"')).toBeGreaterThan(html.indexOf('Fix the build'));
        for (const secret of [CREDENTIAL, ACCESS_TOKEN]) expect(html).not.toContain(secret);
      }
    });

    it('sends the head and the painted shell before the render is in', async () => {
      answer = null;
      delayMs = 400;
      const started = Date.now();
      const firstBytes = await new Promise<{ at: number; text: string }>((resolve, reject) => {
        const req = httpRequest(
          { port: renderedPort, path: '/orgs/org-1/sessions', headers: { authorization: `Bearer ${ACCESS_TOKEN}` } },
          (res) => {
            res.once('data', (chunk: Buffer) => {
              resolve({ at: Date.now() - started, text: chunk.toString() });
              res.resume();
            });
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(firstBytes.at).toBeLessThan(300);
      expect(firstBytes.text).toContain('<link rel="stylesheet"');
      expect(firstBytes.text).toContain('aria-label="Main navigation"');
      // A render that takes long does not hold the scripts back: they are asked for ahead of it.
      const { html } = await get('/orgs/org-1/sessions', 'identity');
      expect(html.indexOf('<link rel="modulepreload"')).toBeLessThan(html.indexOf('<div id="root">'));
      expect(links(html, 'modulepreload')).toContain('/assets/index-1.js');
    });

    it("keeps the painted shell, and preloads the screen's answers, when the render gives up", async () => {
      answer = null;
      delayMs = 0;
      const { res, html } = await get('/orgs/org-1/sessions');
      expect(res.status).toBe(200);
      expect(html).not.toContain('id="first-answers"');
      expect(html.match(/<div id="first-paint"/g)).toHaveLength(1);
      expect(html).toContain('role="status" aria-label="Loading the page"');
      expect(links(html, 'preload')).toEqual(expect.arrayContaining([SESSIONS, '/api/v3/self']));
    });

    it('renders only the deep links whose answers the URL names', async () => {
      answer = { html: '<div><main>RENDERED-MARKER</main></div>', answers: {} };
      delayMs = 0;
      const before = asked.length;
      for (const path of ['/audit-logs', '/orgs/org-1/sessions/new', '/no/such/page']) {
        const { html } = await get(path);
        expect(html).not.toContain('RENDERED-MARKER');
      }
      expect(asked.length).toBe(before);
      const head = await rawRequest(renderedPort, 'HEAD', '/orgs/org-1/sessions', {
        authorization: `Bearer ${ACCESS_TOKEN}`,
      });
      expect(head.status).toBe(200);
      expect(head.bytes.length).toBe(0);
    });
  });
});
