import { createFileRoute } from '@tanstack/react-router';
import { notesInfiniteQueryOptions, type NoteScope } from '@/features/knowledge/api';
import { NotesScreen } from '@/features/knowledge/notes-screen';
import { NotesSearch, cleanFilters } from '@/features/knowledge/search';

const scope: NoteScope = { kind: 'enterprise' };

export const Route = createFileRoute('/knowledge/')({
  validateSearch: NotesSearch,
  loaderDeps: ({ search }) => NotesSearch.filters(search),
  loader: ({ context, deps }) =>
    void context.queryClient.infiniteQuery(notesInfiniteQueryOptions(scope, deps)).catch(() => undefined),
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
