import { createFileRoute } from '@tanstack/react-router';
import { hypervisorsInfiniteQueryOptions, queueQueryOptions } from '@/features/capacity/api';
import { CapacityScreen } from '@/features/capacity/capacity-screen';
import { CapacitySearch } from '@/features/capacity/search';

export const Route = createFileRoute('/capacity/')({
  validateSearch: CapacitySearch,
  loaderDeps: ({ search }) => CapacitySearch.filters(search),
  loader: ({ context, deps }) => {
    void context.queryClient.query(queueQueryOptions()).catch(() => undefined);
    void context.queryClient.infiniteQuery(hypervisorsInfiniteQueryOptions(deps.status)).catch(() => undefined);
  },
  component: function CapacityRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <CapacityScreen
        status={search.status ?? 'available'}
        onStatusChange={(status) => void navigate({ search: status === 'available' ? {} : { status } })}
      />
    );
  },
});
