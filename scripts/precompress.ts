/**
 * A Vite build plugin: once the build is written, every text asset of the output (JS, CSS, HTML, SVG, JSON…)
 * gets a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside it, each kept only when smaller.
 * The console server sends the best copy the browser accepts (src/server/static.ts); compressing once at build
 * time lets it use the slowest, smallest settings and spend nothing per request.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest', '.map']);
/** Below this, a compressed copy saves less than the headers cost. */
const MIN_BYTES = 256;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Writes the `.br` and `.gz` copies of every compressible file under `dir`; answers how many were written. */
export async function precompressDir(dir: string): Promise<number> {
  const files = filesUnder(dir).filter((f) => COMPRESSIBLE.has(extname(f)));
  let written = 0;
  await Promise.all(
    files.map(async (file) => {
      const raw = readFileSync(file);
      if (raw.length < MIN_BYTES) return;
      const [br, gzipped] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gz(raw, { level: 9 }),
      ]);
      if (br.length < raw.length) {
        writeFileSync(`${file}.br`, br);
        written++;
      }
      if (gzipped.length < raw.length) {
        writeFileSync(`${file}.gz`, gzipped);
        written++;
      }
    }),
  );
  return written;
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'console:precompress',
    apply: (config, env) => env.command === 'build' && !config.build?.ssr,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // After every file (public ones included) is in the output.
    async closeBundle() {
      if (existsSync(outDir)) await precompressDir(outDir);
    },
  };
}
