import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { guardrailsQueryOptions, violationsInfiniteQueryOptions } from '@/features/guardrails/api';
import { ViolationSearch } from '@/features/guardrails/route-search';
import { toUrlSearch } from '@/features/guardrails/search';
import { ViolationsScreen } from '@/features/guardrails/violations-screen';
import { organizationQueryOptions } from '@/lib/organizations';

export const Route = createFileRoute('/orgs/$orgId/guardrails/')({
  validateSearch: ViolationSearch,
  search: { middlewares: [stripSearchParams(ViolationSearch.defaults)] },
  loaderDeps: ({ search }) => ViolationSearch.filters(search),
  loader: ({ context, deps, params }) => {
    void context.queryClient.infiniteQuery(violationsInfiniteQueryOptions(params.orgId, deps)).catch(() => undefined);
    void context.queryClient.query(guardrailsQueryOptions()).catch(() => undefined);
  },
  component: function OrgGuardrailsRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const org = useQuery(organizationQueryOptions(orgId));
    return (
      <ViolationsScreen
        key={orgId}
        scope={orgId}
        orgName={org.data?.name ?? orgId}
        search={search}
        onSearchChange={(patch) =>
          void navigate({ search: (prev: ViolationSearch) => toUrlSearch({ ...prev, ...patch }) })
        }
      />
    );
  },
});
