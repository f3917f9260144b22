import { createFileRoute } from '@tanstack/react-router';
import { loadNote, type NoteScope } from '@/features/knowledge/api';
import { NoteView } from '@/features/knowledge/note-view';
import { NotFound } from '@/app/shell/route-error';

const scope: NoteScope = { kind: 'enterprise' };

export const Route = createFileRoute('/knowledge/$noteId/')({
  loader: ({ context, params }) => loadNote(context.queryClient, scope, params.noteId),
  notFoundComponent: () => <NotFound what="Knowledge note not found" />,
  component: function EnterpriseNoteRoute() {
    const { noteId } = Route.useParams();
    return <NoteView scope={scope} noteId={noteId} />;
  },
});
