import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isApiError } from '@/lib/api-error';
import { createQueryClient } from '@/lib/query-client';
import { applyTheme, readTheme } from '@/lib/theme';
import { createAppRouter } from './router';
import './styles.css';

applyTheme(readTheme());
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme(readTheme()));

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

// The shell is already painted from the HTML, and the URL's route chunks and first answers were requested with it
// (src/server/static.ts). Resolving the route before the first render makes React's first commit the screen
// itself, not a tree that suspends on the route's chunk and then waits out React's reveal throttle. (A promise,
// not a top-level await, which would make the bundler split the entry into many more chunks.)
void router
  .load()
  .catch(() => undefined)
  .then(render);

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
