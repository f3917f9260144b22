import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { organizationQueryOptions } from '@/lib/organizations';
import { sessionsInfiniteQueryOptions } from '@/features/sessions/api';
import { firstPageBriefly } from '@/features/sessions/list-query';
import { OrgSessionSearch, type SessionSearch } from '@/features/sessions/search';
import { SessionsList } from '@/features/sessions/sessions-list';

export const Route = createFileRoute('/orgs/$orgId/sessions/')({
  validateSearch: OrgSessionSearch,
  loaderDeps: ({ search }) => OrgSessionSearch.filters(search),
  loader: ({ context, params, deps, cause }) =>
    firstPageBriefly(context.queryClient.infiniteQuery(sessionsInfiniteQueryOptions(params.orgId, deps)), cause),
  component: function OrgSessionsRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const org = useQuery(organizationQueryOptions(orgId));
    return (
      <SessionsList
        scope={orgId}
        title="Sessions"
        description={org.data ? `Agent sessions of ${org.data.name}, newest first, updating live.` : undefined}
        search={{ ...search, org_ids: undefined }}
        onSearchChange={(patch) => void navigate({ search: (prev: SessionSearch) => ({ ...prev, ...patch }) })}
        onClearSearch={() => void navigate({ search: {} })}
      />
    );
  },
});
