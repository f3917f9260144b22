import { createFileRoute } from '@tanstack/react-router';
import { rolesQueryOptions, serviceUsersInfiniteQueryOptions } from '@/features/members/api';
import { ServiceUsersSearch } from '@/features/members/route-search';
import { ServiceUsersScreen } from '@/features/members/service-users-screen';

const scope = { kind: 'enterprise' } as const;

export const Route = createFileRoute('/service-users/')({
  validateSearch: ServiceUsersSearch,
  loaderDeps: ({ search }) => ServiceUsersSearch.filters(search),
  loader: ({ context, deps }) => {
    void context.queryClient
      .infiniteQuery(serviceUsersInfiniteQueryOptions(scope, deps.inactive))
      .catch(() => undefined);
    void context.queryClient.query(rolesQueryOptions()).catch(() => undefined);
  },
  component: function ServiceUsersRoute() {
    const { inactive } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <ServiceUsersScreen
        scope={scope}
        includeInactive={inactive === 'true'}
        onIncludeInactiveChange={(v) => void navigate({ search: v ? { inactive: 'true' } : {} })}
      />
    );
  },
});
