/**
 * Create or edit a knowledge note: a form over the contract's note body, so the limits the sandbox enforces
 * are shown and checked before sending; a 422 from the API lands on the field it names.
 */
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { KnowledgeNoteBody, type KnowledgeNote } from '@/api/operations/knowledge';
import { ComboboxField, SwitchField, TextareaField, TextField } from '@/components/form';
import { MarkdownBodyField, MarkdownDocumentForm } from '@/components/markdown-document';
import { foldersQueryOptions, useCreateNote, useUpdateNote, type NoteScope } from './api';
import { flattenFolders } from './folder-tree';
import { knowledgeRoute } from './note-links';

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
    <MarkdownDocumentForm
      className="max-w-3xl"
      title={title}
      description={
        scope.kind === 'enterprise' && !note
          ? 'An enterprise note is available to agents in every organization.'
          : 'Agents recall a note when its trigger matches what they are doing.'
      }
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
      cancel={note ? knowledgeRoute(scope, 'view', note.note_id) : knowledgeRoute(scope, 'list')}
      submitLabel={note ? 'Save changes' : 'Create note'}
    >
      <TextField name="name" label="Name" autoComplete="off" />
      <TextareaField
        name="trigger_description"
        label="Trigger"
        description="When should the agent use this note? For example “When writing a database migration”."
        textareaClassName="min-h-16"
      />
      <MarkdownBodyField description="Markdown: headings, lists, code, links." textareaClassName="min-h-64 font-mono" />
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
    </MarkdownDocumentForm>
  );
}
