/**
 * The proxy streams answers: the upstream's content coding reaches the browser unchanged (byte for byte when
 * it holds no credential), the credential is masked whatever the chunking or coding, and the Accept-Encoding
 * sent upstream is the browser's, limited to the codings the proxy can search. Over real HTTP.
 */
import { request, type ServerResponse } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../../test/fake-upstream';
import { rawRequest, startTestConsole } from '../../test/harness';

const SECRET = 'cog_stream_test_credential_0a1b2c3d4e';

let up: Awaited<ReturnType<typeof startFakeUpstream>>;
let c: Awaited<ReturnType<typeof startTestConsole>>;

beforeAll(async () => {
  up = await startFakeUpstream();
  c = await startTestConsole({ upstream: { baseUrl: up.url, apiKey: SECRET }, config: { upstreamTimeoutMs: 2_000 } });
});
afterAll(async () => {
  await c.close();
  await up.close();
});

const CODINGS = {
  gzip: { encode: gzipSync, decode: gunzipSync },
  deflate: { encode: deflateSync, decode: inflateSync },
  br: { encode: brotliCompressSync, decode: brotliDecompressSync },
} as const;

const page = (extra = '') =>
  JSON.stringify({
    items: Array.from({ length: 40 }, (_, i) => ({ org_id: `org-${i}`, name: `Organization ${i}`, note: extra })),
    end_cursor: null,
    has_next_page: false,
  });

