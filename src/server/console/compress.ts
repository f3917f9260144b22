/**
 * Compresses the console's own large JSON answers (a set of permissions, its history, a diff) in the coding
 * the browser prefers (Brotli, else gzip); small ones are not worth it and go as they are. Every JSON answer
 * says `Vary: Accept-Encoding`.
 */
import type { MiddlewareHandler } from 'hono';
import { compressBody, negotiateEncoding, varyOnEncoding } from '../encoding';

/** Below this size an answer goes uncompressed. */
export const COMPRESS_MIN_BYTES = 1024;

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

export function compressLargeJson(minBytes = COMPRESS_MIN_BYTES): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (
      !res.body ||
      c.req.method === 'HEAD' ||
      res.status === 204 ||
      res.status === 206 ||
      res.status === 304 ||
      res.headers.has('content-encoding') ||
      !JSON_TYPE.test(res.headers.get('content-type') ?? '') ||
      NO_TRANSFORM.test(res.headers.get('cache-control') ?? '')
    ) {
      return;
    }
    res.headers.set('vary', varyOnEncoding(res.headers.get('vary')));
    const declared = res.headers.get('content-length');
    if (declared !== null && Number(declared) < minBytes) return;
    const coding = negotiateEncoding(c.req.header('accept-encoding'), ['br', 'gzip']);
    if (coding === 'identity') return;
    const body = await res.arrayBuffer();
    if (body.byteLength < minBytes) {
      c.res = new Response(body, res);
      return;
    }
    const packed = await compressBody(Buffer.from(body), coding);
    c.res = new Response(new Uint8Array(packed), res);
    c.res.headers.set('content-encoding', coding);
    c.res.headers.set('content-length', String(packed.length));
  };
}
