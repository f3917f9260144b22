import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { buildsInfiniteQueryOptions } from '@/features/snapshot-builds/api';
import { BuildsScreen } from '@/features/snapshot-builds/builds-screen';
import { organizationQueryOptions } from '@/lib/organizations';
import { BuildsSearch } from '@/features/snapshot-builds/search';

export const Route = createFileRoute('/orgs/$orgId/snapshot-builds/')({
  validateSearch: BuildsSearch,
  loaderDeps: ({ search }) => BuildsSearch.filters(search),
  loader: ({ context, deps, params }) =>
    void context.queryClient.infiniteQuery(buildsInfiniteQueryOptions(params.orgId, deps)).catch(() => undefined),
  component: function SnapshotBuildsRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const org = useQuery(organizationQueryOptions(orgId));
    return (
      <BuildsScreen
        orgId={orgId}
        orgName={org.data?.name}
        filters={BuildsSearch.filters(search)}
        onFiltersChange={(next) => void navigate({ search: BuildsSearch.parse(next) })}
      />
    );
  },
});
