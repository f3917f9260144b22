import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { AppShell } from '@/features/shell/app-shell';
import { NotFound, RouteError } from '@/features/shell/route-error';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: () => (
    <AppShell>
      <Outlet />
    </AppShell>
  ),
  errorComponent: (props) => (
    <AppShell>
      <RouteError {...props} />
    </AppShell>
  ),
  notFoundComponent: () => <NotFound />,
});
