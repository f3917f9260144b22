import { createFileRoute } from '@tanstack/react-router';
import { rolesQueryOptions, serviceUsersInfiniteQueryOptions } from '@/features/members/api';
import { serviceUsersSearch } from '../-search';
import { ServiceUsersScreen } from '@/features/members/service-users-screen';

const scope = { kind: 'enterprise' } as const;

export const Route = createFileRoute('/service-users/')({
  validateSearch: serviceUsersSearch,
  loaderDeps: ({ search }) => ({ inactive: search.inactive === 'true' }),
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
