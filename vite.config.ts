import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './scripts/precompress.ts';

/**
 * The stylesheet first in the built HTML's head, before the entry script and its module preloads: the painted
 * shell (index.html) needs only the CSS, so its request should not queue behind the scripts'.
 */
function stylesheetFirst(): Plugin {
  return {
    name: 'console:stylesheet-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const sheets = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        const rest = sheets.reduce((h, tag) => h.replace(tag, ''), html);
        return rest.replace(
          /(\s*)<script type="module"/,
          (m, space: string) => `${sheets.join('')}${space}${m.trim()}`,
        );
      },
    },
  };
}

// The dev server (`npm run dev`) runs Vite in middleware mode inside the console server, so the proxy,
// the sandbox and the guards are the same as in production; see src/cli/dev.ts.
export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      quoteStyle: 'single',
      // A route's loader rides in its component's chunk: one request for both, and the areas' query code
      // (and the contract it reads) stays off the first screen.
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
    }),
    react(),
    tailwindcss(),
    stylesheetFirst(),
    precompress(),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    sourcemap: false,
    // The console server reads it to preload each URL's route chunks with the HTML (src/server/static.ts).
    manifest: true,
    // The first screen's chunk holds React, the router, TanStack Query and the shell (~700 kB, ~150 KB Brotli).
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // The contract builds zod schemas and operation tables at module level; declaring those builders pure
      // lets the bundler drop the tables a chunk does not use (e.g. a route's search schema importing one
      // constant from an area's contract no longer pulls that area's whole operation table into the shell).
      treeshake: {
        manualPureFunctions: ['z', 'defineOperations', 'pageOf', 'queryArray', 'queryInt', 'First', 'PageQuery'],
      },
      output: {
        codeSplitting: {
          groups: [
            {
              // Everything the entry imports statically, in one chunk: over HTTP/1.1 the browser fetches six files
              // at a time, and the entry's closure was 31 chunks (it fetched them in five rounds, ~400 ms on a
              // busy machine, where the floor app fetches one file). Lazy route chunks stay split as they were.
              name: 'app',
              tags: ['$initial'],
              // Not a module's dependencies by default: `@/api/page` re-exports the page walk (which the shell's code
              // reads) beside `pageOf`, the envelope's schema; following it would put zod in the first screen's
              // chunk. zod and `pageOf` stay in the lazy chunks of the screens that parse answers.
              includeDependenciesRecursively: false,
              test: (id) => !/node_modules[\\/]zod[\\/]|src[\\/]api[\\/]page\.ts$/.test(id),
            },
          ],
        },
      },
    },
  },
});
