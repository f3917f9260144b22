/**
 * A streaming reader of a `multipart/form-data` body that holds exactly one file part (the attachment upload).
 * The file's bytes go to a sink as they arrive; nothing larger than a chunk and the boundary is held in memory,
 * and the size limit holds while reading (413 as soon as it is crossed, whatever the declared length). A refused
 * body is drained (bounded) before the refusal is answered, so a proxy streaming it gets the problem, not a reset.
 */
import { HttpProblem, unprocessable } from './problem-writer';
import { drainReader, type Drained } from './read-body';

export interface FilePart {
  /** The part's name (the form field). */
  field: string;
  /** The file name the client sent, as sent (clean it before storing). */
  filename: string;
  /** The part's Content-Type, or `application/octet-stream`. */
  contentType: string;
}

export interface FileSink {
  write(chunk: Uint8Array): void | Promise<void>;
}

export interface ReadFileOptions {
  /** The one part accepted. */
  field: string;
  /** Largest file, in bytes (413 beyond). */
  maxBytes: number;
  /** Room for boundaries and part headers on top of the file. */
  envelopeBytes: number;
  /** Called once, when the file part's headers are read: where its bytes go. */
  open(part: FilePart): FileSink | Promise<FileSink>;
  /** How long a refused body's rest is read before the refusal is answered anyway (default DRAIN_MS). */
  drainMs?: number;
}

/**
 * How long the rest of a refused upload is read before the refusal is answered. On loopback (the embedded
 * sandbox behind the console's proxy) a whole 10 MiB body drains in milliseconds; a slower sender gets the answer
 * after this while its body goes on draining (see drainReader).
 */
export const DRAIN_MS = 5_000;

