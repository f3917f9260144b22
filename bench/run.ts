/**
 * `npm run bench`: benchmarks, not timed tests. Starts the console on a fresh sandbox (as `npm start` does)
 * and prints each figure.
 */
import { chromium } from '@playwright/test';
import { benchBundle } from './bundle';
import { startConsoleProcess, type Figure } from './lib';
import { benchProxy } from './proxy';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const consoleProc = await startConsoleProcess({ SANDBOX_RATE_LIMIT: '0' });
const ctx = { baseUrl: consoleProc.url, sandboxUrl: consoleProc.sandboxUrl, browser };

const suites: Array<[string, () => Promise<Figure[]>]> = [
  ['Bundle', () => benchBundle(ctx)],
  ['Proxy', () => benchProxy(ctx)],
];

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
