/**
 * Records one write made through the console (proxied or the console's own endpoint) once its answer is sent:
 * who, the operation, its organization, the ids it touched (path parameters, and the created resource's id
 * read from a JSON answer) and the outcome. Bodies are never stored: of the answer only `…_id`/`id` fields are
 * read, and none whose name suggests a secret.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../actor';
import type { MatchedOperation } from '../../policy/operations';
import type { ActivityOutcome, ActivityStore } from './store';

/** The answer is looked at up to this many bytes (the ids of a created resource come first in practice). */
const MAX_ANSWER_BYTES = 64 * 1024;
const MAX_IDS = 12;
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
    const type = String(res.getHeader('content-type') ?? '');
    // A compressed or cut answer is not read: its ids are the path's only.
    const plain = !res.getHeader('content-encoding') && size < MAX_ANSWER_BYTES;
    const ids = status < 400 && plain && /json/i.test(type) ? idsOfAnswer(Buffer.concat(chunks).toString('utf8')) : {};
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
