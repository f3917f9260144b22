/** JS and CSS bytes, raw and gzip: what the first screen loads (measured in Chromium) and the whole build. */
import type { Browser } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Figure } from './lib';

const kb = (n: number) => Math.round((n / 1024) * 10) / 10;

export async function benchBundle({ baseUrl, browser }: { baseUrl: string; browser: Browser }): Promise<Figure[]> {
  const page = await browser.newPage();
  const loaded = new Map<string, Buffer>();
  page.on('response', async (res) => {
    const url = res.url();
    if (!/\.(js|css)(\?|$)/.test(url)) return;
    try {
      loaded.set(url, await res.body());
    } catch {
      // a response without a body (e.g. aborted) does not count
    }
  });
  await page.goto(baseUrl);
  await page.getByRole('table', { name: 'Organizations' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.close();

  const sum = (bufs: Buffer[], ext: string) => {
    const picked = bufs.filter((_, i) => [...loaded.keys()][i]!.includes(ext));
    return { raw: picked.reduce((a, b) => a + b.length, 0), gzip: picked.reduce((a, b) => a + gzipSync(b).length, 0) };
  };
  const first = [...loaded.values()];
  const firstJs = sum(first, '.js');
  const firstCss = sum(first, '.css');

  const dir = join(import.meta.dirname, '..', 'dist', 'assets');
  const files = readdirSync(dir).map((f) => ({ f, buf: readFileSync(join(dir, f)) }));
  const total = (ext: string) => {
    const picked = files.filter((x) => x.f.endsWith(ext));
    return {
      raw: picked.reduce((a, x) => a + x.buf.length, 0),
      gzip: picked.reduce((a, x) => a + gzipSync(x.buf).length, 0),
      n: picked.length,
    };
  };
  const allJs = total('.js');
  const allCss = total('.css');
  return [
    { name: 'first screen JS (raw)', value: kb(firstJs.raw), unit: 'KB' },
    { name: 'first screen JS (gzip)', value: kb(firstJs.gzip), unit: 'KB' },
    { name: 'first screen CSS (raw)', value: kb(firstCss.raw), unit: 'KB' },
    { name: 'first screen CSS (gzip)', value: kb(firstCss.gzip), unit: 'KB' },
    { name: 'total JS (raw)', value: kb(allJs.raw), unit: 'KB', note: `${allJs.n} chunks` },
    { name: 'total JS (gzip)', value: kb(allJs.gzip), unit: 'KB' },
    { name: 'total CSS (raw)', value: kb(allCss.raw), unit: 'KB' },
    { name: 'total CSS (gzip)', value: kb(allCss.gzip), unit: 'KB' },
  ];
}
