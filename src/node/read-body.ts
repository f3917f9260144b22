/**
 * Reads a request body as text with a byte limit that holds while reading, whatever the declared length
 * (chunked bodies included): past the limit it stops and answers null, so nothing larger is ever held.
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
