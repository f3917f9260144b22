/**
 * Serving the built app: the precompressed copy the browser accepts, Vary, caching (immutable hashed assets,
 * revalidated index.html and deep links), over real HTTP; and the negotiation rules on their own.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { startFakeUpstream } from '../test/fake-upstream';
import { rawRequest, testConfig } from '../test/harness';
import { createConsoleServer } from './app';
import { negotiateEncoding, varyOnEncoding } from './encoding';
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
