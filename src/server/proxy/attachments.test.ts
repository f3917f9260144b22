/**
 * Attachments through the console's proxy, over real HTTP: a multipart upload is streamed to the API (bytes
 * reach it before the browser has sent them all), cut off at the size limit while streaming (413), a malformed
 * one answered with the API's 4xx problem (never a reset connection), and admitted on the upload path only; a
 * download follows the API's redirect itself, without the credential, so the browser gets the file
 * byte-identical from the console and the signed URL's host never sees the credential.
 */
import { randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS } from '../../api/operations/attachments';
import { startFakeUpstream } from '../../test/fake-upstream';
import { rawRequest, startTestConsole } from '../../test/harness';
import { MAX_UPLOAD_BYTES } from './forward';

const SECRET = 'cog_attachments_proxy_credential_77aa';

function multipart(name: string, bytes: Buffer, boundary = 'test-boundary-0123') {
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
    whole() {
      return Buffer.concat([this.head, bytes, this.tail]);
    },
  };
}

/** A raw POST whose body is written by `write` (chunked unless a length is given). */
function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  write: (req: ReturnType<typeof request>) => Promise<void> | void,
) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path, headers: { host: `localhost:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', (err) =>
      String(err).includes('EPIPE') || String(err).includes('ECONNRESET') ? undefined : reject(err),
    );
    void Promise.resolve(write(req)).catch(reject);
  });
}

describe('with the sandbox behind the proxy', () => {
  let c: Awaited<ReturnType<typeof startTestConsole>>;
  let orgId: string;
  let origin: Record<string, string>;
  beforeAll(async () => {
    c = await startTestConsole({ sandbox: { tickMs: 60_000 } });
    origin = { origin: `http://localhost:${c.port}`, 'sec-fetch-site': 'same-origin' };
    orgId = (await c.api.call('GET', '/api/v3/enterprise/organizations?first=1', { headers: origin })).body.items[0]
      .org_id;
  });
  afterAll(() => c.close());

  it('streams an upload through and downloads it byte-identical, as a file, without a redirect', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'trace.bin');
    const up = await fetch(`${c.url}/api/v3/organizations/${orgId}/attachments`, {
      method: 'POST',
      headers: origin,
      body: form,
    });
    expect(up.status).toBe(200);
    const { url, name } = (await up.json()) as { url: string; name: string };
    expect(name).toBe('trace.bin');
    const down = await fetch(`${c.url}/api${new URL(url).pathname}`, { headers: origin, redirect: 'manual' });
    expect(down.status).toBe(200);
    expect(down.headers.get('location')).toBeNull();
    expect(down.headers.get('content-disposition')).toMatch(/^attachment; filename="trace.bin"/);
    expect(down.headers.get('x-content-type-options')).toBe('nosniff');
    expect(down.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(Buffer.from(await down.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers 413 to an upload over the limit, declared or found while streaming', async () => {
    const path = `/api/v3/organizations/${orgId}/attachments`;
    const declared = await rawRequest(c.port, 'POST', path, {
      ...origin,
      'content-type': 'multipart/form-data; boundary=b',
      'content-length': String(MAX_UPLOAD_BYTES + 1),
    });
    expect(declared.status).toBe(413);
    const body = multipart('big.bin', Buffer.alloc(0));
    const chunk = Buffer.alloc(512 * 1024, 0x62);
    const streamed = await post(c.port, path, { ...origin, 'content-type': body.type }, async (req) => {
      req.write(body.head);
      for (
        let sent = 0;
        sent <= ATTACHMENT_LIMITS.maxBytes + 2 * chunk.length && !req.destroyed;
        sent += chunk.length
      ) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r).once('close', r));
      }
      req.end(body.tail);
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.text).detail).toMatch(/larger than/);
  });

  // The sandbox used to answer a refusal and close with the body half read: the reset overtook the answer, and the
  // proxy, still streaming the upload, reported "reset the connection" (502) about one time in two.
  it('answers a malformed upload with the sandbox’s problem (4xx), never a reset connection (502)', async () => {
    const path = `/api/v3/organizations/${orgId}/attachments`;
    const rest = Buffer.alloc(1024 * 1024, 0x61);
    const disposition = (params: string) =>
      Buffer.from(`--bb\r\nContent-Disposition: form-data; ${params}\r\nContent-Type: text/plain\r\n\r\n`);
    const cases: Array<[string, string, Buffer, number, RegExp]> = [
      [
        'another part',
        'multipart/form-data; boundary=bb',
        disposition('name="other"; filename="a.txt"'),
        422,
        /part named other/,
      ],
      [
        'a NUL in the name',
        'multipart/form-data; boundary=bb',
        disposition(`name="file"; filename*=UTF-8''a%00b.txt`),
        422,
        /^File name contains a NUL/,
      ],
      [
        'a right-to-left override',
        'multipart/form-data; boundary=bb',
        disposition(`name="file"; filename*=UTF-8''a%E2%80%AEtxt.exe`),
        422,
        /right-to-left override/,
      ],
      [
        'no boundary',
        'multipart/form-data; charset=utf-8',
        disposition('name="file"; filename="a.txt"'),
        415,
        /multipart\/form-data/,
      ],
    ];
    for (const [what, type, head, status, detail] of cases) {
      for (const chunked of [true, false]) {
        const body = Buffer.concat([head, rest, Buffer.from('\r\n--bb--\r\n')]);
        const res = await post(
          c.port,
          path,
          { ...origin, 'content-type': type, ...(chunked ? {} : { 'content-length': String(body.length) }) },
          (req) => void req.end(body),
        );
        expect(res.status, `${what}, ${chunked ? 'chunked' : 'with a length'}: ${res.text}`).toBe(status);
        expect(JSON.parse(res.text).detail).toMatch(detail);
      }
    }
  });

  it('admits multipart on the upload path only; every other rule stays', async () => {
    const body = multipart('a.txt', Buffer.from('hello')).whole().toString('latin1');
    const type = 'multipart/form-data; boundary=test-boundary-0123';
    const send = (method: string, path: string, headers: Record<string, string> = origin) =>
      rawRequest(c.port, method, path, { ...headers, 'content-type': type }, body);
    for (const path of [
      `/api/v3/organizations/${orgId}/sessions`,
      `/api/v3/organizations/${orgId}/attachments?x=1`,
      `/api/v3/organizations/${orgId}/attachments/`,
      `/api/v3beta1/organizations/${orgId}/attachments`,
      `/api/v3/organizations/${orgId}/secrets`,
      '/console/health',
    ]) {
      expect((await send('POST', path)).status, path).toBe(415);
    }
    expect((await send('PUT', `/api/v3/organizations/${orgId}/attachments`)).status).toBe(415);
    expect((await send('POST', `/api/v3/organizations/${orgId}/attachments`)).status).toBe(200);
    // A form of another site: refused by the cross-site rules before anything else.
    const foreign = await send('POST', `/api/v3/organizations/${orgId}/attachments`, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(foreign.status).toBe(403);
    // Without an Origin, Sec-Fetch-Site or Authorization, a multipart body says nothing about where it comes from.
    const anonymous = await send('POST', `/api/v3/organizations/${orgId}/attachments`, {});
    expect(anonymous.status).toBe(403);
    // text/plain and url-encoded forms stay refused on the upload path too.
    for (const other of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await rawRequest(
        c.port,
        'POST',
        `/api/v3/organizations/${orgId}/attachments`,
        { ...origin, 'content-type': other },
        'file=x',
      );
      expect(res.status).toBe(415);
    }
  });
});

