import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { repositoriesInfiniteQueryOptions } from '@/features/indexing/api';
import { IndexingScreen } from '@/features/indexing/indexing-screen';
import { organizationQueryOptions } from '@/lib/organizations';

export const Route = createFileRoute('/orgs/$orgId/indexing/')({
  loader: ({ context, params }) =>
    void context.queryClient.infiniteQuery(repositoriesInfiniteQueryOptions(params.orgId)).catch(() => undefined),
  component: function IndexingRoute() {
    const { orgId } = Route.useParams();
    const org = useQuery(organizationQueryOptions(orgId));
    return <IndexingScreen key={orgId} orgId={orgId} orgName={org.data?.name} />;
  },
});
