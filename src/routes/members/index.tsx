import { createFileRoute } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { memberKeys, membersInfiniteQueryOptions, rolesQueryOptions } from '@/features/members/api';
import { SettingsHistory } from '@/features/organizations/settings-history';
import { MembersScreen } from '@/features/members/members-screen';
import { MembersSearch } from '@/features/members/route-search';
import { clean } from '@/features/members/search';

const scope = { kind: 'enterprise' } as const;

export const Route = createFileRoute('/members/')({
  validateSearch: MembersSearch,
  loaderDeps: ({ search }) => MembersSearch.filters(search),
  loader: ({ context, deps }) => {
    void context.queryClient.infiniteQuery(membersInfiniteQueryOptions(scope, deps.email)).catch(() => undefined);
    void context.queryClient.query(rolesQueryOptions()).catch(() => undefined);
  },
  component: function MembersRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const qc = useQueryClient();
    return (
      <MembersScreen
        scope={scope}
        search={search}
        onSearchChange={(next) => void navigate({ search: clean(next) })}
        history={
          <SettingsHistory
            collapsed
            title="History of members’ roles"
            filter={{ kind: ['roles'], key_prefix: 'user:' }}
            onRestored={() => qc.invalidateQueries({ queryKey: memberKeys.all })}
          />
        }
      />
    );
  },
});
