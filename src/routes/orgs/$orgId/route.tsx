import { createFileRoute, notFound, Outlet } from '@tanstack/react-router';
import { isApiError } from '@/lib/api-error';
import { organizationQueryOptions } from '@/lib/organizations';
import { rememberOrg } from '@/lib/last-org';
import { NotFound } from '@/app/shell/route-error';

export const Route = createFileRoute('/orgs/$orgId')({
  loader: async ({ context, params }) => {
    try {
      await context.queryClient.query(organizationQueryOptions(params.orgId));
      rememberOrg(params.orgId);
    } catch (err) {
      if (isApiError(err) && err.status === 404) throw notFound();
      throw err;
    }
  },
  notFoundComponent: () => <NotFound what="Organization not found" />,
  component: Outlet,
});
