import { createFileRoute } from '@tanstack/react-router';
import {
  membersInfiniteQueryOptions,
  orgIdpUsersInfiniteQueryOptions,
  rolesQueryOptions,
} from '@/features/members/api';
import { MembersScreen } from '@/features/members/members-screen';
import { OrgMembersSearch } from '@/features/members/route-search';
import { clean } from '@/features/members/search';

export const Route = createFileRoute('/orgs/$orgId/members/')({
  validateSearch: OrgMembersSearch,
  loaderDeps: ({ search }) => OrgMembersSearch.filters(search),
  loader: ({ context, deps, params }) => {
    const { orgId } = params;
    void (
      deps.via === 'idp'
        ? context.queryClient.infiniteQuery(orgIdpUsersInfiniteQueryOptions(orgId, deps.email))
        : context.queryClient.infiniteQuery(membersInfiniteQueryOptions({ kind: 'org', orgId }, deps.email))
    ).catch(() => undefined);
    void context.queryClient.query(rolesQueryOptions()).catch(() => undefined);
  },
  component: function OrgMembersRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <MembersScreen
        key={orgId}
        scope={{ kind: 'org', orgId }}
        search={search}
        onSearchChange={(next) => void navigate({ search: clean({ ...next, org: undefined }) })}
      />
    );
  },
});
