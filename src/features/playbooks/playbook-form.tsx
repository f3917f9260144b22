/**
 * Create or edit a playbook: a form over the contract's playbook body (its limits and the macro's form checked
 * before sending; a 422 lands on its field, a 409 for a macro in use on the form), with a Markdown preview of
 * the body.
 */
import { useNavigate } from '@tanstack/react-router';
import { PLAYBOOK_LIMITS, PlaybookBody, type Playbook } from '@/api/operations/playbooks';
import { TextField } from '@/components/form';
import { MarkdownBodyField, MarkdownDocumentForm } from '@/components/markdown-document';
import { useCreatePlaybook, useUpdatePlaybook, type PlaybookScope } from './api';
import { playbookRoute } from './links';

interface PlaybookFormValues {
  title: string;
  body: string;
  macro: string;
}

function toBody(v: PlaybookFormValues): PlaybookBody {
  return { title: v.title.trim(), body: v.body, macro: v.macro.trim() || null };
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
    <MarkdownDocumentForm
      className="max-w-6xl"
      title={title}
      documentTitle={playbook ? `Edit ${playbook.title}` : title}
      description={
        scope.kind === 'enterprise' && !playbook
          ? 'An enterprise playbook can be used in every organization.'
          : 'A playbook is a procedure agents follow when a session names it (or its macro).'
      }
      schema={PlaybookBody}
      defaultValues={{ title: playbook?.title ?? '', body: playbook?.body ?? '', macro: playbook?.macro ?? '' }}
      toBody={toBody}
      onSubmit={async (body) => {
        const saved = await mutation.mutateAsync(body);
        await navigate(playbookRoute(scope, 'view', saved.playbook_id));
      }}
      cancel={playbook ? playbookRoute(scope, 'view', playbook.playbook_id) : playbookRoute(scope, 'list')}
      submitLabel={playbook ? 'Save changes' : 'Create playbook'}
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
      <MarkdownBodyField
        split
        description="Markdown: the procedure, its specifications, advice and forbidden actions."
        textareaClassName="min-h-96 font-mono"
      />
    </MarkdownDocumentForm>
  );
}
