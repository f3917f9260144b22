/**
 * Records one write made through the console (proxied or the console's own endpoint) once its answer is sent:
 * who, the operation, its organization, the ids it touched (path parameters, and the created resource's id
 * read from a JSON answer) and the outcome. Bodies are never stored: of the answer only `…_id`/`id` fields are
 * read, and none whose name suggests a secret.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Principal } from '../actor';
import type { MatchedOperation } from '../../policy/operations';
import type { ActivityOutcome, ActivityStore } from './store';

/** The answer is looked at up to this many bytes (the ids of a created resource come first in practice). */
const MAX_ANSWER_BYTES = 64 * 1024;
const MAX_IDS = 12;
/** A compressed answer is read back to at most this many bytes (a small created resource is far below it). */
const MAX_DECODED_BYTES = 1024 * 1024;

/**
 * The answer's text as the browser reads it: a whole answer the console compressed (as it does for every browser
 * that accepts it) is decoded, bounded; anything else unreadable gives no text.
 */
function answerText(body: Buffer, encoding: string): string | undefined {
  const opts = { maxOutputLength: MAX_DECODED_BYTES };
  try {
    if (!encoding || encoding === 'identity') return body.toString('utf8');
    if (encoding === 'gzip') return gunzipSync(body, opts).toString('utf8');
    if (encoding === 'br') return brotliDecompressSync(body, opts).toString('utf8');
    if (encoding === 'deflate') return inflateSync(body, opts).toString('utf8');
  } catch {
    // Cut or damaged: the path's ids only.
  }
  return undefined;
}
const MAX_ID_LENGTH = 256;
const SECRET_NAME = /secret|token|key|password|credential|cookie/i;

export const isWrite = (method: string | undefined) =>
  method !== undefined && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/** The ids a JSON answer names at its top level (`id`, `…_id`), bounded. */
export function idsOfAnswer(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (Object.keys(out).length >= MAX_IDS) break;
    if (!(k === 'id' || k.endsWith('_id')) || SECRET_NAME.test(k)) continue;
    if ((typeof v === 'string' && v.length <= MAX_ID_LENGTH) || typeof v === 'number') out[k] = String(v);
  }
  return out;
}

export const outcomeOf = (status: number): ActivityOutcome => (status < 400 ? 'succeeded' : 'failed');

export interface WriteContext {
  principal: Principal;
  op: MatchedOperation | undefined;
  grant: string | null;
  path: string;
}

function entryOf(ctx: WriteContext, method: string, at: number, status: number, ids: Record<string, string>) {
  const p = ctx.principal;
  return {
    at,
    subject: p.subject,
    name: p.name,
    email: p.email,
    method: p.method,
    grant: ctx.grant,
    operation_id: ctx.op?.id ?? `${method} ${ctx.path}`.slice(0, 300),
    http_method: method,
    path: ctx.path,
    org_id: ctx.op?.org ?? null,
    ids: { ...(ctx.op?.params ?? {}), ...ids },
    status,
  };
}

/** A write the policy refused (nothing was sent on). */
export async function recordRefused(
  store: ActivityStore,
  ctx: WriteContext,
  method: string,
  at: number,
): Promise<void> {
  await store.record({ ...entryOf(ctx, method, at, 403, {}), outcome: 'refused' });
}

/** Records the write once its answer has been sent (or cut); its JSON answer is read for a created id. */
export function recordWhenAnswered(
  store: ActivityStore,
  req: IncomingMessage,
  res: ServerResponse,
  ctx: WriteContext,
  now: () => number,
  onError: (err: unknown) => void,
): void {
  const method = req.method ?? 'POST';
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (size >= MAX_ANSWER_BYTES || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.isBuffer(chunk)
          ? chunk
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk)
            : undefined;
    if (!buf) return;
    chunks.push(buf.subarray(0, MAX_ANSWER_BYTES - size));
    size += buf.length;
  };
  // Headers given to writeHead (as the proxy gives them) are not readable through getHeader afterwards.
  const given: Record<string, string> = {};
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const headers = args.find((a) => a !== null && typeof a === 'object');
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) given[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    } else if (headers) {
      for (const [k, v] of Object.entries(headers)) given[k.toLowerCase()] = String(v);
    }
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
  const header = (name: string) => String(res.getHeader(name) ?? given[name] ?? '');
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as ServerResponse['end'];
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    const status = res.statusCode;
    const type = header('content-type');
    // A cut answer is not read: its ids are the path's only. A compressed one is decoded first.
    const text =
      status < 400 && size < MAX_ANSWER_BYTES && /json/i.test(type)
        ? answerText(Buffer.concat(chunks), header('content-encoding').toLowerCase())
        : undefined;
    const ids = text === undefined ? {} : idsOfAnswer(text);
    store
      .record({
        ...entryOf(ctx, method, now(), status, ids),
        outcome: res.writableFinished ? outcomeOf(status) : 'failed',
      })
      .catch(onError);
  };
  res.once('finish', finish);
  res.once('close', finish);
}
