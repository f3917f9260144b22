/**
 * The streaming multipart reader: any chunking, the limit while reading, the one-file-part rule, and the rest of a
 * refused body drained within its bounds.
 */
import { describe, expect, it, vi } from 'vitest';
import { HttpProblem } from './problem-writer';
import { multipartBoundary, readSingleFile } from './multipart';

const B = 'XyZ-boundary';

function request(body: Buffer, chunk: number, type = `multipart/form-data; boundary=${B}`): Request {
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= body.length) return c.close();
      c.enqueue(body.subarray(at, at + chunk));
      at += chunk;
    },
  });
  return new Request('http://x/', {
    method: 'POST',
    body: stream,
    headers: { 'content-type': type },
    duplex: 'half',
  } as RequestInit);
}

const part = (headers: string, data: Buffer | string) =>
  Buffer.concat([Buffer.from(`--${B}\r\n${headers}\r\n\r\n`), Buffer.from(data)]);
const file = (data: Buffer | string, name = 'a.txt') =>
  Buffer.concat([
    Buffer.from('preamble to ignore\r\n'),
    part(`Content-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain`, data),
    Buffer.from(`\r\n--${B}--\r\nepilogue`),
  ]);

async function read(body: Buffer, chunk: number, maxBytes = 1000) {
  const got: Buffer[] = [];
  const r = await readSingleFile(request(body, chunk), {
    field: 'file',
    maxBytes,
    envelopeBytes: 500,
    open: () => ({ write: (c) => void got.push(Buffer.from(c)) }),
  });
  return { ...r, bytes: Buffer.concat(got) };
}

