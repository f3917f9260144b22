import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { Toaster } from '@/components/ui/toast';
import { AppShell } from '@/app/shell/app-shell';
import { NotFound, RouteError } from '@/app/shell/route-error';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: () => (
    <AppShell>
      <Outlet />
      <Toaster />
    </AppShell>
  ),
  errorComponent: (props) => (
    <AppShell>
      <RouteError {...props} />
    </AppShell>
  ),
  notFoundComponent: () => <NotFound />,
});
