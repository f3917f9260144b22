/**
 * One cold load's waterfall, to see what a first screen waits for: `npx tsx bench/waterfall.ts <url> <ready text>`
 * (a console already running, e.g. `npm start`). Prints every request the page made (start and end, ms from the
 * navigation), the long tasks, the first contentful paint and when the ready text appeared, in time order.
 * `WATERFALL_LOADS=5` prints the median of each figure over that many cold loads instead of one load's list.
 */
import { chromium } from '@playwright/test';
import { median, readyProbe } from './lib';

const [url, readyText] = process.argv.slice(2);
if (!url || !readyText) {
  console.error('usage: npx tsx bench/waterfall.ts <url> <ready text>');
  process.exit(2);
}

/** The page's own timeline, gathered in the page (the same probe as the first-screen bench, plus long tasks). */
const probe = (text: string) => `(() => {
  ${readyProbe(text)}
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
})()`;

interface Row {
  at: number;
  end: number;
  what: string;
}

async function load(): Promise<Row[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript(probe(readyText!));
    const page = await context.newPage();
    await page.goto(url!);
    const ready = (await page.evaluate('window.__ready')) as number;
    // Everything the page asked for until a moment after it was ready (late requests show as such).
    await page.waitForTimeout(300);
    const timeline = (await page.evaluate(`(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const rows = [[0, nav.responseEnd, 'document ' + location.pathname + ' (ttfb ' + Math.round(nav.responseStart) + ')']];
      for (const r of performance.getEntriesByType('resource'))
        rows.push([r.startTime, r.responseEnd, r.initiatorType + ' ' + new URL(r.name).pathname + new URL(r.name).search + ' ' + r.transferSize + ' B']);
      for (const p of performance.getEntriesByType('paint')) rows.push([p.startTime, p.startTime, p.name]);
      for (const m of performance.getEntriesByType('mark')) rows.push([m.startTime, m.startTime, 'mark ' + m.name]);
      for (const [s, d] of window.__long) rows.push([s, s + d, 'long task ' + Math.round(d) + ' ms']);
      const d = nav.domContentLoadedEventStart;
      rows.push([d, d, 'DOMContentLoaded']);
      return rows;
    })()`)) as Array<[number, number, string]>;
    const rows = timeline.map(([at, end, what]) => ({ at, end, what }));
    rows.push({ at: ready, end: ready, what: `READY (${readyText})` });
    return rows.sort((a, b) => a.at - b.at);
  } finally {
    await browser.close();
  }
}

const loads = Math.max(1, Number(process.env.WATERFALL_LOADS) || 1);
if (loads === 1) {
  for (const r of await load()) {
    console.log(`${Math.round(r.at).toString().padStart(6)} → ${Math.round(r.end).toString().padStart(6)}  ${r.what}`);
  }
} else {
  // The median start and end of each request (by what it was, hashes and sizes aside), over several loads.
  const by = new Map<string, Array<[number, number]>>();
  for (let i = 0; i < loads; i++) {
    for (const r of await load()) {
      const key = r.what
        .replace(/-[\w-]{8}\.js/, '.js')
        .replace(/ \d+ B$/, '')
        .replace(/ \d+ ms$/, '');
      by.set(key, [...(by.get(key) ?? []), [r.at, r.end]]);
    }
  }
  const rows = [...by].map(([what, v]) => ({
    at: median(v.map((x) => x[0])),
    end: median(v.map((x) => x[1])),
    what: `${what} (${v.length}/${loads})`,
  }));
  for (const r of rows.sort((a, b) => a.at - b.at)) {
    console.log(`${Math.round(r.at).toString().padStart(6)} → ${Math.round(r.end).toString().padStart(6)}  ${r.what}`);
  }
}
