import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isApiError } from '@/lib/api-error';
import { createQueryClient } from '@/lib/query-client';
import { applyTheme, readTheme } from '@/lib/theme';
import { createAppRouter } from './router';
import './styles.css';

// Marks of the first screen's steps, read by the bench's waterfall (bench/waterfall.ts): cheap, and only marks.
performance.mark('console:entry-run');
applyTheme(readTheme());
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme(readTheme()));

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

/** How long the first render waits for the answers the route's loader asked for (the screen's own data). */
const FIRST_ANSWERS_WAIT_MS = 1000;

/**
 * Resolves once no query is fetching (the answers the route's loaders started, which the HTML preloaded ahead of
 * the scripts, so usually already in), or after `ms`: a slow answer then arrives into the rendered page.
 */
function screenAnswers(ms: number): Promise<void> {
  if (queryClient.isFetching() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() === 0) done();
    });
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}

// The shell is already painted from the HTML, and the URL's route chunks and first answers were requested with it
// (src/server/static.ts). Resolving the route, and the answers its loader asked for, before the first render makes
// React's first commit the screen itself with its rows: not a tree that suspends on the route's chunk and waits
// out React's reveal throttle, nor an empty list that grows (a layout shift) and renders twice. The shell's own
// answers (who is signed in, the queue, the config) are not waited for: its components ask when they render.
// (A promise, not a top-level await, which would make the bundler split the entry into many more chunks.)
void router
  .load()
  .catch(() => undefined)
  .then(() => {
    performance.mark('console:route-loaded');
    return screenAnswers(FIRST_ANSWERS_WAIT_MS);
  })
  .then(() => {
    performance.mark('console:answers-in');
    render();
  });

function render() {
  createRoot(document.getElementById('root')!, {
    // Errors a screen shows in place (API problems) are expected; only unexpected ones are logged.
    onCaughtError: (error, info) => {
      if (isApiError(error)) return;
      console.error(error, info.componentStack);
    },
  }).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
