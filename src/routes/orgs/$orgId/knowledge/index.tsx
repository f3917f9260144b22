import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { notesInfiniteQueryOptions } from '@/features/knowledge/api';
import { NotesScreen } from '@/features/knowledge/notes-screen';
import { OrgNotesSearch, cleanFilters } from '@/features/knowledge/search';
import { organizationQueryOptions } from '@/lib/organizations';

export const Route = createFileRoute('/orgs/$orgId/knowledge/')({
  validateSearch: OrgNotesSearch,
  loaderDeps: ({ search }) => OrgNotesSearch.filters(search),
  loader: ({ context, deps, params }) =>
    void context.queryClient
      .infiniteQuery(notesInfiniteQueryOptions({ kind: 'org', orgId: params.orgId }, deps))
      .catch(() => undefined),
  component: function OrgNotesRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const org = useQuery(organizationQueryOptions(orgId));
    return (
      <NotesScreen
        scope={{ kind: 'org', orgId }}
        subtitle={org.data?.name}
        filters={cleanFilters(search)}
        onFiltersChange={(next) => void navigate({ search: cleanFilters({ ...next, access_type: undefined }) })}
      />
    );
  },
});
