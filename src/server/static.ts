/**
 * Serves the built app from `dist/`: each file in the best coding the browser accepts among the Brotli and
 * gzip copies the build wrote beside it (`Content-Encoding`, `Vary: Accept-Encoding`); hashed assets cached for
 * a year as immutable, everything else (index.html, deep links) revalidated by ETag; deep links answered with
 * index.html. What a path resolves to is looked up once, and small files are kept in memory.
 *
 * The console's index.html paints the shell before any script runs (its markup is in index.html) and, when the
 * build wrote its manifest, tells the browser at once what the URL's first screen needs: the route's chunks and
 * the components they import (`modulepreload`, from the manifest) and the answers the screen reads (`preload`
 * as fetch, src/app/shell/first-screen.ts), so nothing is discovered after the app has run. With a first-screen
 * renderer (src/server/first-screen-render.ts), the deep links whose own answers the URL names also carry the
 * screen itself, rendered on the server from the answers this browser would get, and those answers (see
 * `sendRendered`); every other page carries URLs only. Never the credential.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import { firstScreenData } from '../app/shell/first-screen';
import type { FirstScreenRenderer } from './first-screen-render';
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

/**
 * The page's Content-Security-Policy: scripts from the console only, plus the inline scripts of this very HTML
 * by their hash (index.html's theme script, which must run before the first paint).
 */
export function cspFor(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => ` 'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  return `default-src 'self'; script-src 'self'${hashes.join('')}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'`;
}

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
  if (ext === '.html') headers['content-security-policy'] = cspFor(readFileSync(file, 'utf8'));
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

/** A chunk of the build's manifest (Vite `build.manifest`), as far as the first screen reads it. */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

/** A route file's chunk: its URL pattern (`$param` segments match any), and whether it is a layout around others. */
interface RouteChunk {
  segments: string[];
  layout: boolean;
  /** The chunk and every chunk it imports that the entry does not already load, as URLs. */
  files: string[];
}

/** The route chunks of a build, from its manifest; none when the build wrote no manifest (or no routes). */
export function routeChunksOf(manifest: Record<string, ManifestChunk>): RouteChunk[] {
  const closure = (key: string, seen: Set<string>) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) closure(i, seen);
  };
  const loaded = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, loaded);
  const routes: RouteChunk[] = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    // `src/routes/orgs/$orgId/sessions/index.tsx?tsr-split=component---loader`: the route's component and loader.
    const m = /^src\/routes\/(.+)\.tsx?\?tsr-split=(.+)$/.exec(chunk.src ?? key);
    if (!m || !m[2]!.split('---').some((part) => part === 'component' || part === 'loader')) continue;
    const segments = m[1]!.split('/');
    if (segments.some((s) => s.startsWith('-') || s.startsWith('__'))) continue;
    const last = segments.at(-1);
    const layout = last === 'route';
    if (last === 'index' || layout) segments.pop();
    const seen = new Set<string>();
    closure(key, seen);
    const files = [...seen].filter((k) => !loaded.has(k)).map((k) => `/${manifest[k]!.file}`);
    routes.push({ segments, layout, files });
  }
  return routes;
}

/** The chunks the first screen of `pathname` runs: its route's, and those of the layouts around it. */
export function chunksForPath(routes: RouteChunk[], pathname: string): string[] {
  const parts = pathname.split('/').filter(Boolean);
  const fits = (r: RouteChunk) =>
    (r.layout ? r.segments.length <= parts.length : r.segments.length === parts.length) &&
    r.segments.every((s, i) => s.startsWith('$') || s === parts[i]);
  // A path both a static and a `$param` route fit (`/sessions/new`) is the static one's.
  const statics = (r: RouteChunk) => r.segments.filter((s) => !s.startsWith('$')).length;
  const leaf = routes.filter((r) => !r.layout && fits(r)).sort((a, b) => statics(b) - statics(a))[0];
  const layouts = routes.filter((r) => r.layout && fits(r));
  return [...new Set([...layouts, ...(leaf ? [leaf] : [])].flatMap((r) => r.files))];
}

/**
 * The `<link>`s that start the first screen's chunks and answers with the HTML: `screen`, the answers the screen
 * is ready with, to go ahead of every script (the build's own module preloads included); `modules`, the route's
 * chunks; `shell`, the shell's answers (both at the end of the head, or after a rendered screen).
 */