describe('upstream content codings pass through', () => {
  it.each(Object.keys(CODINGS) as Array<keyof typeof CODINGS>)(
    'a %s answer without the credential reaches the browser byte for byte',
    async (coding) => {
      const body = CODINGS[coding].encode(page());
      up.respondWith((_r, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding, vary: 'accept-encoding' })
          .end(body),
      );
      const res = await rawRequest(c.port, 'GET', '/api/v3/enterprise/organizations', {
        'accept-encoding': 'gzip, deflate, br, zstd',
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toBe('accept-encoding');
      expect(Number(res.headers['content-length'])).toBe(body.length);
      expect(res.bytes.equals(body)).toBe(true);
    },
  );

  it.each(Object.keys(CODINGS) as Array<keyof typeof CODINGS>)(
    'a %s answer holding the credential keeps its coding and loses the credential',
    async (coding) => {
      up.respondWith((r, res) => {
        const key = String(r.headers.authorization).slice('Bearer '.length);
        const text = page(`${key} ${Buffer.from(key).toString('base64')}`);
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding })
          .end(CODINGS[coding].encode(text));
      });
      const res = await rawRequest(c.port, 'GET', '/api/v3/enterprise/organizations', { 'accept-encoding': coding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
      const text = CODINGS[coding].decode(res.bytes).toString();
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(Buffer.from(SECRET).toString('base64').slice(4, 30));
      expect(text).toContain('[redacted]');
      expect((JSON.parse(text) as { items: unknown[] }).items).toHaveLength(40);
    },
  );

  it('refuses a coding it cannot search (502), and a compressed answer that decodes past its bound', async () => {
    up.respondWith((_r, res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' }).end('(zstd bytes)'),
    );
    const zstd = await rawRequest(c.port, 'GET', '/api/v3/self', { 'accept-encoding': 'zstd' });
    expect(zstd.status).toBe(502);
    expect(zstd.text).not.toContain('zstd bytes');

    const bomb = gzipSync(Buffer.alloc(20 * 1_048_576, 0x20));
    up.respondWith((_r, res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb),
    );
    const res = await rawRequest(c.port, 'GET', '/api/v3/self', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(502);
  });

  it('decodes an answer in a coding the browser did not offer', async () => {
    const text = page();
    up.respondWith((_r, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' })
        .end(brotliCompressSync(text)),
    );
    for (const accept of [undefined, 'gzip']) {
      const res = await rawRequest(c.port, 'GET', '/api/v3/self', accept ? { 'accept-encoding': accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.text).toBe(text);
    }
  });

  it.each([
    ['gzip, deflate, br, zstd', 'gzip, deflate, br'],
    ['br;q=0, gzip', 'gzip'],
    ['zstd', 'identity'],
    [undefined, 'identity'],
  ])('sends Accept-Encoding %s upstream as %s', async (browser, sent) => {
    up.respondWith((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    await rawRequest(c.port, 'GET', '/api/v3/self', browser === undefined ? {} : { 'accept-encoding': browser });
    expect(up.received.at(-1)!.headers['accept-encoding']).toBe(sent);
  });
});

/** Answers `text` in pieces of `size` bytes, a few milliseconds apart; with its length, or chunked. */
function trickle(text: string, size: number, withLength: boolean) {
  up.respondWith((r, res) => {
    const key = String(r.headers.authorization).slice('Bearer '.length);
    const body = Buffer.from(text.replaceAll('KEY', key));
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(withLength ? { 'content-length': String(body.length) } : {}),
    });
    let at = 0;
    const next = () => {
      if (at >= body.length) {
        res.end();
        return;
      }
      res.write(body.subarray(at, at + size));
      at += size;
      setTimeout(next, 2);
    };
    next();
  });
}

describe('identity answers are streamed', () => {
  it.each([
    [7, true],
    [13, false],
    [100, true],
  ])('masks copies split across %i-byte pieces (length given: %s), keeping the length', async (size, withLength) => {
    const text = `{"a":"KEY","b":"${'x'.repeat(90)}","c":"KEY","d":"\\u0063og_${'y'.repeat(10)}"}`;
    trickle(text, size, withLength);
    const res = await rawRequest(c.port, 'GET', '/api/v3/self');
    expect(res.status).toBe(200);
    const expected = text.replaceAll('KEY', SECRET);
    expect(res.bytes.length).toBe(Buffer.byteLength(expected));
    if (withLength) expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
    else expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.text).not.toContain(SECRET);
    const body = JSON.parse(res.text) as Record<string, string>;
    expect(body.a).toMatch(/^\[redacted\]\*+$/);
    expect(body.c).toBe(body.a);
    expect(body.b).toBe('x'.repeat(90));
    expect(body.d).toBe(`cog_${'y'.repeat(10)}`);
  });

  it('streams a large answer through without a size limit, masking a copy at its end', async () => {
    const filler = 'z'.repeat(20 * 1_048_576);
    up.respondWith((r, res) => {
      const key = String(r.headers.authorization).slice('Bearer '.length);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"filler":"${filler}","key":"${key}"}`);
    });
    const res = await rawRequest(c.port, 'GET', '/api/v3/self');
    expect(res.status).toBe(200);
    expect(res.bytes.length).toBe(filler.length + SECRET.length + 22);
    expect(res.bytes.includes(SECRET)).toBe(false);
    expect(res.bytes.subarray(-SECRET.length - 2).toString()).toMatch(/^\[redacted\]\*+"\}$/);
  });

  it('cuts the browser off when the upstream breaks mid-answer (no truncated 200 that looks whole)', async () => {
    up.respondWith((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write(`{"items":[${'1,'.repeat(200)}`);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const outcome = await new Promise<string>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: c.port, path: '/api/v3/self', headers: { host: `localhost:${c.port}` } },
        (res) => {
          let got = 0;
          res.on('data', (d: Buffer) => (got += d.length));
          res.on('end', () => resolve(`ended after ${got} of ${res.headers['content-length']}`));
          res.on('error', () => resolve('cut off'));
          res.on('aborted', () => resolve('cut off'));
        },
      );
      req.on('error', () => resolve('cut off'));
      req.end();
    });
    expect(outcome).toBe('cut off');
  });
});

describe('the connection is given back', () => {
  it('after every kind of answer, so a one-connection console keeps answering', async () => {
    const one = await startTestConsole({
      upstream: { baseUrl: up.url, apiKey: SECRET },
      config: { maxUpstreamConnections: 1, maxUpstreamPerClient: 1, upstreamTimeoutMs: 1_000 },
    });
    try {
      const kinds = [
        (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
        (res: ServerResponse) =>
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{}')),
        (res: ServerResponse) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"a":');
          setTimeout(() => res.end('1}'), 5);
        },
        (res: ServerResponse) => res.writeHead(204).end(),
        (res: ServerResponse) => res.destroy(),
      ];
      for (let round = 0; round < 3; round++) {
        for (const kind of kinds) {
          up.respondWith((_r, res) => kind(res));
          const t0 = Date.now();
          const res = await rawRequest(one.port, 'GET', '/api/v3/self');
          expect([200, 204, 502]).toContain(res.status);
          expect(Date.now() - t0).toBeLessThan(500);
        }
      }
    } finally {
      await one.close();
    }
  });
});
