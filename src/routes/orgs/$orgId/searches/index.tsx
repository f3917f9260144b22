import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { searchesInfiniteQueryOptions } from '@/features/searches/api';
import { SearchesScreen } from '@/features/searches/searches-screen';
import { organizationQueryOptions } from '@/lib/organizations';

export const Route = createFileRoute('/orgs/$orgId/searches/')({
  loader: ({ context, params }) =>
    void context.queryClient
      .infiniteQuery(searchesInfiniteQueryOptions({ kind: 'org', orgId: params.orgId }))
      .catch(() => undefined),
  component: function OrgSearchesRoute() {
    const { orgId } = Route.useParams();
    const org = useQuery(organizationQueryOptions(orgId));
    return <SearchesScreen key={orgId} scope={{ kind: 'org', orgId }} orgName={org.data?.name} />;
  },
});
