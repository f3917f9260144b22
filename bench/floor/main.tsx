/**
 * The floor the console's first screen is measured against (bench/first-screen.ts): the console's own stack
 * (React, the router, TanStack Query, zod, react-hook-form) on one route that fetches one small JSON list and
 * shows it, and nothing else. Built by the bench with Vite into a temporary directory.
 */
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

const Organization = z.object({ org_id: z.string(), name: z.string(), created_at: z.number() });
const Page = z.object({ items: z.array(Organization), end_cursor: z.string().nullable(), has_next_page: z.boolean() });

const queryClient = new QueryClient();

function Organizations() {
  const { register, watch } = useForm({ defaultValues: { filter: '' } });
  const filter = watch('filter');
  const { data } = useQuery({
    queryKey: ['organizations'],
    queryFn: async ({ signal }) => Page.parse(await (await fetch('/api/organizations', { signal })).json()),
  });
  return (
    <main>
      <h1>Organizations</h1>
      <input aria-label="Filter" {...register('filter')} />
      <ul aria-label="Organizations">
        {data?.items
          .filter((o) => o.name.includes(filter))
          .map((o) => (
            <li key={o.org_id}>{o.name}</li>
          ))}
      </ul>
    </main>
  );
}

const rootRoute = createRootRoute({ component: Outlet });
const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Organizations });
const router = createRouter({ routeTree: rootRoute.addChildren([indexRoute]) });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
