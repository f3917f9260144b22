import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { playbooksInfiniteQueryOptions } from '@/features/playbooks/api';
import { PlaybooksScreen } from '@/features/playbooks/playbooks-screen';
import { OrgPlaybooksSearch, cleanPlaybookFilters } from '@/features/playbooks/search';
import { organizationQueryOptions } from '@/lib/organizations';

export const Route = createFileRoute('/orgs/$orgId/playbooks/')({
  validateSearch: OrgPlaybooksSearch,
  loaderDeps: ({ search }) => OrgPlaybooksSearch.filters(search),
  loader: ({ context, deps, params }) =>
    void context.queryClient
      .infiniteQuery(playbooksInfiniteQueryOptions({ kind: 'org', orgId: params.orgId }, deps))
      .catch(() => undefined),
  component: function OrgPlaybooksRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const org = useQuery(organizationQueryOptions(orgId));
    return (
      <PlaybooksScreen
        scope={{ kind: 'org', orgId }}
        subtitle={org.data?.name}
        filters={cleanPlaybookFilters(search)}
        onFiltersChange={(next) => void navigate({ search: cleanPlaybookFilters({ search: next.search }) })}
      />
    );
  },
});
