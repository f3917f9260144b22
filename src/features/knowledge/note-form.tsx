/**
 * Create or edit a knowledge note: a form over the contract's note body, so the limits the sandbox enforces
 * are shown and checked before sending; a 422 from the API lands on the field it names.
 */
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { KnowledgeNoteBody, type KnowledgeNote } from '@/api/operations/knowledge';
import { ComboboxField, Form, SubmitButton, SwitchField, TextareaField, TextField } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { Button, buttonClass } from '@/components/ui/button';
import { foldersQueryOptions, useCreateNote, useUpdateNote, type NoteScope } from './api';
import { flattenFolders } from './folder-tree';
import { Markdown } from '@/components/markdown';
import { KnowledgeLink, knowledgeRoute } from './note-links';

interface NoteFormValues {
  name: string;
  trigger_description: string;
  body: string;
  /** `''`: no folder. */
  folder_id: string;
  pinned_repo: string;
  is_enabled: boolean;
}

/**
 * The request body. The trigger goes under both names, the spec's `trigger_description` and the vendor's
 * `trigger` (same text), so that an upstream that knows either one stores it.
 */
function toBody(v: NoteFormValues): KnowledgeNoteBody {
  const trigger = v.trigger_description.trim();
  return {
    name: v.name.trim(),
    trigger_description: trigger,
    trigger,
    body: v.body,
    folder_id: v.folder_id || null,
    pinned_repo: v.pinned_repo.trim() || null,
    is_enabled: v.is_enabled,
  };
}

/** The Markdown body, or its preview. */
function BodyField() {
  const [preview, setPreview] = useState(false);
  const body = useWatch<NoteFormValues, 'body'>({ control: useFormContext<NoteFormValues>().control, name: 'body' });
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center justify-between">
        <span className="text-sm text-muted">Body format: Markdown</span>
        <Button size="sm" variant="ghost" onClick={() => setPreview((p) => !p)} aria-pressed={preview}>
          {preview ? 'Edit body' : 'Preview body'}
        </Button>
      </div>
      {preview ? (
        <div className="min-h-40 rounded-md border border-line p-3" aria-label="Body preview">
          {body.trim() ? <Markdown source={body} /> : <p className="text-sm text-muted">Nothing to preview.</p>}
        </div>
      ) : (
        <TextareaField
          name="body"
          label="Body"
          description="Markdown: headings, lists, code, links."
          textareaClassName="min-h-64 font-mono"
        />
      )}
    </div>
  );
}

export function NoteForm({ scope, note }: { scope: NoteScope; note?: KnowledgeNote }) {
  const navigate = useNavigate();
  const folders = useQuery(foldersQueryOptions(scope));
  const create = useCreateNote(scope);
  const update = useUpdateNote(scope, note?.note_id ?? '');
  const mutation = note ? update : create;
  const foldersReady = folders.data !== undefined || folders.error !== null;

  const title = note
    ? `Edit “${note.name}”`
    : scope.kind === 'enterprise'
      ? 'New enterprise note'
      : 'New organization note';
  return (
    <div className="max-w-3xl">
      <PageHeader
        title={title}
        description={
          scope.kind === 'enterprise' && !note
            ? 'An enterprise note is available to agents in every organization.'
            : 'Agents recall a note when its trigger matches what they are doing.'
        }
      />
      <Form
        schema={KnowledgeNoteBody}
        defaultValues={{
          name: note?.name ?? '',
          trigger_description: note?.trigger ?? '',
          body: note?.body ?? '',
          folder_id: note?.folder_id ?? '',
          pinned_repo: note?.pinned_repo ?? '',
          is_enabled: note?.is_enabled ?? true,
        }}
        toBody={toBody}
        onSubmit={async (body) => {
          const saved = await mutation.mutateAsync(body);
          await navigate(knowledgeRoute(scope, 'view', saved.note_id));
        }}
        aria-label={title}
        className="rounded-lg border border-line bg-surface p-4"
        actions={
          <div className="flex justify-end gap-2">
            <KnowledgeLink
              scope={scope}
              target={note ? 'view' : 'list'}
              noteId={note?.note_id}
              className={buttonClass()}
            >
              Cancel
            </KnowledgeLink>
            <SubmitButton pendingLabel="Saving…">{note ? 'Save changes' : 'Create note'}</SubmitButton>
          </div>
        }
      >
        <TextField name="name" label="Name" autoComplete="off" />
        <TextareaField
          name="trigger_description"
          label="Trigger"
          description="When should the agent use this note? For example “When writing a database migration”."
          textareaClassName="min-h-16"
        />
        <BodyField />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <ComboboxField
            name="folder_id"
            label="Folder"
            description="Optional. Where the note is filed."
            searchLabel="Search folders"
            // The folders arrive after the form: the note's folder shows once they are there.
            placeholder={foldersReady ? 'No folder' : 'Loading folders…'}
            disabled={!foldersReady}
            options={[
              { value: '', label: 'No folder' },
              ...flattenFolders(folders.data?.folders ?? []).map(({ folder, depth }) => ({
                value: folder.folder_id,
                label: folder.path,
                depth,
              })),
            ]}
          />
          <TextField
            name="pinned_repo"
            label="Pinned repository"
            description="Optional. Pin the note to one repository, e.g. acme/payments-api."
            placeholder="owner/repository"
            autoComplete="off"
          />
        </div>
        <SwitchField
          name="is_enabled"
          label="Enabled"
          description={(on) => (on ? 'Agents use this note.' : 'Agents ignore this note until it is enabled.')}
        />
      </Form>
    </div>
  );
}
