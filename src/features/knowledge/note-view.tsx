/** One knowledge note: its body rendered as Markdown, its settings, and edit / delete. */
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { formatDateTime } from '@/lib/format';
import { forgetNote, noteQueryOptions, useDeleteNote, type NoteScope } from './api';
import { Markdown } from '@/components/markdown';
import { KnowledgeLink, knowledgeRoute } from './note-links';
import { EnabledBadge } from './notes-screen';

export function NoteView({ scope, noteId }: { scope: NoteScope; noteId: string }) {
  const { data: note } = useSuspenseQuery(noteQueryOptions(scope, noteId));
  const navigate = useNavigate();
  const remove = useDeleteNote(scope);
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);

  return (
    <div className="max-w-4xl">
      <KnowledgeLink
        scope={scope}
        target="list"
        className="mb-3 inline-flex items-center gap-1 text-sm text-accent underline underline-offset-2 hover:no-underline"
      >
        <ArrowLeft className="size-4" aria-hidden /> All notes
      </KnowledgeLink>
      <PageHeader
        title={note.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <EnabledBadge enabled={note.is_enabled} />
            <Badge tone={note.access_type === 'enterprise' ? 'accent' : 'info'}>
              {note.access_type === 'enterprise' ? 'Enterprise note' : 'Organization note'}
            </Badge>
            <span className="font-mono text-xs">{note.note_id}</span>
          </span>
        }
        actions={
          <>
            <KnowledgeLink
              scope={scope}
              target="edit"
              noteId={note.note_id}
              className="inline-flex h-9 items-center gap-1.5 rounded-md border border-line bg-surface px-3.5 text-sm font-medium hover:bg-surface-2"
            >
              <Pencil className="size-4" aria-hidden /> Edit
            </KnowledgeLink>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              <Trash2 className="size-4" aria-hidden /> Delete
            </Button>
          </>
        }
      />
      <dl className="mb-4 grid grid-cols-1 gap-x-6 gap-y-3 rounded-lg border border-line bg-surface p-4 text-sm sm:grid-cols-2">
        <div className="sm:col-span-2">
          <dt className="text-muted">Trigger</dt>
          <dd>{note.trigger || '—'}</dd>
        </div>
        <div>
          <dt className="text-muted">Folder</dt>
          <dd className="font-mono text-xs">{note.folder_path}</dd>
        </div>
        <div>
          <dt className="text-muted">Pinned repository</dt>
          <dd className="font-mono text-xs">{note.pinned_repo || '—'}</dd>
        </div>
        {note.macro && (
          <div>
            <dt className="text-muted">Macro</dt>
            <dd className="font-mono text-xs">{note.macro}</dd>
          </div>
        )}
        {note.org_id && (
          <div>
            <dt className="text-muted">Organization</dt>
            <dd className="font-mono text-xs">{note.org_id}</dd>
          </div>
        )}
        <div>
          <dt className="text-muted">Created</dt>
          <dd>{formatDateTime(note.created_at)}</dd>
        </div>
        <div>
          <dt className="text-muted">Updated</dt>
          <dd>{formatDateTime(note.updated_at)}</dd>
        </div>
      </dl>
      <section aria-label="Note body" className="rounded-lg border border-line bg-surface p-4">
        {note.body.trim() ? (
          <Markdown source={note.body} />
        ) : (
          <p className="text-sm text-muted">This note has no body.</p>
        )}
      </section>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(o) => {
          setConfirming(o);
          if (!o) remove.reset();
        }}
        title={`Delete “${note.name}”?`}
        description="Agents stop using this note at once. This cannot be undone."
        confirmLabel="Delete note"
        destructive
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(note.note_id, {
            onSuccess: () => {
              setConfirming(false);
              void navigate(knowledgeRoute(scope, 'list')).then(() => forgetNote(queryClient, scope, note.note_id));
            },
          })
        }
      >
        {remove.error && (
          <div className="mt-3">
            <ProblemView compact error={remove.error} />
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}
