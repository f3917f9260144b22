/**
 * Reads a request's JSON body before the policy decides, for an operation that names its organization in the
 * body rather than the path, and leaves the body in the request intact for whoever reads it next (the proxy
 * forwarding it, or the console's endpoint): the bytes read are put back at the front of the stream before it
 * ends. Bounded: a body declared larger than the bound is not read at all, and one that grows past it is put
 * back unread; either way the organization is then unknown (the operation counts as enterprise-wide), and a role
 * it would grant cannot be checked (the request is refused).
 */
import type { IncomingMessage } from 'node:http';

/** The most of a body read to find its organization (JSON bodies of the contract are far smaller). */
export const MAX_PEEK_BYTES = 1024 * 1024;

/**
 * What a request's body is, read up to `maxBytes` and left readable: none (no length and not chunked, or a length
 * of 0), JSON (parsed), or unreadable (too large, not JSON, cut off, the request gone). A check that must see the
 * body (a role it grants) refuses an unreadable one rather than guess.
 */
export type PeekedBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'unreadable' };

export function peekBody(req: IncomingMessage, maxBytes = MAX_PEEK_BYTES): Promise<PeekedBody> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (declared === 0 || !Number.isFinite(declared))) return Promise.resolve({ kind: 'none' });
  if (Number.isFinite(declared) && (declared < 0 || declared > maxBytes)) {
    return Promise.resolve({ kind: 'unreadable' });
  }
  if (req.readableEnded || req.destroyed) return Promise.resolve({ kind: 'unreadable' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (value: PeekedBody) => {
      if (settled) return;
      settled = true;
      req.off('readable', onReadable);
      req.off('close', onGone);
      req.off('error', onGone);
      // Put back what was read: the next reader gets every byte, in order.
      if (size > 0 && !req.destroyed) req.unshift(Buffer.concat(chunks, size));
      resolve(value);
    };
    const onGone = () => finish({ kind: 'unreadable' });
    const onReadable = () => {
      let chunk: Buffer | null;
      while ((chunk = req.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) return finish({ kind: 'unreadable' });
      }
      // `complete`: the whole message is in; what was read is all of the body.
      if (!req.complete) return;
      if (size === 0) return finish({ kind: 'none' });
      try {
        finish({ kind: 'json', value: JSON.parse(Buffer.concat(chunks, size).toString('utf8')) as unknown });
      } catch {
        finish({ kind: 'unreadable' });
      }
    };
    req.on('readable', onReadable);
    req.once('close', onGone);
    req.once('error', onGone);
  });
}

/** The request's body parsed as JSON, or undefined (none, too large, not JSON, cut off); the body stays readable. */
export async function peekJsonBody(req: IncomingMessage, maxBytes = MAX_PEEK_BYTES): Promise<unknown> {
  const body = await peekBody(req, maxBytes);
  return body.kind === 'json' ? body.value : undefined;
}
