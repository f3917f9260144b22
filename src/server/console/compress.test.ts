/** The console's own JSON answers: compressed when large, in the coding the browser prefers, over real HTTP. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../../test/fake-upstream';
import { rawRequest, startTestConsole } from '../../test/harness';
import { COMPRESS_MIN_BYTES } from './compress';

const SECRET = 'cog_compress_test_credential_a1b2c3';
const ORG = 'org-compress';

const perm = (i: number) => ({
  git_permission_id: `perm-${i}`,
  git_connection_id: 'conn-1',
  repo_path: `acme/repo-${i}`,
  prefix_path: null,
  group_prefix: null,
  read_only: i % 3 === 0,
  created_at: 1_700_000_000 + i,
});

let up: Awaited<ReturnType<typeof startFakeUpstream>>;
let c: Awaited<ReturnType<typeof startTestConsole>>;

beforeAll(async () => {
  up = await startFakeUpstream((r, res) => {
    const size = r.url.includes('org-small') ? 0 : 300;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        items: Array.from({ length: size }, (_, i) => perm(i)),
        end_cursor: null,
        has_next_page: false,
      }),
    );
  });
  c = await startTestConsole({ upstream: { baseUrl: up.url, apiKey: SECRET } });
});
afterAll(async () => {
  await c.close();
  await up.close();
});

const setPath = `/console/git-permissions/orgs/${ORG}`;

describe('large /console answers are compressed', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['br;q=0.1, gzip', 'gzip', gunzipSync],
  ] as const)('with Accept-Encoding %s: %s', async (accept, coding, decode) => {
    const plain = await rawRequest(c.port, 'GET', setPath);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text.length).toBeGreaterThan(20_000);

    const res = await rawRequest(c.port, 'GET', setPath, { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
    expect(res.bytes.length).toBeLessThan(plain.text.length / 5);
    const body = JSON.parse(decode(res.bytes).toString()) as { items: unknown[] };
    expect(body).toEqual(JSON.parse(plain.text));
    expect(body.items).toHaveLength(300);
  });

  it('sends it as it is to a browser that accepts neither', async () => {
    for (const accept of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await rawRequest(c.port, 'GET', setPath, { 'accept-encoding': accept });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect((JSON.parse(res.text) as { items: unknown[] }).items).toHaveLength(300);
    }
  });

  it(`leaves answers under ${COMPRESS_MIN_BYTES} bytes (and problem bodies) uncompressed`, async () => {
    const health = await rawRequest(c.port, 'GET', '/console/health', { 'accept-encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok' });
    const missing = await rawRequest(c.port, 'GET', '/console/nothing-here', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(missing.text)).toMatchObject({ status: 404 });
  });
});
