import { createFileRoute } from '@tanstack/react-router';
import { membersInfiniteQueryOptions, rolesQueryOptions } from '@/features/members/api';
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
    return (
      <MembersScreen scope={scope} search={search} onSearchChange={(next) => void navigate({ search: clean(next) })} />
    );
  },
});