export interface FirstScreenHints {
  screen: string;
  modules: string;
  shell: string;
}

export function firstScreenHints(routes: RouteChunk[], pathname: string, search: string): FirstScreenHints {
  const modules = chunksForPath(routes, pathname).map(
    (href) => `<link rel="modulepreload" crossorigin href="${href}">`,
  );
  // `crossorigin` (anonymous): the same credentials mode as the app's `fetch(…, { credentials: 'same-origin' })`,
  // which the browser requires before it hands the preloaded answer to that fetch.
  const data = firstScreenData(pathname, search);
  const fetchLink = (href: string, priority: 'high' | 'low') =>
    `<link rel="preload" as="fetch" crossorigin fetchpriority="${priority}" href="${href.replace(/&/g, '&amp;')}">`;
  // The screen's answers before any chunk: over HTTP/1.1 the browser opens six connections to the console and
  // hands them out in the order of the links (among links of one priority), and the entry alone imports a few
  // dozen chunks. Behind them, the answer the screen is ready with came last (in a traced load 70 ms after the
  // last chunk); ahead of them it costs the scripts one request's time on one connection. The shell's answers
  // (who the credential is, the queue, the config), at low priority, go out after the chunks: nothing waits on
  // them.
  const shell = data.shell.map((h) => fetchLink(h, 'low')).join('');
  return {
    screen: data.screen.map((h) => fetchLink(h, 'high')).join(''),
    modules: modules.join(''),
    shell,
  };
}

/**
 * index.html with a page's hints: the screen's answers right after the stylesheet (the painted shell's first
 * need), ahead of the entry script and the build's module preloads; the rest at the end of the head.
 */
export function withHints(template: string, hints: { screen: string; rest: string }): string {
  const head = template.replace('</head>', `${hints.rest}</head>`);
  const firstScript = /<script type="module"|<link rel="modulepreload"/.exec(head);
  if (!firstScript) return head.replace('</head>', `${hints.screen}</head>`);
  return head.slice(0, firstScript.index) + hints.screen + head.slice(firstScript.index);
}

interface HtmlVariant {
  bytes: Buffer;
  etag: string;
}

/** How many differently hinted pages are kept compressed (one per route and organization seen, at most). */
const HTML_CACHE_LIMIT = 256;

/** The narrowest window the rendered first screen is shown on (Tailwind's `md`, src/styles.css). */
const RENDERED_MIN_WIDTH_PX = 768;

/** Where the painted shell is in index.html: `<div id="first-paint">` up to the app's root. */
const FIRST_PAINT_OPEN = '<div id="first-paint">';
const ROOT_OPEN = '<div id="root">';
/**
 * Puts the rendered screen (parsed inside a `<template>`, so nothing of it paints while it is parsed, however the
 * parser splits it: a table painted half-parsed shifts as its columns settle) in the painted shell's place in one
 * step, on a window as wide as the navigation's (the server renders the wide layout: it does not know the window).
 * A narrower window keeps the painted shell until the app lays the screen out for it. When the page has not
 * painted yet, the painted shell paints first and the swap follows that frame: the rendered screen's first layout
 * is the heavier one, and a fast render held the first paint back for it. Allowed by its hash in the page's policy.
 */
const SHELL_GIVES_WAY = `<script>(function () { var t = document.getElementById('first-screen'); var p = document.getElementById('first-paint'); if (!matchMedia('(min-width: ${RENDERED_MIN_WIDTH_PX}px)').matches) { t.remove(); return; } function swap() { t.replaceWith(t.content); p.remove(); } if (performance.getEntriesByType('paint').length > 0 || document.visibilityState === 'hidden') swap(); else requestAnimationFrame(function () { setTimeout(swap, 0); }); })();</script>`;

/**
 * The first screen rendered on the server, after the painted shell it replaces. `inert` until the app replaces
 * it in turn (a click or a key on this picture would do nothing: the browser and test drivers wait for the live
 * controls instead), and marked as the shell painted from the HTML, as the painted one is. Its content (`<main>`)
 * is hidden from assistive technology as `inert` hides it in the browser, so what waits for the screen's roles (a
 * heading, a row, a button) waits for the app's live screen, while its header and navigation read as the shell.
 */
