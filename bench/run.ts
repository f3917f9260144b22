/**
 * `npm run bench`: benchmarks, not timed tests. Starts the console on a fresh sandbox (as `npm start` does)
 * and prints each figure.
 */
import { chromium, type Page } from '@playwright/test';
import { benchAuditLogs } from './audit-logs';
import { benchBundle } from './bundle';
import { startConsoleProcess, type Figure } from './lib';
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

const suites: Array<[string, () => Promise<Figure[]>]> = [
  ['Bundle', () => benchBundle(ctx)],
  ['Proxy', () => benchProxy(ctx)],
  ['Sessions: render and scroll with 2,000 loaded', () => withPage((page) => benchSessionsRenderScroll(page, ctx))],
  [
    'Sessions: upstream requests of one open list',
    () => withPage(async (page) => benchSessionsListRequests(page, { ...ctx, orgId: await firstOrgId() })),
  ],
  ['Git permissions', () => benchGitPermissions(ctx)],
  ['Audit logs', () => benchAuditLogs(ctx)],
];

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

let failed = false;
try {
  for (const [title, run] of suites) {
    console.log(`\n## ${title}`);
    try {
      for (const f of await run()) {
        console.log(`${f.name.padEnd(52)} ${String(f.value).padStart(10)} ${f.unit}${f.note ? `  (${f.note})` : ''}`);
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
