import { createFileRoute } from '@tanstack/react-router';
import { playbooksInfiniteQueryOptions, type PlaybookScope } from '@/features/playbooks/api';
import { PlaybooksScreen } from '@/features/playbooks/playbooks-screen';
import { PlaybooksSearch, cleanPlaybookFilters } from '@/features/playbooks/search';

const scope: PlaybookScope = { kind: 'enterprise' };

export const Route = createFileRoute('/playbooks/')({
  validateSearch: PlaybooksSearch,
  loaderDeps: ({ search }) => PlaybooksSearch.filters(search),
  loader: ({ context, deps }) =>
    void context.queryClient.infiniteQuery(playbooksInfiniteQueryOptions(scope, deps)).catch(() => undefined),
  component: function EnterprisePlaybooksRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <PlaybooksScreen
        scope={scope}
        filters={cleanPlaybookFilters(search)}
        onFiltersChange={(next) => void navigate({ search: cleanPlaybookFilters(next) })}
      />
    );
  },
});
