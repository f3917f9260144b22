import { createFileRoute } from '@tanstack/react-router';
import { activityInfiniteQueryOptions } from '@/features/console-activity/api';
import { ConsoleActivityScreen } from '@/features/console-activity/activity-screen';
import { activityFilters, parseActivitySearch, type ActivitySearch } from '@/features/console-activity/search';

export const Route = createFileRoute('/activity/')({
  validateSearch: (raw: Record<string, unknown>): ActivitySearch => parseActivitySearch(raw),
  loaderDeps: ({ search }) => activityFilters(search),
  loader: ({ context, deps }) =>
    void context.queryClient.infiniteQuery(activityInfiniteQueryOptions(deps)).catch(() => undefined),
  component: function ConsoleActivityRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <ConsoleActivityScreen
        search={search}
        onSearchChange={(patch) => void navigate({ search: (prev: ActivitySearch) => ({ ...prev, ...patch }) })}
      />
    );
  },
});
