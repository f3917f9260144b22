import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { buildsInfiniteQueryOptions, type BuildFilters } from '@/features/snapshot-builds/api';
import { BuildsScreen } from '@/features/snapshot-builds/builds-screen';
import { organizationQueryOptions } from '@/lib/organizations';
import { buildsSearch } from '../../../-search';

const filtersOf = (s: { status?: BuildFilters['status']; active?: boolean }): BuildFilters => ({
  ...(s.status ? { status: s.status } : {}),
  ...(s.active ? { active: true } : {}),
});

export const Route = createFileRoute('/orgs/$orgId/snapshot-builds/')({
  validateSearch: buildsSearch,
  loaderDeps: ({ search }) => filtersOf(search),
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
        filters={filtersOf(search)}
        onFiltersChange={(next) => void navigate({ search: filtersOf(next) })}
      />
    );
  },
});
