/** One knowledge note: its body rendered as Markdown, its settings, and edit / delete. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Badge } from '@/components/badge';
import { DocumentDetail, DocumentDetails, MarkdownDocumentView } from '@/components/markdown-document';
import { formatDateTime } from '@/lib/format';
import { forgetNote, noteQueryOptions, useDeleteNote, type NoteScope } from './api';
import { knowledgeRoute } from './note-links';
import { EnabledBadge } from './notes-screen';

export function NoteView({ scope, noteId }: { scope: NoteScope; noteId: string }) {
  const { data: note } = useSuspenseQuery(noteQueryOptions(scope, noteId));
  const remove = useDeleteNote(scope);

  return (
    <MarkdownDocumentView
      title={note.name}
      description={
        <>
          <EnabledBadge enabled={note.is_enabled} />
          <Badge tone={note.access_type === 'enterprise' ? 'accent' : 'info'}>
            {note.access_type === 'enterprise' ? 'Enterprise note' : 'Organization note'}
          </Badge>
          <span className="font-mono text-xs">{note.note_id}</span>
        </>
      }
      list={{ to: knowledgeRoute(scope, 'list'), label: 'All notes' }}
      edit={knowledgeRoute(scope, 'edit', note.note_id)}
      body={note.body}
      bodyLabel="Note body"
      emptyBody="This note has no body."
      remove={{
        mutation: remove,
        id: note.note_id,
        description: 'Agents stop using this note at once. This cannot be undone.',
        confirmLabel: 'Delete note',
        forget: (queryClient, id) => forgetNote(queryClient, scope, id),
      }}
    >
      <DocumentDetails>
        <DocumentDetail label="Trigger" wide>
          {note.trigger || '—'}
        </DocumentDetail>
        <DocumentDetail label="Folder" className="font-mono text-xs">
          {note.folder_path}
        </DocumentDetail>
        <DocumentDetail label="Pinned repository" className="font-mono text-xs">
          {note.pinned_repo || '—'}
        </DocumentDetail>
        {note.macro && (
          <DocumentDetail label="Macro" className="font-mono text-xs">
            {note.macro}
          </DocumentDetail>
        )}
        {note.org_id && (
          <DocumentDetail label="Organization" className="font-mono text-xs">
            {note.org_id}
          </DocumentDetail>
        )}
        <DocumentDetail label="Created">{formatDateTime(note.created_at)}</DocumentDetail>
        <DocumentDetail label="Updated">{formatDateTime(note.updated_at)}</DocumentDetail>
      </DocumentDetails>
    </MarkdownDocumentView>
  );
}
