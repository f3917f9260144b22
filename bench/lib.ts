/** Shared benchmark plumbing: start the console on a fresh sandbox, time HTTP load, report figures and tables. */
import type { Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

/** Figures side by side: a header row and rows of cells, printed as a Markdown table. */
export interface Table {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  note?: string;
}

/** The ports the bench's own servers take (the machine's other users keep out of this range). */
export const BENCH_PORTS = { from: 4440, to: 4499 } as const;

/** Listens on the first free loopback port of the bench's range; answers it. */
export async function listenInRange(server: Server, from: number = BENCH_PORTS.from, to: number = BENCH_PORTS.to) {
  for (let port = from; port <= to; port++) {
    const ok = await new Promise<boolean>((resolve) => {
      const onError = () => resolve(false);
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', onError);
        resolve(true);
      });
    });
    if (ok) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function printTable(t: Table): void {
  const cells = [t.columns, ...t.rows.map((r) => r.map(String))];
  const widths = t.columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(`\n${t.title}\n`);
  console.log(line(t.columns));
  console.log(`|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of cells.slice(1)) console.log(line(r));
  if (t.note) console.log(`\n${t.note}`);
}

export interface RunningConsole {
  url: string;
  sandboxUrl: string;
  stop(): void;
}

/** `npm start` on a fresh data dir; resolves once both URLs are printed. */
export function startConsoleProcess(env: Record<string, string> = {}): Promise<RunningConsole> {
  // BENCH_CONSOLE_PORT: a port of one's own on a shared machine; else one at random in 4400-4439.
  const port = Number(process.env.BENCH_CONSOLE_PORT) || 4400 + Math.floor(Math.random() * 40);
  const child: ChildProcess = spawn('npx', ['tsx', 'src/cli/main.ts', '--build-if-needed'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')),
      AGENT_PLATFORM_API_KEY: '',
      AGENT_PLATFORM_BASE_URL: '',
      // The bench measures the console on loopback, as one user: no sign-in step in the way.
      CONSOLE_AUTH: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    // Its own process group, so stopping it also stops the node process npx starts.
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.once('exit', stop);
  return new Promise((resolve, reject) => {
    let out = '';
    let url = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      url ||= /Agent Platform Console: (\S+)/.exec(out)?.[1] ?? '';
      const sandboxUrl = /embedded sandbox at (\S+)/.exec(out)?.[1];
      if (url && sandboxUrl) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ url, sandboxUrl, stop });
      }
    });
    child.on('exit', (code) => reject(new Error(`console exited with ${code}:\n${out}`)));
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sends `total` GETs with `concurrency` in flight over keep-alive; answers latencies (ms) and throughput. */
export async function load(
  url: string,
  headers: Record<string, string>,
  total: number,
  concurrency: number,
): Promise<{ latencies: number[]; rps: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const u = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { ...headers, host: u.host }, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) errors++;
            latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        sent++;
        await one();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, rps: total / seconds, errors };
}

export interface ScrollFrames {
  /** Intervals between animation frames while scrolling (ms): 16.7 at 60 Hz when every frame is on time. */
  p50: number;
  p95: number;
  max: number;
  /** Tasks over 50 ms while scrolling, and their time over 50 ms summed (total blocking time). */
  longTasks: number;
  blockingMs: number;
  /**
   * The page's main-thread CPU time per frame (ms), from a trace of the same scroll: the work a frame costs,
   * whatever else the machine runs meanwhile (frame intervals also count the time the CPU went to others).
   */
  cpuP50: number;
  cpuP95: number;
}

/** A trace event of Chromium's, as far as the bench reads it. */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * The main thread's CPU time (ms) per animation frame: the top-level tasks' thread time, by the frame they
 * start in. The page's main thread is the renderer thread that ran the animation frames.
 */
function cpuPerFrame(events: TraceEvent[]): number[] {
  const frames = new Map<string, number[]>();
  for (const e of events) {
    if (e.name !== 'FireAnimationFrame' || e.ph !== 'X') continue;
    const key = `${e.pid}:${e.tid}`;
    frames.set(key, [...(frames.get(key) ?? []), e.ts]);
  }
  const [thread, starts] = [...frames].sort((a, b) => b[1].length - a[1].length)[0] ?? ['', []];
  starts.sort((a, b) => a - b);
  const perFrame = new Array<number>(starts.length).fill(0);
  const tasks = events
    .filter(
      (e) =>
        `${e.pid}:${e.tid}` === thread &&
        e.ph === 'X' &&
        e.tdur !== undefined &&
        (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask'),
    )
    .sort((a, b) => a.ts - b.ts);
  let i = 0;
  for (const t of tasks) {
    if (t.ts < starts[0]!) continue;
    while (i < starts.length - 1 && starts[i + 1]! <= t.ts) i++;
    perFrame[i]! += t.tdur! / 1000;
  }
  // The first and last frames are only partly inside the trace.
  return perFrame.slice(1, -1);
}

/**
 * Scrolls the element matching `selector` as fast as a hard fling or a dragged scroll bar: `stepPx` every
 * animation frame for `frames` frames (back to the top when it reaches the end), setting `scrollTop` in a
 * `requestAnimationFrame` callback so the page renders each step in the next frame, as it would a user's
 * scroll. Measures the intervals between frames (rAF timestamps), the long tasks meanwhile (a
 * PerformanceObserver of `longtask`), and the main thread's CPU time per frame (a Chromium trace of the same
 * scroll). It starts from rest: after the page has settled (any render the last step before it caused).
 */
export async function scrollFrames(page: Page, selector: string, frames = 240, stepPx = 300): Promise<ScrollFrames> {
  // From rest: the jump back to the top (or the last page loaded) rendered and painted, then a quiet moment.
  await page.evaluate(
    `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300))))`,
  );
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    for (const ev of e.value as unknown as TraceEvent[]) events.push(ev);
  });
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['toplevel', 'devtools.timeline'] },
  });
  // A string, not a function: the TypeScript runner would wrap named functions with a helper the page lacks.
  const r = (await page.evaluate(`new Promise((resolve) => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const long = [];
    const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) long.push(e.duration); });
    observer.observe({ type: 'longtask' });
    const deltas = [];
    let last = 0;
    let n = 0;
    const tick = (t) => {
      deltas.push(t - last);
      last = t;
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) el.scrollTop = 0;
      else el.scrollTop += ${stepPx};
      if (++n < ${frames}) requestAnimationFrame(tick);
      else setTimeout(() => { observer.disconnect(); resolve({ deltas: deltas.slice(1), long }); }, 100);
    };
    requestAnimationFrame((t) => { last = t; requestAnimationFrame(tick); });
  })`)) as { deltas: number[]; long: number[] };
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  const sorted = [...r.deltas].sort((a, b) => a - b);
  const cpu = cpuPerFrame(events).sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? NaN),
    longTasks: r.long.length,
    blockingMs: Math.round(r.long.reduce((a, d) => a + Math.max(0, d - 50), 0)),
    cpuP50: round(percentile(cpu, 50)),
    cpuP95: round(percentile(cpu, 95)),
  };
}

/**
 * In-page source that sets `window.__ready` to a promise of the time `text` first appears in the page (the first
 * screen's "ready"), for an init script: the first-screen suite and the waterfall measure the same moment.
 */
export const readyProbe = (text: string) => `window.__ready = new Promise((resolve) => {
    // Only the text each mutation brought in is searched: reading the whole page's text on every mutation costs
    // a large page (the console's navigation) tens of milliseconds per load that a one-list page does not pay.
    const has = (node) => node.textContent !== null && node.textContent.includes(${JSON.stringify(text)});
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData' ? has(r.target) : [...r.addedNodes].some(has)) {
          observer.disconnect();
          resolve(performance.now());
          return;
        }
      }
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  });`;
