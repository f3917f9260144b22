import { createFileRoute } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { rolesQueryOptions, serviceUserKeys, serviceUsersInfiniteQueryOptions } from '@/features/members/api';
import { SettingsHistory } from '@/features/organizations/settings-history';
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
    const qc = useQueryClient();
    return (
      <ServiceUsersScreen
        scope={scope}
        includeInactive={inactive === 'true'}
        onIncludeInactiveChange={(v) => void navigate({ search: v ? { inactive: 'true' } : {} })}
        history={
          <SettingsHistory
            collapsed
            title="History of service users’ roles"
            filter={{ kind: ['roles'], key_prefix: 'service-user:' }}
            onRestored={() => qc.invalidateQueries({ queryKey: serviceUserKeys.all })}
          />
        }
      />
    );
  },
});
