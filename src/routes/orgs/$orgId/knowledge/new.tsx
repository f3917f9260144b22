import { createFileRoute } from '@tanstack/react-router';
import { NoteForm } from '@/features/knowledge/note-form';

export const Route = createFileRoute('/orgs/$orgId/knowledge/new')({
  component: function NewOrgNoteRoute() {
    const { orgId } = Route.useParams();
    return <NoteForm scope={{ kind: 'org', orgId }} />;
  },
});
