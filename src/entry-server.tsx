/**
 * The first screen rendered on the console server, so the page carries the screen itself (its heading and its
 * first rows), not only the shell's boxes: src/server/first-screen-worker.ts calls it for the deep links whose own
 * answers src/app/shell/first-screen.ts names, and src/server/static.ts puts the markup in the painted shell's
 * place. It is a picture of the app, not a hydrated tree: the same components, on the same answers, draw the same
 * boxes, and the app's first commit (src/main.tsx waits for the same answers, which the page embeds) replaces it
 * (AppShell removes `#first-paint`) without a shift.
 *
 * Built by Vite as a server bundle beside the app (vite.config.ts: `dist-ssr/entry-server.js`). The app's `fetch`
 * of same-origin URLs is answered by the worker over loopback to the console itself, with the browser's cookie,
 * so the markup holds only what the console would answer that browser.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
// eslint-disable-next-line no-restricted-imports -- React's own server renderer (a package), not the console's Node code
import { renderToString } from 'react-dom/server';
import { createQueryClient } from '@/lib/query-client';
import { createAppRouter } from './router';

/**
 * The markup of the app at `url` once its route's answers are in, or null when it cannot be rendered as the app
 * would show it: a route that failed or was not found, an answer that failed (the app shows those in place, with
 * what it knows of the browser), or answers not in within `waitMs`.
 */
export async function renderFirstScreen(url: string, waitMs: number, signal: AbortSignal): Promise<string | null> {
  const queryClient = createQueryClient();
  // One attempt each: the browser's app retries for itself; the server answers with the shell instead.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [url] }));
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    signal.addEventListener('abort', () => resolve(), { once: true });
    void router
      .load()
      .catch(() => undefined)
      // The route's loaders start their answers without waiting for them (the screen shows its skeleton); as in
      // the browser's first render (src/main.tsx), the picture waits for them.
      .then(() => settled(queryClient, signal))
      .then(() => {
        clearTimeout(timer);
        resolve();
      });
  });
  await done;
  if (signal.aborted || queryClient.isFetching() > 0) return null;
  const state = router.state;
  if (state.status !== 'idle' || state.matches.some((m) => m.status !== 'success')) return null;
  if (
    queryClient
      .getQueryCache()
      .getAll()
      .some((q) => q.state.status === 'error')
  )
    return null;
  const html = renderToString(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  queryClient.clear();
  // The router's scroll-restoration script is for a hydrated page; the page's policy allows no inline script but
  // its own, and this markup is a picture.
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
}

function settled(queryClient: ReturnType<typeof createQueryClient>, signal: AbortSignal): Promise<void> {
  if (queryClient.isFetching() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() === 0 || signal.aborted) {
        unsubscribe();
        resolve();
      }
    });
  });
}
