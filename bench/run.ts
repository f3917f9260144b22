/**
 * `npm run bench`: benchmarks, not timed tests. Starts the console on a fresh sandbox (as `npm start` does)
 * and prints each suite, side by side where there is something to compare with:
 * - the first screen against a floor app (bench/first-screen.ts);
 * - the proxy against direct calls and a bare `node:http` proxy, before one fast upstream (bench/proxy.ts);
 * - scrolling the sessions list (2,000) and the audit log (10,000);
 * - the whole build's bytes, the sessions list's polling, git permissions, audit-log export, and applying a 1,000-resource configuration document.
 * `BENCH_ONLY=first-screen,proxy` runs some suites only (names as in the list of suites below).
 */
import { benchConfigApply } from './config-apply';
import { chromium, type Page } from '@playwright/test';
import { benchAuditLogs } from './audit-logs';
import { benchBundle } from './bundle';
import { benchFirstScreen } from './first-screen';
import { median, printTable, startConsoleProcess, type Figure, type ScrollFrames, type Table } from './lib';
import { benchGitPermissions } from './git-permissions';
import { benchProxy } from './proxy';
import { benchSessionsListRequests, benchSessionsRenderScroll } from './sessions';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const consoleProc = await startConsoleProcess({ SANDBOX_RATE_LIMIT: '0' });
const ctx = { baseUrl: consoleProc.url, sandboxUrl: consoleProc.sandboxUrl, browser };

async function withPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  try {
    return await fn(page);
  } finally {
    await page.close();
  }
}

async function firstOrgId(): Promise<string> {
  const res = await fetch(`${ctx.baseUrl}/api/v3/enterprise/organizations?first=1`);
  return ((await res.json()) as { items: Array<{ org_id: string }> }).items[0]!.org_id;
}

/** The median of each scroll figure over several runs. */
function medianScroll(runs: ScrollFrames[]): ScrollFrames {
  const m = (k: keyof ScrollFrames) => median(runs.map((r) => r[k]));
  return {
    p50: m('p50'),
    p95: m('p95'),
    max: m('max'),
    longTasks: m('longTasks'),
    blockingMs: m('blockingMs'),
    cpuP50: m('cpuP50'),
    cpuP95: m('cpuP95'),
  };
}

/**
 * Scrolling both long lists, side by side; their other figures follow (from the last run).
 * `BENCH_LIST_RUNS=3` repeats both and reports each figure's median (a machine shared with other work).
 */
async function benchLists(): Promise<Array<Table | Figure>> {
  const runs = Math.max(1, Number(process.env.BENCH_LIST_RUNS) || 1);
  const sessionRuns: Array<Awaited<ReturnType<typeof benchSessionsRenderScroll>>> = [];
  const auditRuns: Array<Awaited<ReturnType<typeof benchAuditLogs>>> = [];
  for (let i = 0; i < runs; i++) {
    sessionRuns.push(await withPage((page) => benchSessionsRenderScroll(page, ctx)));
    auditRuns.push(await benchAuditLogs(ctx));
  }
  const sessions = sessionRuns.at(-1)!;
  const audit = auditRuns.at(-1)!;
  const row = (name: string, s: ScrollFrames, rows: number) => [
    name,
    `${s.p50} ms`,
    `${s.p95} ms`,
    `${s.max} ms`,
    `${s.longTasks} (${s.blockingMs} ms)`,
    `${s.cpuP50} / ${s.cpuP95} ms`,
    rows,
  ];
  return [
    {
      title: `Lists: scrolling 240 frames at 300 px a frame (18,000 px/s, a fling) and at 100 px a frame (6,000 px/s, a brisk wheel), Chromium${runs > 1 ? ` (median of ${runs} runs)` : ''}`,
      columns: [
        '',
        'frame p50',
        'frame p95',
        'frame max',
        'long tasks (blocking)',
        'main-thread CPU per frame p50 / p95',
        'rows in the DOM',
      ],
      rows: [
        row('sessions (2,000 loaded), 300 px a frame', medianScroll(sessionRuns.map((r) => r.scroll)), sessions.rows),
        row('sessions (2,000 loaded), 100 px a frame', medianScroll(sessionRuns.map((r) => r.wheel)), sessions.rows),
        row('audit log (10,000 loaded), 300 px a frame', medianScroll(auditRuns.map((r) => r.scroll)), audit.rows),
        row('audit log (10,000 loaded), 100 px a frame', medianScroll(auditRuns.map((r) => r.wheel)), audit.rows),
      ],
      note: 'Frame times are intervals between animation frames (16.7 ms: every frame on time at 60 Hz); the CPU time is what each frame cost the page, whatever else the machine ran.',
    },
    ...sessions.figures,
    ...audit.figures,
  ];
}

const suites: Array<[string, string, () => Promise<Array<Table | Figure>> | Array<Table | Figure>]> = [
  ['first-screen', 'First screen', () => benchFirstScreen(ctx)],
  ['proxy', 'Proxy', () => benchProxy()],
  ['lists', 'Lists', () => benchLists()],
  ['bundle', 'Build', () => benchBundle()],
  [
    'polling',
    'Sessions: upstream requests of one open list',
    () => withPage(async (page) => benchSessionsListRequests(page, { ...ctx, orgId: await firstOrgId() })),
  ],
  ['git-permissions', 'Git permissions', () => benchGitPermissions(ctx)],
  ['config-apply', 'Configuration as code: apply 1,000 resources', () => benchConfigApply({ baseUrl: ctx.baseUrl })],
];

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
let failed = false;
try {
  for (const [id, title, run] of suites) {
    if (only && !only.includes(id)) continue;
    console.log(`\n## ${title}`);
    try {
      for (const f of await run()) {
        if ('columns' in f) printTable(f);
        else
          console.log(`${f.name.padEnd(60)} ${String(f.value).padStart(10)} ${f.unit}${f.note ? `  (${f.note})` : ''}`);
      }
    } catch (err) {
      failed = true;
      console.log(`  failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
} finally {
  await browser.close();
  consoleProc.stop();
}
process.exit(failed ? 1 : 0);
