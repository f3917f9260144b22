/**
 * Every answer of the console's own endpoints goes through the redactor, whatever its status: success answers
 * carry upstream data (an IP range, a git-permission path, a revision's previous set) in which an upstream may
 * have put the credential, not only problem bodies. JSON is redacted value by value (each string decoded:
 * escapes, character references, base64, hex, compressed text), anything else byte by byte.
 */
import type { MiddlewareHandler } from 'hono';
import type { Redactor } from '../redact';

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** Registered after `compressLargeJson`, so it runs first on the way out and sees the plain body. */
export function redactAnswers(redactor: Redactor): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (!res.body || res.headers.has('content-encoding')) return;
    const bytes = Buffer.from(await res.arrayBuffer());
    let out: Buffer | string = bytes;
    if (JSON_TYPE.test(res.headers.get('content-type') ?? '')) {
      const text = bytes.toString('utf8');
      const clean = redactor.redactJson(text);
      if (clean !== text) out = clean;
    } else {
      const scanner = redactor.scanBody();
      const clean = scanner.push(bytes, true);
      if (scanner.masked > 0) out = clean;
    }
    const body = typeof out === 'string' ? Buffer.from(out, 'utf8') : out;
    c.res = new Response(new Uint8Array(body), res);
    c.res.headers.set('content-length', String(body.length));
  };
}
