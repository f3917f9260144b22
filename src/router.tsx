/** The router, with the query client in its context. */
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { parseSearch, stringifySearch } from '@/lib/search-params';
import type { QueryClient } from '@tanstack/react-query';
import { PagePending } from '@/app/shell/page-pending';
import { NotFound } from '@/app/shell/route-error';
import { routeTree } from './routeTree.gen';

/** `history`: the browser's by default; the first-screen render on the server (src/entry-server.tsx) gives its URL's. */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    context: { queryClient },
    parseSearch,
    stringifySearch,
    defaultPreload: 'intent',
    // Queries own freshness; the router should not cache loader results on top.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultPendingComponent: PagePending,
    // The page's skeleton shows when a page's data takes a while (the router's default second): not sooner, so a
    // filter change that reruns the loader never swaps the page (and its open filter menu) for a skeleton.
    defaultNotFoundComponent: () => <NotFound />,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
