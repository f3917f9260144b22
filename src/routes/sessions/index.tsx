import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMemo } from 'react';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { ENTERPRISE_SCOPE, sessionsInfiniteQueryOptions } from '@/features/sessions/api';
import type { SessionSearch } from '@/features/sessions/filters';
import { firstPageBriefly, toListFilters } from '@/features/sessions/list-query';
import { sessionSearch } from '../-search';
import { SessionsList } from '@/features/sessions/sessions-list';

export const Route = createFileRoute('/sessions/')({
  validateSearch: sessionSearch,
  loaderDeps: ({ search }) => ({ search }),
  loader: ({ context, deps, cause }) =>
    firstPageBriefly(
      context.queryClient.infiniteQuery(
        sessionsInfiniteQueryOptions(ENTERPRISE_SCOPE, toListFilters(deps.search, 'enterprise')),
      ),
      cause,
    ),
  component: function EnterpriseSessionsRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const orgs = useInfiniteQuery(organizationsInfiniteQueryOptions());
    const organizations = useMemo(() => orgs.data?.pages.flatMap((p) => p.items) ?? [], [orgs.data]);
    return (
      <SessionsList
        scope={ENTERPRISE_SCOPE}
        title="All sessions"
        description="Agent sessions across the organizations of the enterprise, newest first, updating live."
        search={search}
        organizations={organizations}
        onSearchChange={(patch) => void navigate({ search: (prev: SessionSearch) => ({ ...prev, ...patch }) })}
        onClearSearch={() => void navigate({ search: {} })}
      />
    );
  },
});
