import { createFileRoute } from '@tanstack/react-router';
import { rolesQueryOptions, serviceUsersInfiniteQueryOptions } from '@/features/members/api';
import { ServiceUsersSearch } from '@/features/members/route-search';
import { ServiceUsersScreen } from '@/features/members/service-users-screen';

export const Route = createFileRoute('/orgs/$orgId/service-users/')({
  validateSearch: ServiceUsersSearch,
  loaderDeps: ({ search }) => ServiceUsersSearch.filters(search),
  loader: ({ context, deps, params }) => {
    void context.queryClient
      .infiniteQuery(serviceUsersInfiniteQueryOptions({ kind: 'org', orgId: params.orgId }, deps.inactive))
      .catch(() => undefined);
    void context.queryClient.query(rolesQueryOptions()).catch(() => undefined);
  },
  component: function OrgServiceUsersRoute() {
    const { orgId } = Route.useParams();
    const { inactive } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <ServiceUsersScreen
        key={orgId}
        scope={{ kind: 'org', orgId }}
        includeInactive={inactive === 'true'}
        onIncludeInactiveChange={(v) => void navigate({ search: v ? { inactive: 'true' } : {} })}
      />
    );
  },
});
