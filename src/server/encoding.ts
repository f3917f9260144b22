/**
 * Content-coding negotiation (RFC 9110 §12.5.3) for what the console serves itself: the built app's
 * precompressed files and its own large JSON answers. Proxied answers keep the upstream's coding.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

export type Coding = 'br' | 'gzip';
export type Chosen = Coding | 'identity';

/** Server preference when the browser weighs several codings the same: Brotli is smaller. */
const PREFERENCE: readonly Chosen[] = ['br', 'gzip', 'identity'];

/** q-values by coding name (lower case); `*` for the wildcard. */
function parse(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    // A coding listed twice keeps its best weight.
    weights.set(name, Math.max(q, weights.get(name) ?? 0));
  }
  return weights;
}

const memo = new Map<string, Map<string, number>>();

/**
 * The coding to send, among those `available` besides identity: the one the browser weighs most (q-values,
 * `*` for codings it does not name), Brotli before gzip on a tie. A coding beats an identity it weighs the
 * same. Without the header, or with nothing acceptable, identity (which is always possible).
 */
export function negotiateEncoding(header: string | undefined, available: readonly Coding[]): Chosen {
  if (header === undefined || available.length === 0) return 'identity';
  let weights = memo.get(header);
  if (!weights) {
    weights = parse(header);
    if (memo.size < 256) memo.set(header, weights);
  }
  const wildcard = weights.get('*');
  let best: Chosen = 'identity';
  let bestQ = 0;
  for (const coding of PREFERENCE) {
    if (coding !== 'identity' && !available.includes(coding)) continue;
    const q = weights.get(coding) ?? wildcard ?? (coding === 'identity' ? 0.001 : 0);
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/** Adds `accept-encoding` to a Vary header value, unless it is there (or `*`). */
export function varyOnEncoding(current: string | null | undefined): string {
  if (!current) return 'accept-encoding';
  if (current.trim() === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(current)) return current;
  return `${current}, accept-encoding`;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Quick settings for answers compressed per request (the build uses the slowest, smallest ones). */
const BROTLI_QUICK = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const GZIP_QUICK = { level: 6 };
/** Larger bodies are compressed on the thread pool, so the event loop keeps answering meanwhile. */
const SYNC_LIMIT = 64 * 1024;

export function compressBody(body: Buffer, coding: Coding): Promise<Buffer> {
  if (body.length <= SYNC_LIMIT) {
    return Promise.resolve(coding === 'br' ? brotliCompressSync(body, BROTLI_QUICK) : gzipSync(body, GZIP_QUICK));
  }
  return coding === 'br' ? brotliAsync(body, BROTLI_QUICK) : gzipAsync(body, GZIP_QUICK);
}
