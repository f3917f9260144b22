import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { loadNote, noteQueryOptions, type NoteScope } from '@/features/knowledge/api';
import { NoteForm } from '@/features/knowledge/note-form';
import { NotFound } from '@/app/shell/route-error';

const scope: NoteScope = { kind: 'enterprise' };

export const Route = createFileRoute('/knowledge/$noteId/edit')({
  loader: ({ context, params }) => loadNote(context.queryClient, scope, params.noteId),
  notFoundComponent: () => <NotFound what="Knowledge note not found" />,
  component: function EditEnterpriseNoteRoute() {
    const { noteId } = Route.useParams();
    const { data } = useSuspenseQuery(noteQueryOptions(scope, noteId));
    return <NoteForm key={data.note_id} scope={scope} note={data} />;
  },
});
