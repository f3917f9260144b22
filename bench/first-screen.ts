/**
 * The console's first screen (the organizations overview at `/`) against a floor app that holds only the
 * console's stack on one route and fetches one small JSON list (bench/floor/, built here with Vite and served
 * by the console's own static handler, compressed the same way). Median of 7 interleaved cold loads in
 * Chromium: JS and CSS bytes transferred (compressed) and decoded, first contentful paint, first screen ready
 * (the list's first name in the page).
 */
import type { Browser, Request } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { precompress } from '../scripts/precompress';
import { createStaticHandler } from '../src/server/static';
import { listenInRange, median, type Table } from './lib';
import { fixedPage } from './proxy/upstream';

const LOADS = 7;

interface Load {
  fcp: number;
  ready: number;
  js: { transferred: number; decoded: number; files: number };
  css: { transferred: number; decoded: number; files: number };
}

async function buildFloor(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  await build({
    root: join(import.meta.dirname, 'floor'),
    configFile: false,
    logLevel: 'warn',
    plugins: [react(), precompress()],
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

/** The floor app and its one JSON list, served as the console serves its own files. */
async function serveFloor(dir: string): Promise<{ url: string; firstName: string; close(): void }> {
  const serve = createStaticHandler(dir);
  const body = fixedPage();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/api/organizations') {
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'cache-control': 'no-store',
        })
        .end(body);
      return;
    }
    serve(req, res, path);
  });
  const port = await listenInRange(server);
  const firstName = (JSON.parse(body) as { items: Array<{ name: string }> }).items[0]!.name;
  return { url: `http://localhost:${port}/`, firstName, close: () => server.close() };
}

/** Resolves `__ready` when `text` is first in the page, and `__fcp` at the first contentful paint. */
const probe = (text: string) => `(() => {
  window.__ready = new Promise((resolve) => {
    const check = () => {
      if (document.body && document.body.textContent.includes(${JSON.stringify(text)})) {
        observer.disconnect();
        resolve(performance.now());
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  });
  window.__fcp = new Promise((resolve) => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') resolve(e.startTime);
    }).observe({ type: 'paint', buffered: true });
  });
})()`;

async function coldLoad(browser: Browser, url: string, readyText: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  try {
    await context.addInitScript(probe(readyText));
    const page = await context.newPage();
    const assets: Request[] = [];
    page.on('request', (r) => {
      if (/\.(m?js|css)$/.test(new URL(r.url()).pathname)) assets.push(r);
    });
    await page.goto(url);
    const ready = (await page.evaluate('window.__ready')) as number;
    const fcp = (await page.evaluate('window.__fcp')) as number;
    const readyAt = ((await page.evaluate('performance.timeOrigin')) as number) + ready;
    const sum = { js: { transferred: 0, decoded: 0, files: 0 }, css: { transferred: 0, decoded: 0, files: 0 } };
    // The first screen's assets: those requested before it was ready (later ones are lazy chunks).
    for (const r of assets.filter((a) => a.timing().startTime <= readyAt)) {
      const res = await r.response();
      if (!res || res.status() !== 200) continue;
      const kind = new URL(r.url()).pathname.endsWith('.css') ? sum.css : sum.js;
      kind.transferred += (await r.sizes()).responseBodySize;
      kind.decoded += (await res.body()).length;
      kind.files++;
    }
    return { fcp, ready, ...sum };
  } finally {
    await context.close();
  }
}

export async function benchFirstScreen({ baseUrl, browser }: { baseUrl: string; browser: Browser }): Promise<Table[]> {
  const floor = await serveFloor(await buildFloor());
  try {
    const orgs = (await (await fetch(`${baseUrl}/api/v3/enterprise/organizations?first=1`)).json()) as {
      items: Array<{ name: string }>;
    };
    const consoleName = orgs.items[0]!.name;
    const floorLoad = () => coldLoad(browser, floor.url, floor.firstName);
    const consoleLoad = () => coldLoad(browser, `${baseUrl}/`, consoleName);
    // One load of each first (server caches, JIT), not counted; then interleaved, alternating which goes first.
    await floorLoad();
    await consoleLoad();
    const f: Load[] = [];
    const c: Load[] = [];
    for (let i = 0; i < LOADS; i++) {
      if (i % 2 === 0) {
        f.push(await floorLoad());
        c.push(await consoleLoad());
      } else {
        c.push(await consoleLoad());
        f.push(await floorLoad());
      }
    }
    const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
    const row = (label: string, pick: (l: Load) => number, unit: 'KB' | 'ms') => {
      const [fv, cv] = [median(f.map(pick)), median(c.map(pick))];
      const show = unit === 'KB' ? (n: number) => `${kb(n)} KB` : (n: number) => `${Math.round(n)} ms`;
      return [label, show(fv), show(cv), ratio(cv, fv)];
    };
    return [
      {
        title: `First screen: console (organizations overview) vs floor app, median of ${LOADS} interleaved cold loads`,
        columns: ['', 'floor app', 'console', 'console / floor'],
        rows: [
          row('JS transferred (compressed)', (l) => l.js.transferred, 'KB'),
          row('JS decoded', (l) => l.js.decoded, 'KB'),
          row('CSS transferred (compressed)', (l) => l.css.transferred, 'KB'),
          row('CSS decoded', (l) => l.css.decoded, 'KB'),
          row('first contentful paint', (l) => l.fcp, 'ms'),
          row('first screen ready', (l) => l.ready, 'ms'),
          ['JS / CSS files', `${f[0]!.js.files} / ${f[0]!.css.files}`, `${c[0]!.js.files} / ${c[0]!.css.files}`, ''],
        ],
      },
    ];
  } finally {
    floor.close();
  }
}
