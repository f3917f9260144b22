import { createFileRoute } from '@tanstack/react-router';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { OrganizationsOverview } from '@/features/organizations/organizations-overview';

export const Route = createFileRoute('/')({
  loader: ({ context }) =>
    void context.queryClient.infiniteQuery(organizationsInfiniteQueryOptions()).catch(() => undefined),
  component: OrganizationsOverview,
});
