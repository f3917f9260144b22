/**
 * The whole build's JS and CSS, as written and as sent: raw, and the gzip and Brotli copies the build writes
 * beside each file (what the console server sends a browser that accepts them). The first screen's share is
 * measured in Chromium by bench/first-screen.ts.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Table } from './lib';

const kb = (n: number) => `${Math.round((n / 1024) * 10) / 10} KB`;

export function benchBundle(): Table[] {
  const dir = join(import.meta.dirname, '..', 'dist', 'assets');
  const files = readdirSync(dir);
  const size = (f: string) => (existsSync(join(dir, f)) ? statSync(join(dir, f)).size : 0);
  const total = (ext: string) => {
    const picked = files.filter((f) => f.endsWith(ext));
    const sum = (suffix: string) => picked.reduce((a, f) => a + (size(f + suffix) || size(f)), 0);
    return { n: picked.length, raw: sum(''), gzip: sum('.gz'), br: sum('.br') };
  };
  const js = total('.js');
  const css = total('.css');
  return [
    {
      title: 'Whole build (dist/assets)',
      columns: ['', 'files', 'raw', 'gzip', 'Brotli'],
      rows: [
        ['JS', js.n, kb(js.raw), kb(js.gzip), kb(js.br)],
        ['CSS', css.n, kb(css.raw), kb(css.gzip), kb(css.br)],
      ],
    },
  ];
}
