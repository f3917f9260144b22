import { createFileRoute } from '@tanstack/react-router';
import { presetRange } from '@/api/billing-day';
import { cyclesQueryOptions, dailyConsumptionQueryOptions } from '@/features/usage/api';
import { cleanUsageSearch, DEFAULT_PRESET, needsCycles, UsageSearch } from '@/features/usage/search';
import { UsageDashboard } from '@/features/usage/usage-dashboard';

const scope = { kind: 'enterprise' } as const;

export const Route = createFileRoute('/usage/')({
  validateSearch: UsageSearch,
  loaderDeps: ({ search }) => UsageSearch.filters(search),
  loader: ({ context, deps }) => {
    void context.queryClient.query(cyclesQueryOptions()).catch(() => undefined);
    if (!needsCycles(deps.preset)) {
      const range = presetRange(deps.preset, Math.floor(Date.now() / 1000));
      void context.queryClient.query(dailyConsumptionQueryOptions(scope, range)).catch(() => undefined);
    }
  },
  component: function UsageRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <UsageDashboard
        scope={scope}
        preset={search.range ?? DEFAULT_PRESET}
        onPresetChange={(range) => void navigate({ search: cleanUsageSearch({ range }) })}
      />
    );
  },
});
