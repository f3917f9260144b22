import { createFileRoute } from '@tanstack/react-router';
import { loadNote } from '@/features/knowledge/api';
import { NoteView } from '@/features/knowledge/note-view';
import { NotFound } from '@/app/shell/route-error';

export const Route = createFileRoute('/orgs/$orgId/knowledge/$noteId/')({
  loader: ({ context, params }) => loadNote(context.queryClient, { kind: 'org', orgId: params.orgId }, params.noteId),
  notFoundComponent: () => <NotFound what="Knowledge note not found" />,
  component: function OrgNoteRoute() {
    const { orgId, noteId } = Route.useParams();
    return <NoteView scope={{ kind: 'org', orgId }} noteId={noteId} />;
  },
});
