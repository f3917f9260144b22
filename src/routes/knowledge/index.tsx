import { createFileRoute } from '@tanstack/react-router';
import { notesInfiniteQueryOptions, type NoteScope } from '@/features/knowledge/api';
import { NotesScreen } from '@/features/knowledge/notes-screen';
import { cleanFilters } from '@/features/knowledge/search';
import { notesSearch } from '../-search';

const scope: NoteScope = { kind: 'enterprise' };

export const Route = createFileRoute('/knowledge/')({
  validateSearch: notesSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    void context.queryClient.infiniteQuery(notesInfiniteQueryOptions(scope, cleanFilters(deps))).catch(() => undefined),
  component: function EnterpriseNotesRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <NotesScreen
        scope={scope}
        filters={cleanFilters(search)}
        onFiltersChange={(next) => void navigate({ search: cleanFilters(next) })}
      />
    );
  },
});
