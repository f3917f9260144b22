/**
 * Benchmark helpers for `npm run bench` (Node + Playwright; never imported by the app):
 * - `benchSessionsListRequests`: upstream requests per minute that one open sessions list makes;
 * - `benchSessionsRenderScroll`: render and scroll cost of a sessions list with 2,000 loaded sessions.
 * Both take a Playwright page of a console served on the embedded sandbox.
 */
import type { Page } from '@playwright/test';
import { scrollFrames, type ScrollFrames } from './lib';

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

/**
 * Opens one organization's sessions list with the default refresh interval (10 s), waits for it to load,
 * then counts every `/api/` request the page sends during `seconds` (default 60) and reports them per
 * minute. The list polls only the live sessions in view, in one request per interval, so the expected
 * figure is 6 while live sessions are in view, and 0 once every session in view is terminal.
 */
export async function benchSessionsListRequests(
  page: Page,
  opts: { baseUrl: string; orgId: string; seconds?: number },
): Promise<BenchFigure[]> {
  const seconds = opts.seconds ?? 60;
  await page.goto(`${opts.baseUrl}/`);
  await page.evaluate(() => window.localStorage.removeItem('sessions.refresh-ms'));
  await page.goto(`${opts.baseUrl}/orgs/${opts.orgId}/sessions`);
  await page.getByRole('table', { name: 'Sessions' }).getByRole('row').nth(1).waitFor();
  let count = 0;
  const onRequest = (req: { url(): string }) => {
    if (new URL(req.url()).pathname.startsWith('/api/')) count++;
  };
  page.on('request', onRequest);
  await page.waitForTimeout(seconds * 1000);
  page.off('request', onRequest);
  const live = await page.getByTestId('live-indicator').textContent();
  return [
    {
      name: 'sessions list: upstream requests per minute',
      value: Math.round((count * 60) / seconds),
      unit: 'req/min',
      note: `one open list, refresh 10 s, over ${seconds} s; ${live?.trim() ?? ''}`,
    },
  ];
}

/**
 * Opens the enterprise sessions list (2,400 seeded sessions), scrolls until `count` (default 2,000) are
 * loaded, then measures: time to first rows, time to load them all, rows in the DOM (virtualization), and
 * the frame times, long tasks and main-thread CPU per frame of scrolling it 300 px a frame (a fling) and
 * 100 px a frame (a brisk wheel) for 240 frames each (`scrollFrames`, from rest at the top).
 */
export async function benchSessionsRenderScroll(
  page: Page,
  opts: { baseUrl: string; count?: number },
): Promise<{ figures: BenchFigure[]; scroll: ScrollFrames; wheel: ScrollFrames; rows: number }> {
  const target = opts.count ?? 2_000;
  await page.goto(`${opts.baseUrl}/`);
  await page.evaluate(() => window.localStorage.setItem('sessions.refresh-ms', '0'));
  const t0 = Date.now();
  await page.goto(`${opts.baseUrl}/sessions`);
  const list = page.getByTestId('data-table');
  await page.getByRole('table', { name: 'Sessions' }).getByRole('row').nth(1).waitFor();
  const firstRowsMs = Date.now() - t0;

  const t1 = Date.now();
  for (let i = 0; i < 200; i++) {
    const loaded = await page.evaluate(() => {
      const text = [...document.querySelectorAll('[aria-live="polite"]')].map((e) => e.textContent ?? '').join(' ');
      return Number(/Loaded ([\d,.\s]+)/.exec(text)?.[1]?.replace(/[^\d]/g, '') ?? 0);
    });
    if (loaded >= target) break;
    await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.waitForTimeout(150);
  }
  const loadAllMs = Date.now() - t1;

  const rowsInDom = await list.evaluate((el) => el.querySelectorAll('[role="row"]').length);
  await list.evaluate((el) => el.scrollTo({ top: 0 }));
  const scroll = await scrollFrames(page, '[data-testid="data-table"]');
  // And at a brisk wheel's pace (100 px a frame, 6,000 px/s), from rest at the top again.
  await list.evaluate((el) => el.scrollTo({ top: 0 }));
  const wheel = await scrollFrames(page, '[data-testid="data-table"]', 240, 100);
  const figures: BenchFigure[] = [
    { name: 'sessions list: first rows shown', value: firstRowsMs, unit: 'ms' },
    { name: `sessions list: load ${target} sessions by scrolling`, value: loadAllMs, unit: 'ms' },
    {
      name: `sessions list (${target} loaded): scroll frame p50`,
      value: scroll.p50,
      unit: 'ms',
      note: '240 frames, 300 px each',
    },
    {
      name: `sessions list (${target} loaded): scroll frame p95`,
      value: scroll.p95,
      unit: 'ms',
      note: `max ${scroll.max} ms`,
    },
    {
      name: `sessions list (${target} loaded): main-thread CPU per frame p95`,
      value: scroll.cpuP95,
      unit: 'ms',
      note: `p50 ${scroll.cpuP50} ms`,
    },
    {
      name: `sessions list (${target} loaded): long tasks while scrolling`,
      value: scroll.longTasks,
      unit: 'tasks',
      note: `${scroll.blockingMs} ms blocking`,
    },
    {
      name: `sessions list (${target} loaded): rows in the DOM`,
      value: rowsInDom,
      unit: 'rows',
      note: 'virtualized',
    },
  ];
  return { figures, scroll, wheel, rows: rowsInDom };
}
