import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ENTERPRISE, guardrailsQueryOptions, violationsInfiniteQueryOptions } from '@/features/guardrails/api';
import { ViolationSearch } from '@/features/guardrails/route-search';
import { toUrlSearch } from '@/features/guardrails/search';
import { ViolationsScreen } from '@/features/guardrails/violations-screen';

export const Route = createFileRoute('/guardrails/')({
  validateSearch: ViolationSearch,
  search: { middlewares: [stripSearchParams(ViolationSearch.defaults)] },
  loaderDeps: ({ search }) => ViolationSearch.filters(search),
  loader: ({ context, deps }) => {
    void context.queryClient.infiniteQuery(violationsInfiniteQueryOptions(ENTERPRISE, deps)).catch(() => undefined);
    void context.queryClient.query(guardrailsQueryOptions()).catch(() => undefined);
  },
  component: function GuardrailsRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <ViolationsScreen
        scope={ENTERPRISE}
        search={search}
        onSearchChange={(patch) =>
          void navigate({ search: (prev: ViolationSearch) => toUrlSearch({ ...prev, ...patch }) })
        }
      />
    );
  },
});
