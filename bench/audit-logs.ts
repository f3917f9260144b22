/**
 * The audit-log explorer under load: DOM size and scroll frame time with 10,000 entries loaded, and export
 * throughput (entries per second) through the console's proxy. Drives the real screen in Chromium.
 */
import type { Browser, Page } from '@playwright/test';
import { scrollFrames, type Figure, type ScrollFrames } from './lib';

const TARGET_LOADED = 10_000;
const SCROLL_FRAMES = 240;
const SCROLL_STEP_PX = 300;
const WHEEL_STEP_PX = 100;

async function loadedCount(page: Page): Promise<{ loaded: number; total: number | null }> {
  const text = (await page.getByText(/^Loaded [\d,.\s]+/).textContent()) ?? '';
  const [a, b] = [...text.matchAll(/\d[\d,.\s]*/g)].map((m) => Number(m[0].replace(/\D/g, '')));
  return { loaded: a ?? 0, total: b ?? null };
}

async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting (last value ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function benchAuditLogs({
  baseUrl,
  browser,
}: {
  baseUrl: string;
  browser: Browser;
}): Promise<{ figures: Figure[]; scroll: ScrollFrames; wheel: ScrollFrames; rows: number }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  try {
    await page.goto(`${baseUrl}/audit-logs`);
    const list = page.getByRole('table', { name: 'Audit-log entries' });
    await list.getByRole('row').nth(1).waitFor();

    // Scroll to the end until 10,000 entries are loaded (the list fetches the next page near the end).
    const loadStarted = performance.now();
    for (;;) {
      const { loaded } = await loadedCount(page);
      if (loaded >= TARGET_LOADED) break;
      await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await waitFor(
        () => loadedCount(page),
        (v) => v.loaded > loaded,
        30_000,
      );
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const { loaded, total } = await loadedCount(page);

    await list.evaluate((el) => el.scrollTo({ top: 0 }));
    await page.waitForTimeout(300); // (scrollFrames also starts from rest)
    const dom = await page.evaluate(() => ({
      nodes: document.getElementsByTagName('*').length,
      rows: document.querySelectorAll('[role="row"][aria-rowindex]').length,
    }));

    // Scroll by a fixed step every animation frame, and time each frame.
    const scroll = await scrollFrames(
      page,
      '[role="table"][aria-label="Audit-log entries"]',
      SCROLL_FRAMES,
      SCROLL_STEP_PX,
    );
    // And at a brisk wheel's pace (100 px a frame, 6,000 px/s), from rest at the top again.
    await list.evaluate((el) => el.scrollTo({ top: 0 }));
    const wheel = await scrollFrames(
      page,
      '[role="table"][aria-label="Audit-log entries"]',
      SCROLL_FRAMES,
      WHEEL_STEP_PX,
    );
    const round = (n: number) => Math.round(n * 10) / 10;

    // Export everything through the proxy: from the click to the finished download.
    const download = page.waitForEvent('download', { timeout: 300_000 });
    const exportStarted = performance.now();
    await page.getByRole('button', { name: 'Export JSON Lines' }).click();
    const file = await download;
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    const exported = Number(
      ((await page.getByText(/^Exported [\d,.\s]+ entries/).textContent()) ?? '')
        .replace(/^Exported ([\d,.\s]+) entries.*$/, '$1')
        .replace(/\D/g, ''),
    );
    await file.delete();

    const figures: Figure[] = [
      {
        name: `audit logs: DOM nodes, ${loaded.toLocaleString('en-US')} entries loaded`,
        value: dom.nodes,
        unit: 'nodes',
        note: `${dom.rows} rows rendered; loading took ${round(loadSeconds)} s`,
      },
      {
        name: 'audit logs: scroll frame time p50',
        value: scroll.p50,
        unit: 'ms',
        note: `${SCROLL_FRAMES} frames, ${SCROLL_STEP_PX} px each`,
      },
      {
        name: 'audit logs: scroll frame time p95',
        value: scroll.p95,
        unit: 'ms',
        note: `max ${scroll.max} ms`,
      },
      {
        name: 'audit logs: main-thread CPU per frame p95',
        value: scroll.cpuP95,
        unit: 'ms',
        note: `p50 ${scroll.cpuP50} ms`,
      },
      {
        name: 'audit logs: long tasks while scrolling',
        value: scroll.longTasks,
        unit: 'tasks',
        note: `${scroll.blockingMs} ms blocking`,
      },
      {
        name: 'audit logs: export throughput via proxy',
        value: Math.round(exported / exportSeconds),
        unit: 'entries/s',
        note: `JSON Lines, ${exported.toLocaleString('en-US')} of ${total?.toLocaleString('en-US') ?? '?'} entries in ${round(exportSeconds)} s, 200 per page`,
      },
    ];
    return { figures, scroll, wheel, rows: dom.rows };
  } finally {
    await context.close();
  }
}
