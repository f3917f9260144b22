/**
 * The whole build's JS and CSS, as written and as sent: raw, and the gzip and Brotli copies the build writes
 * beside each file (what the console server sends a browser that accepts them). And the first screen's share,
 * from the build's manifest: the entry's static imports and the chunks the console server preloads for a URL's
 * route (src/server/static.ts), in Brotli bytes, for `/` and an organization's sessions list (`npx tsx
 * bench/bundle.ts` prints them alone). The bytes a browser actually fetched are measured by bench/first-screen.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chunksForPath, routeChunksOf, type ManifestChunk } from '../src/server/static';
import type { Table } from './lib';

const dist = join(import.meta.dirname, '..', 'dist');
const kb = (n: number) => `${Math.round((n / 1024) * 10) / 10} KB`;
/** A built file's size as sent: its Brotli copy's, else its own. */
const sent = (file: string) => {
  const path = join(dist, file);
  return existsSync(`${path}.br`) ? statSync(`${path}.br`).size : existsSync(path) ? statSync(path).size : 0;
};

export interface FirstScreenBytes {
  /** The entry chunk and every chunk it imports statically. */
  entry: { files: number; brotli: number };
  /** Those plus the chunks of the URL's route (and the layouts around it) that the entry does not load. */
  byPath: Array<{ path: string; files: number; brotli: number }>;
}

/** The first screen's JavaScript in Brotli bytes, from dist/.vite/manifest.json. */
export function firstScreenBytes(paths = ['/', '/orgs/org-1/sessions']): FirstScreenBytes {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) visit(i);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const entryFiles = [...seen].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  const entry = { files: entryFiles.length, brotli: entryFiles.reduce((a, f) => a + sent(f), 0) };
  const routes = routeChunksOf(manifest);
  const byPath = paths.map((path) => {
    const extra = chunksForPath(routes, path).map((href) => href.slice(1));
    return { path, files: entry.files + extra.length, brotli: entry.brotli + extra.reduce((a, f) => a + sent(f), 0) };
  });
  return { entry, byPath };
}

export function benchBundle(): Table[] {
  const dir = join(dist, 'assets');
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
    firstScreenTable(),
  ];
}

/** The first screen's JavaScript from the manifest, against the limit (140 KB Brotli). */
export function firstScreenTable(): Table {
  const bytes = firstScreenBytes();
  return {
    title: "First screen's JavaScript by the build's manifest (Brotli, as sent)",
    columns: ['', 'files', 'Brotli', 'bytes'],
    rows: [
      ['entry and its static imports', bytes.entry.files, kb(bytes.entry.brotli), bytes.entry.brotli],
      ...bytes.byPath.map((p) => [`with the route chunks of ${p.path}`, p.files, kb(p.brotli), p.brotli]),
    ],
    note: 'Limit: 140 KB (143,360 B) for the first screen, route chunks included.',
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./lib');
  printTable(firstScreenTable());
}