export function renderedFirstPaint(markup: string): string {
  const shell = markup
    .replace(/^<div /, '<div data-shell="static" ')
    .replace(/<main(?=[\s>])/, '<main aria-hidden="true"');
  return `<template id="first-screen"><div id="first-paint" inert>${shell}</div></template>${SHELL_GIVES_WAY}`;
}

/**
 * How long the scripts of a page with a rendered first screen wait for the render before they are asked for
 * anyway (they then go out ahead of it). A render in time goes out first, the scripts right after it.
 */
const SCRIPTS_WAIT_MS = Number(process.env.SCRIPTS_WAIT_MS ?? 100);

/** `links` without the preloads of the URLs `answers` holds. */
function withoutPreloadsOf(links: string, answers: Record<string, unknown>): string {
  return (links.match(/<link [^>]*>/g) ?? [])
    .filter((tag) => {
      const href = (/href="([^"]*)"/.exec(tag)?.[1] ?? '').replace(/&amp;/g, '&');
      return !Object.hasOwn(answers, href);
    })
    .join('');
}

/** The answers a rendered screen was made from, for the app (src/lib/first-answers.ts), safe in a `<script>`. */
export function embeddedAnswers(answers: Record<string, unknown>): string {
  const json = JSON.stringify(answers)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="first-answers">${json}</script>`;
}

/** index.html for a rendered page: its module preloads out of the head (they follow the rendered screen). */
interface RenderedTemplate {
  html: string;
  entryPreloads: string;
}

function renderedTemplate(template: string): RenderedTemplate {
  const head = template.slice(0, template.indexOf('<body'));
  const tags = head.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
  return { html: tags.reduce((h, tag) => h.replace(tag, ''), template), entryPreloads: tags.join('') };
}

/**
 * A page whose first screen is rendered on the server (src/server/first-screen-render.ts). The head (stylesheet,
 * scripts) and the painted shell go out at once, flushed through the compressor, so the browser paints the shell
 * and fetches the scripts while the server renders. The rendered screen follows in the same response and takes
 * the painted shell's place, with the answers it was made from (the app takes them instead of asking again);
 * or, when it is not in within `WAIT_MS`, the preloads of those answers. The shell's answers are asked for after
 * it, and the app's script starts at the end of the body. Never cached: it holds answers of this browser's
 * (`no-store`, and `Vary: Cookie`).
 */
async function sendRendered(
  req: IncomingMessage,
  res: ServerResponse,
  page: { template: RenderedTemplate; hints: FirstScreenHints; headers: Record<string, string>; url: string },
  renderer: FirstScreenRenderer,
): Promise<void> {
  const coding = negotiateEncoding(req.headers['accept-encoding'], ['br', 'gzip']);
  const out: Record<string, string> = { ...page.headers, 'cache-control': 'no-store', vary: 'accept-encoding, cookie' };
  if (coding !== 'identity') out['content-encoding'] = coding;
  res.writeHead(200, out);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const rendering = renderer.render(req, page.url);
  const z =
    coding === 'br'
      ? createBrotliCompress({
          params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
        })
      : coding === 'gzip'
        ? createGzip({ level: 6 })
        : undefined;
  if (z) z.pipe(res);
  const write = (text: string, flush: boolean) => {
    if (!z) res.write(text);
    else {
      z.write(text);
      if (flush) z.flush();
    }
  };
  const { html, entryPreloads } = page.template;
  const scripts = entryPreloads + page.hints.modules;
  const rootAt = html.indexOf(ROOT_OPEN, html.indexOf(FIRST_PAINT_OPEN));
  write(html.slice(0, rootAt), true);
  // The scripts wait for the render, but not long: on 2 cores the browser fetching and compiling them took the
  // server's render three to six times as long (180-310 ms against 35-50 ms alone, traced).
  const early = await Promise.race([rendering, delay(SCRIPTS_WAIT_MS).then(() => undefined)]);
  if (early === undefined) write(scripts, true);
  const screen = early === undefined ? await rendering : early;
  // The shell's answers the page carries are not preloaded as well.
  const shell = screen ? withoutPreloadsOf(page.hints.shell, screen.answers) : page.hints.shell;
  const rest =
    (screen ? embeddedAnswers(screen.answers) + renderedFirstPaint(screen.html) : page.hints.screen) +
    (early === undefined ? '' : scripts) +
    shell +
    html.slice(rootAt);
  if (z) z.end(rest);
  else res.end(rest);
}

/** index.html with each URL's hints, compressed once per distinct set of hints. */
function createAppHtml(template: string, routes: RouteChunk[], renderer: FirstScreenRenderer | undefined) {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-type': TYPES['.html']!,
    'cache-control': REVALIDATE,
    // The rendered screen's own script (`SHELL_GIVES_WAY`) is allowed beside the template's.
    'content-security-policy': cspFor(renderer ? template + SHELL_GIVES_WAY : template),
    vary: 'accept-encoding',
  };
  const cache = new Map<string, Record<Chosen, HtmlVariant>>();
  const variantsOf = ({ screen, modules, shell }: FirstScreenHints) => {
    const hints = { screen, rest: modules + shell };
    const key = hints.screen + hints.rest;
    const known = cache.get(key);
    if (known) return known;
    const html = Buffer.from(withHints(template, hints));
    const tag = createHash('sha256').update(html).digest('base64url').slice(0, 22);
    const variants: Record<Chosen, HtmlVariant> = {
      identity: { bytes: html, etag: `"${tag}"` },
      br: {
        bytes: brotliCompressSync(html, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
        }),
        etag: `"${tag}-br"`,
      },
      gzip: { bytes: gzipSync(html, { level: 6 }), etag: `"${tag}-gzip"` },
    };
    if (cache.size >= HTML_CACHE_LIMIT) cache.clear();
    cache.set(key, variants);
    return variants;
  };
  /** The page with the shell painted from index.html (cached, compressed once per set of hints). */
  const sendPainted = (req: IncomingMessage, res: ServerResponse, hints: FirstScreenHints) => {
    const variants = variantsOf(hints);
    const coding = negotiateEncoding(req.headers['accept-encoding'], ['br', 'gzip']);
    const variant = variants[coding];
    const out: Record<string, string | number> = { ...headers, etag: variant.etag };
    if (coding !== 'identity') out['content-encoding'] = coding;
    if (matches(req.headers['if-none-match'], variant.etag)) {
      res.writeHead(304, out).end();
      return;
    }
    out['content-length'] = variant.bytes.length;
    res.writeHead(200, out);
    res.end(req.method === 'HEAD' ? undefined : variant.bytes);
  };

  const rendersFirstScreen = template.includes(FIRST_PAINT_OPEN) && template.includes(ROOT_OPEN);
  const forRendered = renderedTemplate(template);
  return (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const search = (req.url ?? '').split('?')[1] ?? '';
    const path = pathname === '/index.html' ? '/' : pathname;
    const hints = firstScreenHints(routes, path, search);
    // The deep links whose own answers the URL names are rendered with them (the rest keep the painted shell).
    if (renderer && rendersFirstScreen && firstScreenData(path, search).rendered) {
      const url = search ? `${path}?${search}` : path;
      void sendRendered(req, res, { template: forRendered, hints, headers, url }, renderer).catch(() => res.destroy());
      return;
    }
    sendPainted(req, res, hints);
  };
}

/**
 * `firstScreen`: the server's renderer of the first screen (src/server/first-screen-render.ts), when the build
 * wrote its server bundle; without it every page gets the shell painted from index.html.
 */
export function createStaticHandler(distDir: string, opts: { firstScreen?: FirstScreenRenderer } = {}) {
  const root = normalize(distDir + sep);
  // The console's build writes its manifest; another app's (the bench's floor app) is served as it is.
  const manifestPath = join(distDir, '.vite', 'manifest.json');
  const indexPath = join(distDir, 'index.html');
  const appHtml =
    existsSync(manifestPath) && existsSync(indexPath)
      ? createAppHtml(
          readFileSync(indexPath, 'utf8'),
          routeChunksOf(JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>),
          opts.firstScreen,
        )
      : undefined;
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
    // The build's own files (its manifest) are not the app's to serve.
    if (decoded.split('/').some((part) => part.startsWith('.'))) {
      res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    if (appHtml && (decoded === '/index.html' || extname(decoded) === '')) {
      appHtml(req, res, decoded);
      return;
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
