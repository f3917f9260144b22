import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
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

/**
 * The first-screen renderer (src/entry-server.tsx) built for Node beside the app, into `dist-ssr/`: every build of
 * the app (`npm run build`, `npm start`'s build, the tests') writes both, so the server never renders with an app
 * older than the one it serves. Outside `dist/`, which is served to browsers.
 */
function serverBundle(): Plugin {
  let run = false;
  return {
    name: 'console:server-bundle',
    apply: (config, env) => env.command === 'build' && !config.build?.ssr,
    configResolved(config) {
      run = !config.build.watch;
    },
    async closeBundle() {
      if (!run) return;
      await build({
        configFile: fileURLToPath(new URL('./vite.config.ts', import.meta.url)),
        logLevel: 'warn',
        publicDir: false,
        build: {
          // The app's renderer, and the thread that runs it (src/server/first-screen-worker.ts), which loads it.
          ssr: true,
          outDir: 'dist-ssr',
          emptyOutDir: true,
          manifest: false,
          rolldownOptions: {
            input: {
              'entry-server': 'src/entry-server.tsx',
              'first-screen-worker': 'src/server/first-screen-worker.ts',
            },
            output: { codeSplitting: true },
          },
        },
      });
    },
  };
}

/**
 * The app's code is evaluated after the page's first frame, not before it. The HTML carries the first screen
 * (rendered on the server, or the painted shell), and a module script in the head runs as soon as the document
 * is parsed, in the same task: its ~100 ms of evaluation came before the first paint, holding back a screen that
 * was already in the page. The entry is fetched and compiled with the HTML as before (`modulepreload`), and an
 * inline script at the end of the body starts it once a frame has been painted (at once in a hidden tab, which
 * paints no frames). The console server allows the inline script by its hash (src/server/static.ts).
 */
function entryAfterFirstPaint(): Plugin {
  return {
    name: 'console:entry-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
        if (!entry) return html;
        const boot = `<script>(function () {
        var s = document.createElement('script');
        s.type = 'module';
        s.crossOrigin = '';
        s.src = ${JSON.stringify(entry[1])};
        function start() { document.head.appendChild(s); }
        if (document.visibilityState === 'hidden') start();
        else requestAnimationFrame(function () { setTimeout(start, 0); });
      })();</script>`;
        return html
          .replace(entry[0], `<link rel="modulepreload" crossorigin href="${entry[1]}">`)
          .replace('</body>', `  ${boot}\n  </body>`);
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
    entryAfterFirstPaint(),
    precompress(),
    serverBundle(),
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
