import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ENTERPRISE, guardrailsQueryOptions, violationsInfiniteQueryOptions } from '@/features/guardrails/api';
import { toUrlSearch, type ViolationSearch } from '@/features/guardrails/search';
import { VIOLATION_DEFAULTS, violationFilters, violationSearch } from '../-search';
import { ViolationsScreen } from '@/features/guardrails/violations-screen';

export const Route = createFileRoute('/guardrails/')({
  validateSearch: violationSearch,
  search: { middlewares: [stripSearchParams(VIOLATION_DEFAULTS)] },
  loaderDeps: ({ search }) => violationFilters(search),
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
