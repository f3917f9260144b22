/**
 * Reads a request body as text with a byte limit that holds while reading, whatever the declared length
 * (chunked bodies included): past the limit it stops and answers null, so nothing larger is ever held. And drains
 * the rest of a body that was refused part-way, so the client still reads the refusal (see drainReader).
 */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
  }
}

/** Reads a web stream as UTF-8 text, stopping (and cancelling it) past `maxBytes`. */
export async function readStreamCapped(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A request's or a response's body as text, refused at once when its declared length is over the limit. */
export async function readTextCapped(message: Request | Response, maxBytes: number): Promise<string> {
  const declared = Number(message.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await message.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(maxBytes);
  }
  return readStreamCapped(message.body, maxBytes);
}

/** How a refused body's rest was dealt with: read to its end, cut past the byte bound, or still being read. */
export type Drained = 'ended' | 'over' | 'late';

/**
 * Reads what is left of a refused body and drops it, bounded. A server that answers and closes while the client
 * is still sending makes its socket reset the connection, and the reset can overtake the answer: a proxy
 * streaming an upload then reports "reset the connection" (502) instead of the refusal. Read to its end, the
 * body leaves the connection clean and the answer arrives.
 *
 * Past `maxBytes` more bytes the body is cancelled ('over'; the connection closes with it, as for any body over
 * its limit). Past `maxMs` it answers 'late' and goes on reading in the background, within the same byte bound:
 * the refusal can be sent now (the connection stays open, so a client that reads while sending gets it) and a
 * slow sender does not hold the answer back. Nothing read is kept.
 */
export function drainReader(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  bounds: { maxBytes: number; maxMs: number },
): Promise<Drained> {
  let left = bounds.maxBytes;
  const read = async (): Promise<Drained> => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        left -= value.byteLength;
        if (left < 0) {
          await reader.cancel().catch(() => undefined);
          return 'over';
        }
      }
    } catch {
      // The client went away: nothing is left to read.
      return 'ended';
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Drained>((resolve) => {
    timer = setTimeout(() => resolve('late'), bounds.maxMs);
    timer.unref();
  });
  return Promise.race([read(), late]).finally(() => clearTimeout(timer));
}