const MAX_HEADER_BYTES = 8 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/form-data` Content-Type, or null when it is not one. */
export function multipartBoundary(contentType: string | null | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/**
 * Drops what is left of a refused body, up to `maxBytes` and DRAIN_MS, before the refusal is answered. A body
 * that goes past the bound is cancelled, and its refusal says the connection closes.
 */
async function refuse(
  problem: unknown,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  maxMs: number,
): Promise<never> {
  let drained: Drained = 'over';
  if (maxBytes > 0) drained = await drainReader(reader, { maxBytes, maxMs });
  else await reader.cancel().catch(() => undefined);
  if (drained === 'over' && problem instanceof HttpProblem && !problem.headers.connection) {
    throw new HttpProblem(problem.status, problem.detail, problem.extra, { ...problem.headers, connection: 'close' });
  }
  throw problem;
}

function tooLarge(maxBytes: number): HttpProblem {
  return new HttpProblem(413, `The file is larger than ${maxBytes.toLocaleString('en-US')} bytes`);
}

const malformed = (msg: string) =>
  unprocessable([{ loc: ['body'], msg, type: 'multipart' }], `The multipart body could not be read: ${msg}`);

/** `name` and `filename` (or `filename*`, RFC 5987) of a Content-Disposition header. */
function dispositionParams(value: string): { name?: string; filename?: string } {
  const out: { name?: string; filename?: string } = {};
  if (!/^\s*form-data\s*(;|$)/i.test(value)) return out;
  const re = /;\s*([a-z*]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/gi;
  let star: string | undefined;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    const key = m[1]!.toLowerCase();
    let v = m[2]!.trim();
    if (v.startsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    if (key === 'name') out.name = v;
    else if (key === 'filename') out.filename = v;
    else if (key === 'filename*') {
      const ext = /^utf-8'[^']*'(.*)$/i.exec(v);
      if (ext) {
        try {
          star = decodeURIComponent(ext[1]!);
        } catch {
          // a malformed extended value: the plain filename stands
        }
      }
    }
  }
  if (star !== undefined) out.filename = star;
  return out;
}

function parseHeaders(block: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.toString('utf8').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

type ParseState = 'preamble' | 'headers' | 'body' | 'after' | 'done';

/** Where the parse of one body stands: what is buffered, the part found, and the file's bytes so far. */
interface Parse {
  opts: ReadFileOptions;
  opening: Buffer;
  delimiter: Buffer;
  buf: Buffer;
  state: ParseState;
  size: number;
  part?: FilePart;
  sink?: FileSink;
}

/** One step of the parse over what is buffered; false when it needs more bytes (or the body is done). */
function step(p: Parse): Promise<boolean> | boolean {
  switch (p.state) {
    case 'preamble':
      return openingBoundary(p);
    case 'headers':
      return partHeaders(p);
    case 'body':
      return fileBytes(p);
    case 'after':
      return afterDelimiter(p);
    case 'done':
      return false;
  }
}

function openingBoundary(p: Parse): boolean {
  const { buf, opening } = p;
  const at = buf.indexOf(opening);
  if (at === -1) {
    if (buf.length > MAX_HEADER_BYTES) throw malformed('no opening boundary');
    return false;
  }
  if (buf.length < at + opening.length + 2) return false;
  const next = buf.subarray(at + opening.length, at + opening.length + 2).toString('latin1');
  if (next === '--') throw malformed(`the body holds no part; it must hold one part named ${p.opts.field}`);
  if (next !== '\r\n') throw malformed('a boundary line must end with CRLF');
  p.buf = buf.subarray(at + opening.length + 2);
  p.state = 'headers';
  return true;
}

/** A part's headers: it must be the one file part named `opts.field`; its sink is opened. */
async function partHeaders(p: Parse): Promise<boolean> {
  const end = p.buf.indexOf(HEADER_END);
  if (end === -1) {
    if (p.buf.length > MAX_HEADER_BYTES) throw malformed('the part headers are too long');
    return false;
  }
  const headers = parseHeaders(p.buf.subarray(0, end));
  p.buf = p.buf.subarray(end + HEADER_END.length);
  p.part = filePartOf(headers, p.opts.field, p.part !== undefined);
  p.sink = await p.opts.open(p.part);
  p.state = 'body';
  return true;
}

function filePartOf(headers: Record<string, string>, field: string, seenOne: boolean): FilePart {
  const { name, filename } = dispositionParams(headers['content-disposition'] ?? '');
  if (name !== field) {
    throw unprocessable(
      [
        {
          loc: ['body', name ?? 'part'],
          msg: `unexpected part; the body holds one part named ${field}`,
          type: 'multipart',
        },
      ],
      `The body holds one part named ${field}; it also has ${name ? `a part named ${name.slice(0, 100)}` : 'an unnamed part'}`,
    );
  }
  if (seenOne) {
    throw unprocessable([
      {
        loc: ['body', field],
        msg: `one file per upload: the body holds a second ${field} part`,
        type: 'multipart',
      },
    ]);
  }
  if (filename === undefined) {
    throw unprocessable([
      {
        loc: ['body', field],
        msg: `${field} must be a file (a part with a filename)`,
        type: 'multipart',
      },
    ]);
  }
  const type = headers['content-type'];
  return {
    field: name,
    filename,
    contentType:
      type && /^[\w.+-]{1,60}\/[\w.+-]{1,60}(\s*;\s*charset=[\w-]{1,30})?$/i.test(type)
        ? type.toLowerCase()
        : 'application/octet-stream',
  };
}

/** The file's bytes up to the next delimiter, passed on to the sink within the size limit. */
async function fileBytes(p: Parse): Promise<boolean> {
  const emit = async (chunk: Buffer) => {
    if (chunk.length === 0) return;
    p.size += chunk.length;
    if (p.size > p.opts.maxBytes) throw tooLarge(p.opts.maxBytes);
    await p.sink!.write(chunk);
  };
  const at = p.buf.indexOf(p.delimiter);
  if (at === -1) {
    // Keep what could be the start of the delimiter; pass the rest on.
    const keep = Math.min(p.buf.length, p.delimiter.length - 1);
    await emit(p.buf.subarray(0, p.buf.length - keep));
    p.buf = p.buf.subarray(p.buf.length - keep);
    return false;
  }
  await emit(p.buf.subarray(0, at));
  p.buf = p.buf.subarray(at + p.delimiter.length);
  p.state = 'after';
  return true;
}

/** After a delimiter: `--` closes the body, CRLF opens another part's headers. */
function afterDelimiter(p: Parse): boolean {
  if (p.buf.length < 2) return false;
  const next = p.buf.subarray(0, 2).toString('latin1');
  if (next === '--') {
    p.state = 'done';
    return false;
  }
  if (next === '\r\n' || p.buf.subarray(0, 2).equals(CRLF)) {
    p.buf = p.buf.subarray(2);
    p.state = 'headers';
    return true;
  }
  throw malformed('a boundary line must end with CRLF or --');
}

/**
 * Reads the request's multipart body: exactly one part, named `opts.field`, carrying a file. Answers the part
 * and the file's size once the closing boundary has been read; throws an HttpProblem (413, 415, 422) otherwise,
 * having read the rest of the body within the upload's byte limit (cancelled past it). The sink may have
 * received bytes of a refused file: its owner discards them.
 */
export async function readSingleFile(
  request: Request,
  opts: ReadFileOptions,
): Promise<{ part: FilePart; size: number }> {
  const totalLimit = opts.maxBytes + opts.envelopeBytes;
  const drainMs = opts.drainMs ?? DRAIN_MS;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  // A declared length over the limit is refused unread: nothing that long is read, even to be dropped.
  if (declared > totalLimit) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(opts.maxBytes);
  }
  const boundary = multipartBoundary(request.headers.get('content-type'));
  if (!boundary) {
    const refusal = new HttpProblem(
      415,
      `Send the file as Content-Type: multipart/form-data with one part named ${opts.field}`,
    );
    if (request.body) await refuse(refusal, request.body.getReader(), totalLimit, drainMs);
    throw refusal;
  }
  const reader = request.body?.getReader();
  if (!reader) throw malformed(`the body is empty; it must hold one part named ${opts.field}`);

  const p: Parse = {
    opts,
    opening: Buffer.from(`--${boundary}`),
    delimiter: Buffer.from(`\r\n--${boundary}`),
    buf: Buffer.alloc(0),
    state: 'preamble',
    size: 0,
  };
  let total = 0;
  let ended = false;
  try {
    for (;;) {
      // Work through what is buffered; read more only when a step needs it.
      while (await step(p)) continue;
      if (p.state === 'done') break;
      if (ended) throw malformed('the body ended before its closing boundary');
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        continue;
      }
      total += value.byteLength;
      if (total > totalLimit) throw tooLarge(opts.maxBytes);
      p.buf = p.buf.length === 0 ? Buffer.from(value) : Buffer.concat([p.buf, value]);
    }
    // The epilogue after the closing boundary is ignored, but still bounded.
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > totalLimit) throw tooLarge(opts.maxBytes);
    }
  } catch (err) {
    // Past the limit nothing more is read; short of it, the rest is, so the refusal reaches the client.
    return refuse(err, reader, total > totalLimit ? 0 : totalLimit - total, drainMs);
  }
  if (!p.part) throw malformed(`the body must hold one part named ${opts.field}`);
  return { part: p.part, size: p.size };
}
