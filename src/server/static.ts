/**
 * Serves the built app from `dist/`: each file in the best coding the browser accepts among the Brotli and
 * gzip copies the build wrote beside it (`Content-Encoding`, `Vary: Accept-Encoding`); hashed assets cached for
 * a year as immutable, everything else (index.html, deep links) revalidated by ETag; deep links answered with
 * index.html. What a path resolves to is looked up once, and small files are kept in memory.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { negotiateEncoding, type Chosen, type Coding } from './encoding';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** The copies the build writes beside a file, by coding. */
const SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };
/** Files up to this size are served from memory once read. */
const MEMORY_LIMIT = 1_048_576;

interface Variant {
  path: string;
  size: number;
  etag: string;
  bytes?: Buffer;
}

interface Entry {
  headers: Record<string, string>;
  variants: Partial<Record<Chosen, Variant>>;
  codings: Coding[];
}

function statFile(path: string): { size: number; mtimeMs: number } | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}

/** A file and the compressed copies beside it, with the headers every answer of it carries. */
function entryOf(file: string, immutable: boolean): Entry | undefined {
  const own = statFile(file);
  if (!own) return undefined;
  const tag = `${own.size.toString(36)}-${Math.round(own.mtimeMs).toString(36)}`;
  const variants: Entry['variants'] = { identity: { path: file, size: own.size, etag: `"${tag}"` } };
  const codings: Coding[] = [];
  for (const coding of ['br', 'gzip'] as const) {
    const copy = statFile(file + SUFFIX[coding]);
    if (!copy) continue;
    variants[coding] = { path: file + SUFFIX[coding], size: copy.size, etag: `"${tag}-${coding}"` };
    codings.push(coding);
  }
  const ext = extname(file);
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    'cache-control': immutable ? IMMUTABLE : REVALIDATE,
  };
  if (ext === '.html') headers['content-security-policy'] = CSP;
  if (codings.length > 0) headers.vary = 'accept-encoding';
  return { headers, variants, codings };
}

/** Whether If-None-Match names this ETag (or `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

export function createStaticHandler(distDir: string) {
  const root = normalize(distDir + sep);
  const found = new Map<string, Entry>();
  /** The entry of a file inside dist, looked up once (a missing path is looked up again, never remembered). */
  const lookup = (decoded: string): Entry | undefined => {
    const known = found.get(decoded);
    if (known) return known;
    const file = normalize(join(distDir, decoded));
    if (!file.startsWith(root)) return undefined;
    const entry = entryOf(file, decoded.startsWith('/assets/'));
    if (entry) found.set(decoded, entry);
    return entry;
  };

  const send = (req: IncomingMessage, res: ServerResponse, entry: Entry) => {
    const coding = negotiateEncoding(req.headers['accept-encoding'], entry.codings);
    const variant = entry.variants[coding]!;
    const headers: Record<string, string | number> = { ...entry.headers, etag: variant.etag };
    if (coding !== 'identity') headers['content-encoding'] = coding;
    if (matches(req.headers['if-none-match'], variant.etag)) {
      res.writeHead(304, headers).end();
      return;
    }
    headers['content-length'] = variant.size;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (variant.size > MEMORY_LIMIT) {
      createReadStream(variant.path).pipe(res);
      return;
    }
    variant.bytes ??= readFileSync(variant.path);
    res.end(variant.bytes);
  };

  return (req: IncomingMessage, res: ServerResponse, pathname: string): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method Not Allowed');
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      decoded = '/';
    }
    const entry = decoded === '/' || decoded.endsWith('/') ? undefined : lookup(decoded);
    if (entry) {
      send(req, res, entry);
      return;
    }
    // A missing file with an extension is a missing asset, not a deep link.
    if (extname(decoded) !== '') {
      res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    const index = lookup('/index.html');
    if (!index) {
      res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    send(req, res, index);
  };
}