describe('with a real upstream and a storage host of its own', () => {
  let up: Awaited<ReturnType<typeof startFakeUpstream>>;
  let c: Awaited<ReturnType<typeof startTestConsole>>;
  let storage: Server;
  let storagePort: number;
  const seen: IncomingMessage['headers'][] = [];
  const file = randomBytes(200_000);
  let storageAnswer: (req: IncomingMessage, res: ServerResponse) => void;

  beforeAll(async () => {
    storage = createServer((req, res) => {
      seen.push(req.headers);
      storageAnswer(req, res);
    });
    await new Promise<void>((r) => storage.listen(0, '127.0.0.1', r));
    storagePort = (storage.address() as AddressInfo).port;
    up = await startFakeUpstream();
    c = await startTestConsole({ upstream: { baseUrl: up.url, apiKey: SECRET }, config: { upstreamTimeoutMs: 3_000 } });
  });
  afterAll(async () => {
    await c.close();
    await up.close();
    await new Promise<void>((r) => storage.close(() => r()));
  });

  const downloadPath =
    '/api/v3/organizations/org-1/attachments/0b5c1f4e-1111-4222-a333-444455556666/r%C3%A9sum%C3%A9.pdf';
  const headers = { cookie: 'console_session=abc', origin: 'http://localhost', 'sec-fetch-site': 'same-origin' };

  it('follows the redirect itself without the credential and hands the browser the file', async () => {
    seen.length = 0;
    storageAnswer = (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(file.length) }).end(file);
    up.respondWith((_r, res) =>
      res.writeHead(302, { location: `http://127.0.0.1:${storagePort}/signed/abc?sig=1` }).end(),
    );
    const res = await rawRequest(c.port, 'GET', downloadPath, { ...headers, origin: `http://localhost:${c.port}` });
    expect(res.status).toBe(200);
    expect(res.bytes.equals(file)).toBe(true);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="r_sum_.pdf"; filename*=UTF-8''${encodeURIComponent('résumé.pdf')}`,
    );
    expect(up.received.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.authorization).toBeUndefined();
    expect(seen[0]!.cookie).toBeUndefined();
    expect(seen[0]!.origin).toBeUndefined();
    expect(JSON.stringify(seen[0])).not.toContain(SECRET);
  });

  it('follows a storage host’s own redirect, still without the credential, up to a bound', async () => {
    seen.length = 0;
    let hops = 0;
    storageAnswer = (req, res) => {
      if (req.url === '/final') res.writeHead(200, { 'content-type': 'application/pdf' }).end(file);
      else res.writeHead(307, { location: hops++ === 0 ? '/final' : '/again' }).end();
    };
    up.respondWith((_r, res) => res.writeHead(302, { location: `http://127.0.0.1:${storagePort}/first` }).end());
    const ok = await rawRequest(c.port, 'GET', downloadPath, { ...headers, origin: `http://localhost:${c.port}` });
    expect(ok.status).toBe(200);
    expect(ok.bytes.equals(file)).toBe(true);
    expect(seen.every((h) => h.authorization === undefined)).toBe(true);

    storageAnswer = (_req, res) => res.writeHead(302, { location: '/loop' }).end();
    const loop = await rawRequest(c.port, 'GET', downloadPath, { ...headers, origin: `http://localhost:${c.port}` });
    expect(loop.status).toBe(502);
    expect(loop.text).toMatch(/redirected too many times/);
  });

  it.each([
    ['file:///etc/passwd', /file:/],
    ['ftp://files.example/x', /ftp:/],
    ['http://user:pw@127.0.0.1:1/x', /user information/],
  ])('refuses to follow a redirect to %s (502), and never passes it on', async (location, why) => {
    up.respondWith((_r, res) => res.writeHead(302, { location }).end());
    const res = await rawRequest(c.port, 'GET', downloadPath, { ...headers, origin: `http://localhost:${c.port}` });
    expect(res.status).toBe(502);
    expect(res.text).toMatch(why);
    expect(res.headers.location).toBeUndefined();
  });

  it('passes a signed URL’s refusal on, and other paths’ redirects to the browser as before', async () => {
    storageAnswer = (_req, res) =>
      res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error>Request has expired</Error>');
    up.respondWith((_r, res) => res.writeHead(302, { location: `http://127.0.0.1:${storagePort}/x` }).end());
    const expired = await rawRequest(c.port, 'GET', downloadPath, { ...headers, origin: `http://localhost:${c.port}` });
    expect(expired.status).toBe(403);
    expect(expired.headers['content-disposition']).toBeUndefined();

    up.respondWith((_r, res) => res.writeHead(302, { location: 'https://elsewhere.example/' }).end());
    const other = await rawRequest(c.port, 'GET', '/api/v3/organizations/org-1/sessions', {
      ...headers,
      origin: `http://localhost:${c.port}`,
    });
    expect(other.status).toBe(302);
    expect(other.headers.location).toBe('https://elsewhere.example/');
  });

  it('streams the upload: the API has its first bytes before the browser has sent the rest', async () => {
    let firstBytes!: () => void;
    const arrived = new Promise<void>((r) => (firstBytes = r));
    let received = 0;
    const api = createServer((req, res) => {
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        firstBytes();
      });
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received })));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    const streaming = await startTestConsole({
      upstream: { baseUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}`, apiKey: SECRET },
      config: { upstreamTimeoutMs: 5_000 },
    });
    try {
      const body = multipart('slow.bin', Buffer.alloc(0));
      const part = Buffer.alloc(256 * 1024, 0x63);
      const res = await post(
        streaming.port,
        '/api/v3/organizations/org-1/attachments',
        { origin: `http://localhost:${streaming.port}`, 'content-type': body.type },
        async (req) => {
          req.write(body.head);
          req.write(part);
          // Nothing more is sent until the API has seen bytes: a proxy that buffered the body would wait forever.
          await arrived;
          req.write(part);
          req.end(body.tail);
        },
      );
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).received).toBe(body.head.length + 2 * part.length + body.tail.length);
    } finally {
      await streaming.close();
      await new Promise<void>((r) => api.close(() => r()));
    }
  });
});
