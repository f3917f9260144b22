/**
 * Create or edit a knowledge note: the limits the sandbox enforces are checked before sending and shown as
 * hints; a 422 from the API lands on the field it names.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Switch } from 'radix-ui';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { NOTE_LIMITS, type KnowledgeNote, type KnowledgeNoteBody } from '@/api/operations/knowledge';
import { Button } from '@/components/button';
import { Field, inputClass, textareaClass } from '@/components/field';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { applyServerErrors } from '@/lib/form-errors';
import { cn } from '@/lib/cn';
import { foldersQueryOptions, useCreateNote, useUpdateNote, type NoteScope } from './api';
import { flattenFolders } from './folder-tree';
import { Markdown } from './markdown';
import { KnowledgeLink, knowledgeRoute } from './note-links';

const n = (v: number) => v.toLocaleString('en-US');

const NoteFormSchema = z.object({
  name: z
    .string()
    .refine((s) => s.trim().length > 0, 'Name is required')
    .refine((s) => s.length <= NOTE_LIMITS.name, `Name is at most ${n(NOTE_LIMITS.name)} characters`),
  trigger_description: z
    .string()
    .max(NOTE_LIMITS.trigger_description, `Trigger is at most ${n(NOTE_LIMITS.trigger_description)} characters`),
  body: z
    .string()
    .refine((s) => s.trim().length > 0, 'Body is required')
    .refine((s) => s.length <= NOTE_LIMITS.body, `Body is at most ${n(NOTE_LIMITS.body)} characters`),
  folder_id: z.string(),
  pinned_repo: z.string().max(NOTE_LIMITS.pinned_repo, `At most ${n(NOTE_LIMITS.pinned_repo)} characters`),
  is_enabled: z.boolean(),
});
type NoteFormValues = z.infer<typeof NoteFormSchema>;
const FIELDS = ['name', 'trigger_description', 'body', 'folder_id', 'pinned_repo', 'is_enabled'] as const;

function toBody(v: NoteFormValues): KnowledgeNoteBody {
  return {
    name: v.name.trim(),
    trigger_description: v.trigger_description.trim(),
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
  const [formError, setFormError] = useState<unknown>(null);
  const [preview, setPreview] = useState(false);
  const form = useForm<NoteFormValues>({
    resolver: zodResolver(NoteFormSchema),
    defaultValues: {
      name: note?.name ?? '',
      trigger_description: note?.trigger ?? '',
      body: note?.body ?? '',
      folder_id: note?.folder_id ?? '',
      pinned_repo: note?.pinned_repo ?? '',
      is_enabled: note?.is_enabled ?? true,
    },
  });
  const { register, handleSubmit, control, formState, setError } = form;
  const body = useWatch({ control, name: 'body' });
  const errors = formState.errors;

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    mutation.mutate(toBody(values), {
      onSuccess: (saved) => {
        const { to, params } = knowledgeRoute(scope, 'view', saved.note_id);
        void navigate({ to: to as '/', params: params as never });
      },
      onError: (err) => {
        const unplaced = applyServerErrors(err, setError, FIELDS);
        if (unplaced !== null) setFormError(err);
      },
    });
  });

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
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label={title}
        className="flex flex-col gap-4 rounded-lg border border-line bg-surface p-4"
      >
        <Field
          label="Name"
          required
          hint={`Required. At most ${n(NOTE_LIMITS.name)} characters.`}
          error={errors.name?.message}
        >
          <input className={inputClass} autoComplete="off" {...register('name')} />
        </Field>
        <Field
          label="Trigger"
          hint={`When should the agent use this note? For example “When writing a database migration”. At most ${n(NOTE_LIMITS.trigger_description)} characters.`}
          error={errors.trigger_description?.message}
        >
          <textarea className={cn(textareaClass, 'min-h-16')} {...register('trigger_description')} />
        </Field>
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
            <Field
              label="Body"
              required
              hint={`Required. Markdown: headings, lists, code, links. At most ${n(NOTE_LIMITS.body)} characters.`}
              error={errors.body?.message}
            >
              <textarea className={cn(textareaClass, 'min-h-64 font-mono')} {...register('body')} />
            </Field>
          )}
        </div>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Controller
            control={control}
            name="folder_id"
            render={({ field }) => (
              <Field label="Folder" hint="Optional. Where the note is filed." error={errors.folder_id?.message}>
                <select
                  className={inputClass}
                  name={field.name}
                  ref={field.ref}
                  onBlur={field.onBlur}
                  // Controlled: the folders arrive after the form, and the note's folder must then show.
                  value={folders.data ? field.value : ''}
                  onChange={(e) => field.onChange(e.target.value)}
                  disabled={!folders.data && !folders.error}
                >
                  <option value="">{folders.data || folders.error ? 'No folder' : 'Loading folders…'}</option>
                  {flattenFolders(folders.data?.folders ?? []).map(({ folder, depth }) => (
                    <option key={folder.folder_id} value={folder.folder_id}>
                      {`${'\u00a0\u00a0'.repeat(depth)}${folder.path}`}
                    </option>
                  ))}
                </select>
              </Field>
            )}
          />
          <Field
            label="Pinned repository"
            hint={`Optional. Pin the note to one repository, e.g. acme/payments-api. At most ${n(NOTE_LIMITS.pinned_repo)} characters.`}
            error={errors.pinned_repo?.message}
          >
            <input
              className={inputClass}
              autoComplete="off"
              placeholder="owner/repository"
              {...register('pinned_repo')}
            />
          </Field>
        </div>
        <Controller
          control={control}
          name="is_enabled"
          render={({ field }) => (
            <div className="flex items-center gap-3">
              <Switch.Root
                id="note-enabled"
                checked={field.value}
                onCheckedChange={field.onChange}
                className="relative h-6 w-11 shrink-0 rounded-full border border-line bg-surface-2 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent data-[state=checked]:border-accent data-[state=checked]:bg-accent"
                aria-describedby="note-enabled-hint"
              >
                <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-5" />
              </Switch.Root>
              <div>
                <label htmlFor="note-enabled" className="text-sm font-medium">
                  Enabled
                </label>
                <p id="note-enabled-hint" className="text-xs text-muted">
                  {field.value ? 'Agents use this note.' : 'Agents ignore this note until it is enabled.'}
                </p>
              </div>
            </div>
          )}
        />
        {formError !== null && <ProblemView error={formError} />}
        <div className="flex justify-end gap-2">
          <KnowledgeLink
            scope={scope}
            target={note ? 'view' : 'list'}
            noteId={note?.note_id}
            className="inline-flex h-9 items-center rounded-md border border-line bg-surface px-3.5 text-sm font-medium hover:bg-surface-2"
          >
            Cancel
          </KnowledgeLink>
          <Button type="submit" variant="primary" disabled={mutation.isPending}>
            {mutation.isPending ? 'Saving…' : note ? 'Save changes' : 'Create note'}
          </Button>
        </div>
      </form>
    </div>
  );
}