describe('readSingleFile', () => {
  // Data that starts like the delimiter without being one (the rest of the boundary differs), at every chunking.
  const tricky = Buffer.from(`line\r\n--${B.slice(0, 5)}\r\n-\r\n--${B.slice(0, -1)}\r\n\r\n-\r\nend\r\n`);
  it.each([1, 2, 3, 7, 64, 4096])('reads the file whole with %i-byte chunks', async (chunk) => {
    const r = await read(file(tricky), chunk);
    expect(r.bytes.equals(tricky)).toBe(true);
    expect(r.size).toBe(tricky.length);
    expect(r.part).toEqual({ field: 'file', filename: 'a.txt', contentType: 'text/plain' });
  });

  it('reads filename* (RFC 5987) over filename', async () => {
    const body = Buffer.concat([
      part(
        `Content-Disposition: form-data; name="file"; filename="fallback.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
        'x',
      ),
      Buffer.from(`\r\n--${B}--\r\n`),
    ]);
    expect((await read(body, 5)).part.filename).toBe('résumé.txt');
  });

  it('stops at the limit while reading (413), whatever the chunking', async () => {
    await expect(read(file(Buffer.alloc(1001)), 100)).rejects.toMatchObject({ status: 413 });
    await expect(read(file(Buffer.alloc(1000)), 100)).resolves.toMatchObject({ size: 1000 });
  });

  it.each([
    ['a truncated body', Buffer.concat([part('Content-Disposition: form-data; name="file"; filename="a"', 'x')])],
    ['no part', Buffer.from(`--${B}--\r\n`)],
    [
      'a part without a file name',
      Buffer.concat([part('Content-Disposition: form-data; name="file"', 'x'), Buffer.from(`\r\n--${B}--`)]),
    ],
    [
      'another part',
      Buffer.concat([
        part('Content-Disposition: form-data; name="other"; filename="a"', 'x'),
        Buffer.from(`\r\n--${B}--`),
      ]),
    ],
    [
      'two file parts',
      Buffer.concat([
        part('Content-Disposition: form-data; name="file"; filename="a"', 'x'),
        Buffer.from('\r\n'),
        part('Content-Disposition: form-data; name="file"; filename="b"', 'y'),
        Buffer.from(`\r\n--${B}--`),
      ]),
    ],
  ])('refuses %s (422)', async (_name, body) => {
    const err = await read(body, 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpProblem);
    expect((err as HttpProblem).status).toBe(422);
  });

  it('refuses a body that is not multipart (415)', async () => {
    const err = await readSingleFile(request(Buffer.from('{}'), 10, 'application/json'), {
      field: 'file',
      maxBytes: 10,
      envelopeBytes: 10,
      open: () => ({ write: () => undefined }),
    }).catch((e: unknown) => e);
    expect((err as HttpProblem).status).toBe(415);
  });

  // A proxy streaming the body is reset when the refusal comes with the body unread: the rest is read first.
  describe('the rest of a refused body', () => {
    /** A body sent in `chunk`-byte pieces that records how much was read and whether it was cancelled. */
    function watched(body: Buffer, chunk: number, stallAt = Infinity) {
      const seen = { read: 0, cancelled: false, resume: () => undefined as void };
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(c) {
          if (at >= stallAt) {
            await new Promise<void>((r) => (seen.resume = r));
            stallAt = Infinity;
          }
          if (at >= body.length) return c.close();
          const piece = body.subarray(at, at + chunk);
          at += piece.length;
          seen.read = at;
          c.enqueue(piece);
        },
        cancel() {
          seen.cancelled = true;
        },
      });
      const req = new Request('http://x/', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': `multipart/form-data; boundary=${B}` },
        duplex: 'half',
      } as RequestInit);
      return { req, seen };
    }
    const opts = (drainMs = 5_000) => ({
      field: 'file',
      maxBytes: 1000,
      envelopeBytes: 500,
      drainMs,
      open: () => ({ write: () => undefined }),
    });
    const wrongPart = (size: number) =>
      Buffer.concat([
        part('Content-Disposition: form-data; name="other"; filename="a"', Buffer.alloc(size, 0x61)),
        Buffer.from(`\r\n--${B}--\r\n`),
      ]);

    it('is read to its end, not cancelled, before the refusal is answered', async () => {
      const body = wrongPart(1200);
      const { req, seen } = watched(body, 64);
      const err = await readSingleFile(req, opts()).catch((e: unknown) => e);
      expect((err as HttpProblem).status).toBe(422);
      expect(seen).toMatchObject({ read: body.length, cancelled: false });
      expect((err as HttpProblem).headers.connection).toBeUndefined();

      const notMultipart = watched(body, 64);
      const refused = await readSingleFile(
        new Request(notMultipart.req, { headers: { 'content-type': 'text/plain' } }),
        opts(),
      ).catch((e: unknown) => e);
      expect((refused as HttpProblem).status).toBe(415);
      expect(notMultipart.seen).toMatchObject({ read: body.length, cancelled: false });
    });

    it('is read no further than the upload’s limit: past it, cancelled, and the connection closes', async () => {
      const { req, seen } = watched(wrongPart(5000), 100);
      const err = await readSingleFile(req, opts()).catch((e: unknown) => e);
      expect((err as HttpProblem).status).toBe(422);
      expect(seen.cancelled).toBe(true);
      expect(seen.read).toBeLessThanOrEqual(1500 + 100);
      expect((err as HttpProblem).headers.connection).toBe('close');
    });

    it('from a stalled sender: the refusal is answered after the time bound, the rest still read', async () => {
      const body = wrongPart(800);
      const { req, seen } = watched(body, 64, 256);
      const started = Date.now();
      const err = await readSingleFile(req, opts(50)).catch((e: unknown) => e);
      expect((err as HttpProblem).status).toBe(422);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(seen).toMatchObject({ read: 256, cancelled: false });
      seen.resume();
      await vi.waitFor(() => expect(seen.read).toBe(body.length));
      expect(seen.cancelled).toBe(false);
    });
  });

  it('reads the boundary of a Content-Type, quoted or not', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary('multipart/form-data')).toBeNull();
  });
});
