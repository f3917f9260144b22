/**
 * The console's first screen, opened by its URL (the organizations overview at `/`, and an organization's
 * sessions list), against a floor app that holds only the console's stack on one route and fetches one small
 * JSON list (bench/floor/, built here with Vite and served by the console's own static handler, compressed the
 * same way). Median of 9 interleaved cold loads of each in Chromium (`BENCH_LOADS=11` for more on a busy machine): JS and CSS bytes transferred (compressed)
 * and decoded, first contentful paint, first screen ready (the list's first name, or the first session's
 * title, in the page: the console's server renders these two screens into the HTML), when the app is running
 * (its own shell took the place of the one in the HTML), and the layout shift until then.
 * Then the first screen's JavaScript as the build's manifest has it (bench/bundle.ts), against the 140 KB limit.
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
import { firstScreenTable } from './bundle';
import { listenInRange, median, readyProbe, type Table } from './lib';
import { fixedPage } from './proxy/upstream';

const LOADS = Math.max(1, Number(process.env.BENCH_LOADS) || 9);

interface Load {
  fcp: number;
  ready: number;
  /**
   * When the app's own screen is in the page, live (the console's `console:shell-committed` mark: its shell took
   * the place of the one in the HTML); the floor app's is its ready.
   */
  live: number;
  /** Cumulative layout shift from the start until the app has taken over (and a moment after). */
  cls: number;
  js: { transferred: number; decoded: number; files: number };
  css: { transferred: number; decoded: number; files: number };
}

export async function buildFloor(): Promise<string> {
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
export async function serveFloor(dir: string): Promise<{ url: string; firstName: string; close(): void }> {
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
  ${readyProbe(text)}
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
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
    // The app taking over the screen in the HTML (the console's), then two frames for any shift it causes.
    await page.waitForFunction(() => !document.getElementById('first-paint'));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const mark = (await page.evaluate(
      "performance.getEntriesByName('console:shell-committed')[0]?.startTime ?? null",
    )) as number | null;
    const live = mark ?? ready;
    // The first screen's JavaScript: what was asked for until the app's entry ran (the page asks for the entry and
    // the route's chunks itself; what the app loads when idle after that is not the first screen's).
    const renderMark = (await page.evaluate(
      "performance.getEntriesByName('console:entry-run')[0]?.startTime ?? null",
    )) as number | null;
    const cls = (await page.evaluate('window.__cls')) as number;
    const cutAt = ((await page.evaluate('performance.timeOrigin')) as number) + (renderMark ?? ready);
    const sum = { js: { transferred: 0, decoded: 0, files: 0 }, css: { transferred: 0, decoded: 0, files: 0 } };
    // (A request still in flight has no timing yet, a start of 0: one the app made later, when idle.)
    const inTime = (a: Request) => a.timing().startTime > 0 && a.timing().startTime <= cutAt;
    for (const r of assets.filter(inTime)) {
      const res = await r.response();
      if (!res || res.status() !== 200) continue;
      const kind = new URL(r.url()).pathname.endsWith('.css') ? sum.css : sum.js;
      kind.transferred += (await r.sizes()).responseBodySize;
      kind.decoded += (await res.body()).length;
      kind.files++;
    }
    return { fcp, ready, live, cls, ...sum };
  } finally {
    await context.close();
  }
}

export async function benchFirstScreen({ baseUrl, browser }: { baseUrl: string; browser: Browser }): Promise<Table[]> {
  const floor = await serveFloor(await buildFloor());
  try {
    const orgs = (await (await fetch(`${baseUrl}/api/v3/enterprise/organizations?first=1`)).json()) as {
      items: Array<{ org_id: string; name: string }>;
    };
    const org = orgs.items[0]!;
    const sessions = (await (await fetch(`${baseUrl}/api/v3/organizations/${org.org_id}/sessions?first=1`)).json()) as {
      items: Array<{ title: string | null; session_id: string }>;
    };
    const session = sessions.items[0]!;
    // The screens, each opened by its URL in a fresh browser context: the floor app, then the console's two.
    const screens: Array<() => Promise<Load>> = [
      () => coldLoad(browser, floor.url, floor.firstName),
      () => coldLoad(browser, `${baseUrl}/`, org.name),
      () => coldLoad(browser, `${baseUrl}/orgs/${org.org_id}/sessions`, session.title ?? session.session_id),
    ];
    // One load of each first (server caches, JIT), not counted; then interleaved, rotating which goes first.
    for (const load of screens) await load();
    const loads: Load[][] = screens.map(() => []);
    for (let i = 0; i < LOADS; i++) {
      for (let j = 0; j < screens.length; j++) {
        const k = (i + j) % screens.length;
        loads[k]!.push(await screens[k]!());
      }
    }
    const [f, c, s] = loads as [Load[], Load[], Load[]];
    const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
    const row = (label: string, pick: (l: Load) => number, unit: 'KB' | 'ms' | '') => {
      const [fv, cv, sv] = [median(f.map(pick)), median(c.map(pick)), median(s.map(pick))];
      const show =
        unit === 'KB'
          ? (n: number) => `${kb(n)} KB`
          : unit === 'ms'
            ? (n: number) => `${Math.round(n)} ms`
            : (n: number) => n.toFixed(3);
      return unit === ''
        ? [label, show(fv), show(cv), '', show(sv), '']
        : [label, show(fv), show(cv), ratio(cv, fv), show(sv), ratio(sv, fv)];
    };
    const files = (l: Load[]) => `${l[0]!.js.files} / ${l[0]!.css.files}`;
    return [
      {
        title: `First screen, opened by its URL: console vs floor app, median of ${LOADS} interleaved cold loads`,
        columns: ['', 'floor app', 'console /', '/ ÷ floor', 'console org sessions', 'sessions ÷ floor'],
        rows: [
          row('JS transferred (compressed)', (l) => l.js.transferred, 'KB'),
          row('JS decoded', (l) => l.js.decoded, 'KB'),
          row('CSS transferred (compressed)', (l) => l.css.transferred, 'KB'),
          row('CSS decoded', (l) => l.css.decoded, 'KB'),
          row('first contentful paint', (l) => l.fcp, 'ms'),
          row('first screen ready', (l) => l.ready, 'ms'),
          row('app running (its shell took over)', (l) => l.live, 'ms'),
          row('layout shift until the app took over (CLS)', (l) => l.cls, ''),
          ['JS / CSS files', files(f), files(c), '', files(s), ''],
        ],
        note: `Ready: the floor's first name, the console's first organization's name (${org.name}) at /, the first session's title at /orgs/${org.org_id}/sessions (the console's as its server rendered them into the page, until its app takes over).`,
      },
      firstScreenTable(),
    ];
  } finally {
    floor.close();
  }
}
