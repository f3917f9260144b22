/**
 * Create or edit a playbook: a form over the contract's playbook body (its limits and the macro's form checked
 * before sending; a 422 lands on its field, a 409 for a macro in use on the form), with a Markdown preview of
 * the body.
 */
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { PLAYBOOK_LIMITS, PlaybookBody, type Playbook } from '@/api/operations/playbooks';
import { Form, SubmitButton, TextareaField, TextField } from '@/components/form';
import { Markdown } from '@/components/markdown';
import { PageHeader } from '@/components/page-header';
import { Button, buttonClass } from '@/components/ui/button';
import { useCreatePlaybook, useUpdatePlaybook, type PlaybookScope } from './api';
import { PlaybookLink, playbookRoute } from './links';

interface PlaybookFormValues {
  title: string;
  body: string;
  macro: string;
}

function toBody(v: PlaybookFormValues): PlaybookBody {
  return { title: v.title.trim(), body: v.body, macro: v.macro.trim() || null };
}

/** The Markdown body and its preview, side by side on a wide screen, one at a time on a narrow one. */
function BodyField() {
  const [preview, setPreview] = useState(false);
  const body = useWatch<PlaybookFormValues, 'body'>({
    control: useFormContext<PlaybookFormValues>().control,
    name: 'body',
  });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2 lg:hidden">
        <span className="text-sm text-muted">Body format: Markdown</span>
        <Button size="sm" variant="ghost" onClick={() => setPreview((p) => !p)} aria-pressed={preview}>
          {preview ? 'Edit body' : 'Preview body'}
        </Button>
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <div className={preview ? 'hidden lg:block' : undefined}>
          <TextareaField
            name="body"
            label="Body"
            description="Markdown: the procedure, its specifications, advice and forbidden actions."
            textareaClassName="min-h-96 font-mono"
          />
        </div>
        {/* Focusable: a long preview scrolls, by keyboard too. */}
        <section
          aria-label="Body preview"
          tabIndex={0}
          className={`${preview ? '' : 'hidden lg:block'} min-h-40 overflow-auto rounded-md border border-line p-3 focus-visible:outline-2 focus-visible:outline-accent lg:max-h-[32rem]`}
        >
          <p className="mb-2 text-xs font-medium text-muted uppercase">Preview</p>
          {body.trim() ? <Markdown source={body} /> : <p className="text-sm text-muted">Nothing to preview yet.</p>}
        </section>
      </div>
    </div>
  );
}

export function PlaybookForm({ scope, playbook }: { scope: PlaybookScope; playbook?: Playbook }) {
  const navigate = useNavigate();
  const create = useCreatePlaybook(scope);
  const update = useUpdatePlaybook(scope, playbook?.playbook_id ?? '');
  const mutation = playbook ? update : create;
  const title = playbook
    ? `Edit “${playbook.title}”`
    : scope.kind === 'enterprise'
      ? 'New enterprise playbook'
      : 'New organization playbook';

  return (
    <div className="max-w-6xl">
      <PageHeader
        title={title}
        documentTitle={playbook ? `Edit ${playbook.title}` : title}
        description={
          scope.kind === 'enterprise' && !playbook
            ? 'An enterprise playbook can be used in every organization.'
            : 'A playbook is a procedure agents follow when a session names it (or its macro).'
        }
      />
      <Form
        schema={PlaybookBody}
        defaultValues={{ title: playbook?.title ?? '', body: playbook?.body ?? '', macro: playbook?.macro ?? '' }}
        toBody={toBody}
        onSubmit={async (body) => {
          const saved = await mutation.mutateAsync(body);
          await navigate(playbookRoute(scope, 'view', saved.playbook_id));
        }}
        aria-label={title}
        className="rounded-lg border border-line bg-surface p-4"
        actions={
          <div className="flex justify-end gap-2">
            <PlaybookLink
              scope={scope}
              target={playbook ? 'view' : 'list'}
              playbookId={playbook?.playbook_id}
              className={buttonClass()}
            >
              Cancel
            </PlaybookLink>
            <SubmitButton pendingLabel="Saving…">{playbook ? 'Save changes' : 'Create playbook'}</SubmitButton>
          </div>
        }
      >
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <TextField name="title" label="Title" autoComplete="off" />
          <TextField
            name="macro"
            label="Macro"
            description={`Optional: ! then letters, digits, _ or -, e.g. !triage. At most ${PLAYBOOK_LIMITS.macro} characters.`}
            placeholder="!macro"
            autoComplete="off"
            countWhenEmpty={false}
          />
        </div>
        <BodyField />
      </Form>
    </div>
  );
}
