import { createFileRoute } from '@tanstack/react-router';
import { findingsInfiniteQueryOptions, scansQueryOptions } from '@/features/code-scans/api';
import { FindingsScreen } from '@/features/code-scans/findings-screen';
import { clean, FindingsSearch } from '@/features/code-scans/search';

export const Route = createFileRoute('/code-scans/')({
  validateSearch: FindingsSearch,
  loaderDeps: ({ search }) => FindingsSearch.filters(search),
  loader: ({ context, deps }) => {
    void context.queryClient.infiniteQuery(findingsInfiniteQueryOptions(deps)).catch(() => undefined);
    void context.queryClient.query(scansQueryOptions()).catch(() => undefined);
  },
  component: function CodeScansRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <FindingsScreen
        search={search}
        onSearchChange={(patch) => void navigate({ search: (prev: FindingsSearch) => clean({ ...prev, ...patch }) })}
      />
    );
  },
});
