/**
 * Benchmark helpers for `npm run bench` (Node + Playwright; never imported by the app):
 * - `benchSessionsListRequests`: upstream requests per minute that one open sessions list makes;
 * - `benchSessionsRenderScroll`: render and scroll cost of a sessions list with 2,000 loaded sessions.
 * Both take a Playwright page of a console served on the embedded sandbox.
 */
import type { Page } from '@playwright/test';

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
 * the frame times of scrolling the whole list top to bottom in 40 steps.
 */
export async function benchSessionsRenderScroll(
  page: Page,
  opts: { baseUrl: string; count?: number },
): Promise<BenchFigure[]> {
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

  const scroll = await list.evaluate(async (el) => {
    el.scrollTo({ top: 0 });
    const frames: number[] = [];
    let last = performance.now();
    const steps = 40;
    for (let i = 1; i <= steps; i++) {
      el.scrollTo({ top: (el.scrollHeight * i) / steps });
      await new Promise<void>((r) => requestAnimationFrame(() => r()));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    frames.sort((a, b) => a - b);
    return {
      mean: frames.reduce((n, f) => n + f, 0) / frames.length,
      p95: frames[Math.floor(frames.length * 0.95)] ?? 0,
      rowsInDom: el.querySelectorAll('[role="row"]').length,
    };
  });
  return [
    { name: 'sessions list: first rows shown', value: firstRowsMs, unit: 'ms' },
    { name: `sessions list: load ${target} sessions by scrolling`, value: loadAllMs, unit: 'ms' },
    {
      name: `sessions list (${target} loaded): scroll frame, mean`,
      value: Math.round(scroll.mean * 10) / 10,
      unit: 'ms',
    },
    {
      name: `sessions list (${target} loaded): scroll frame, p95`,
      value: Math.round(scroll.p95 * 10) / 10,
      unit: 'ms',
    },
    {
      name: `sessions list (${target} loaded): rows in the DOM`,
      value: scroll.rowsInDom,
      unit: 'rows',
      note: 'virtualized',
    },
  ];
}
