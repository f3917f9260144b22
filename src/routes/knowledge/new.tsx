import { createFileRoute } from '@tanstack/react-router';
import { NoteForm } from '@/features/knowledge/note-form';

export const Route = createFileRoute('/knowledge/new')({
  component: () => <NoteForm scope={{ kind: 'enterprise' }} />,
});
