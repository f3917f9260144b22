import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { loadNote, noteQueryOptions } from '@/features/knowledge/api';
import { NoteForm } from '@/features/knowledge/note-form';
import { NotFound } from '@/app/shell/route-error';

export const Route = createFileRoute('/orgs/$orgId/knowledge/$noteId/edit')({
  loader: ({ context, params }) => loadNote(context.queryClient, { kind: 'org', orgId: params.orgId }, params.noteId),
  notFoundComponent: () => <NotFound what="Knowledge note not found" />,
  component: function EditOrgNoteRoute() {
    const { orgId, noteId } = Route.useParams();
    const scope = { kind: 'org', orgId } as const;
    const { data } = useSuspenseQuery(noteQueryOptions(scope, noteId));
    return <NoteForm key={data.note_id} scope={scope} note={data} />;
  },
});
