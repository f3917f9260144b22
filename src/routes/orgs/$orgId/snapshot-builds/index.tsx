import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SNAPSHOT_BUILD_STATUSES } from '@/api/operations/snapshot-builds';
import { buildsInfiniteQueryOptions, type BuildFilters } from '@/features/snapshot-builds/api';
import { BuildsScreen } from '@/features/snapshot-builds/builds-screen';
import { organizationQueryOptions } from '@/lib/organizations';

const BuildsSearch = z.object({
  status: z.enum(SNAPSHOT_BUILD_STATUSES).optional().catch(undefined),
  active: z
    .union([z.boolean(), z.enum(['true', '1']).transform(() => true)])
    .optional()
    .transform((v) => v || undefined)
    .catch(undefined),
});

const filtersOf = (s: { status?: BuildFilters['status']; active?: boolean }): BuildFilters => ({
  ...(s.status ? { status: s.status } : {}),
  ...(s.active ? { active: true } : {}),
});

export const Route = createFileRoute('/orgs/$orgId/snapshot-builds/')({
  validateSearch: BuildsSearch,
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
