import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMemo } from 'react';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { ENTERPRISE_SCOPE, sessionsInfiniteQueryOptions } from '@/features/sessions/api';
import { firstPageBriefly } from '@/features/sessions/list-query';
import { SessionSearch } from '@/features/sessions/search';
import { SessionsList } from '@/features/sessions/sessions-list';

export const Route = createFileRoute('/sessions/')({
  validateSearch: SessionSearch,
  loaderDeps: ({ search }) => SessionSearch.filters(search),
  loader: ({ context, deps, cause }) =>
    firstPageBriefly(context.queryClient.infiniteQuery(sessionsInfiniteQueryOptions(ENTERPRISE_SCOPE, deps)), cause),
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
