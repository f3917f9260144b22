/**
 * Reads a request's JSON body before the policy decides, for an operation that names its organization in the
 * body rather than the path, and leaves the body in the request intact for whoever reads it next (the proxy
 * forwarding it, or the console's endpoint): the bytes read are put back at the front of the stream before it
 * ends. Bounded: a body declared larger than the bound is not read at all, and one that grows past it is put
 * back unread; either way the organization is then unknown (the operation counts as enterprise-wide).
 */
import type { IncomingMessage } from 'node:http';

/** The most of a body read to find its organization (JSON bodies of the contract are far smaller). */
export const MAX_PEEK_BYTES = 1024 * 1024;

/** The request's body parsed as JSON, or undefined (none, too large, not JSON, cut off); the body stays readable. */
export function peekJsonBody(req: IncomingMessage, maxBytes = MAX_PEEK_BYTES): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (
    (Number.isFinite(declared) && (declared <= 0 || declared > maxBytes)) ||
    (!Number.isFinite(declared) && !chunked)
  ) {
    return Promise.resolve(undefined);
  }
  if (req.readableEnded || req.destroyed) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (value: unknown) => {
      if (settled) return;
      settled = true;
      req.off('readable', onReadable);
      req.off('close', onGone);
      req.off('error', onGone);
      // Put back what was read: the next reader gets every byte, in order.
      if (size > 0 && !req.destroyed) req.unshift(Buffer.concat(chunks, size));
      resolve(value);
    };
    const onGone = () => finish(undefined);
    const onReadable = () => {
      let chunk: Buffer | null;
      while ((chunk = req.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) return finish(undefined);
      }
      // `complete`: the whole message is in; what was read is all of the body.
      if (!req.complete) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
      } catch {
        parsed = undefined;
      }
      finish(parsed);
    };
    req.on('readable', onReadable);
    req.once('close', onGone);
    req.once('error', onGone);
  });
}
