import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { presetRange } from '@/api/billing-day';
import { cyclesQueryOptions, dailyConsumptionQueryOptions } from '@/features/usage/api';
import { cleanUsageSearch, DEFAULT_PRESET, needsCycles, UsageSearch } from '@/features/usage/search';
import { UsageDashboard } from '@/features/usage/usage-dashboard';
import { organizationQueryOptions } from '@/lib/organizations';

export const Route = createFileRoute('/orgs/$orgId/usage/')({
  validateSearch: UsageSearch,
  loaderDeps: ({ search }) => UsageSearch.filters(search),
  loader: ({ context, deps, params }) => {
    void context.queryClient.query(cyclesQueryOptions()).catch(() => undefined);
    if (!needsCycles(deps.preset)) {
      const range = presetRange(deps.preset, Math.floor(Date.now() / 1000));
      void context.queryClient
        .query(dailyConsumptionQueryOptions({ kind: 'org', orgId: params.orgId }, range))
        .catch(() => undefined);
    }
  },
  component: function OrgUsageRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const org = useQuery(organizationQueryOptions(orgId));
    return (
      <UsageDashboard
        key={orgId}
        scope={{ kind: 'org', orgId }}
        orgName={org.data?.name}
        preset={search.range ?? DEFAULT_PRESET}
        onPresetChange={(range) => void navigate({ search: cleanUsageSearch({ range }) })}
      />
    );
  },
});
