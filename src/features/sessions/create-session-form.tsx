/**
 * The create-session form. Values are checked against the contract's own create schema before sending (the
 * limits the sandbox enforces); a 422 puts the API's errors on their fields. Session secret values stay in
 * the form only: masked while typed, cleared once sent, never shown again. After creation the new session
 * opens, where its start can be watched.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import { AGENT_MODES, CreateSessionBody, SESSION_LIMITS } from '@/api/operations/sessions';
import { fieldPath } from '@/api/problem';
import { Button } from '@/components/button';
import { Field, inputClass, textareaClass } from '@/components/field';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { isApiError } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { ENTERPRISE_SCOPE, sessionKeys, useCreateSession } from './api';
import { recordStatus } from './live';
import { missingPermissionTitle, useHasPermission } from './use-permission';

export interface CreateSessionValues {
  prompt: string;
  agent_mode: '' | (typeof AGENT_MODES)[number];
  title: string;
  tags: string;
  playbook_id: string;
  session_secrets: Array<{ key: string; value: string; sensitive: boolean }>;
  create_as_user_id: string;
  session_links: string;
  bypass_approval: boolean;
}

const EMPTY: CreateSessionValues = {
  prompt: '',
  agent_mode: '',
  title: '',
  tags: '',
  playbook_id: '',
  session_secrets: [],
  create_as_user_id: '',
  session_links: '',
  bypass_approval: false,
};

const FORM_FIELDS = [
  'prompt',
  'agent_mode',
  'title',
  'tags',
  'playbook_id',
  'session_secrets',
  'create_as_user_id',
  'session_links',
  'bypass_approval',
];

const list = (text: string, sep: RegExp) =>
  text
    .split(sep)
    .map((x) => x.trim())
    .filter(Boolean);

/** The create body of the form's values: empty optional fields are left out (agent_mode: the org default). */
export function toCreateBody(v: CreateSessionValues): CreateSessionBody {
  const body: CreateSessionBody = { prompt: v.prompt };
  if (v.agent_mode) body.agent_mode = v.agent_mode;
  if (v.title.trim()) body.title = v.title.trim();
  const tags = list(v.tags, /,/);
  if (tags.length) body.tags = tags;
  if (v.playbook_id.trim()) body.playbook_id = v.playbook_id.trim();
  if (v.session_secrets.length)
    body.session_secrets = v.session_secrets.map((s) => ({ key: s.key, value: s.value, sensitive: s.sensitive }));
  if (v.create_as_user_id.trim()) body.create_as_user_id = v.create_as_user_id.trim();
  const links = list(v.session_links, /\n/);
  if (links.length) body.session_links = links;
  if (v.bypass_approval) body.bypass_approval = true;
  return body;
}

/** Where an error of a body path shows: list fields typed as one text box show theirs on that box. */
export function formFieldOf(path: string): string | null {
  const top = path.split('.')[0] ?? '';
  if (!FORM_FIELDS.includes(top)) return null;
  if (top === 'tags' || top === 'session_links') return top;
  if (top === 'session_secrets' && /^session_secrets\.\d+\.(key|value|sensitive)$/.test(path)) return path;
  return top;
}

export function CreateSessionForm({ orgId }: { orgId: string }) {
  const form = useForm<CreateSessionValues>({ defaultValues: EMPTY });
  const { register, control, handleSubmit, setError, formState, watch } = form;
  const secrets = useFieldArray({ control, name: 'session_secrets' });
  const create = useCreateSession(orgId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<unknown>(null);
  const can = useHasPermission('UseAgentSessions');
  const e = formState.errors;

  const place = (path: string, message: string, unplaced: string[]) => {
    const name = formFieldOf(path);
    if (name) setError(name as FieldPath<CreateSessionValues>, { type: 'validate', message });
    else unplaced.push(path ? `${path}: ${message}` : message);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const body = toCreateBody(values);
    const checked = CreateSessionBody.safeParse(body);
    if (!checked.success) {
      const unplaced: string[] = [];
      for (const issue of checked.error.issues) place(issue.path.map(String).join('.'), issue.message, unplaced);
      if (unplaced.length) setFormError(new Error(unplaced.join('; ')));
      return;
    }
    try {
      const session = await create.mutateAsync(body);
      // Clear the secret values from the form before leaving it.
      form.reset(EMPTY);
      queryClient.setQueryData(sessionKeys.detail(orgId, session.session_id), session);
      recordStatus(session);
      // The lists start again from the top, where the new session is.
      queryClient.removeQueries({ queryKey: [...sessionKeys.lists(), orgId] });
      queryClient.removeQueries({ queryKey: [...sessionKeys.lists(), ENTERPRISE_SCOPE] });
      await navigate({ to: '/orgs/$orgId/sessions/$sessionId', params: { orgId, sessionId: session.session_id } });
    } catch (err) {
      if (isApiError(err) && err.status === 422 && err.fieldErrors.length > 0) {
        const unplaced: string[] = [];
        for (const fe of err.fieldErrors) place(fieldPath(fe.loc), fe.msg, unplaced);
        if (unplaced.length) setFormError(new Error(unplaced.join('; ')));
      } else {
        setFormError(err);
      }
    }
  });

  const prompt = watch('prompt');

  return (
    <>
      <PageHeader title="New session" description="Start an agent session in this organization." />
      <form onSubmit={onSubmit} noValidate className="flex max-w-3xl flex-col gap-4" aria-label="New session">
        <Field
          label="Prompt"
          required
          hint={`What the agent should do. Required; at most ${formatNumber(SESSION_LIMITS.prompt)} characters (${formatNumber(prompt.length)} so far).`}
          error={e.prompt?.message}
        >
          <textarea className={cn(textareaClass, 'min-h-32')} {...register('prompt')} />
        </Field>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field label="Agent mode" hint="Leave empty to use the organization's default." error={e.agent_mode?.message}>
            <select className={inputClass} {...register('agent_mode')}>
              <option value="">Organization default</option>
              {AGENT_MODES.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Title" hint={`Optional; at most ${SESSION_LIMITS.title} characters.`} error={e.title?.message}>
            <input className={inputClass} {...register('title')} />
          </Field>
          <Field
            label="Tags"
            hint={`Comma-separated; each 1–${SESSION_LIMITS.tag} characters, at most ${SESSION_LIMITS.tags}.`}
            error={e.tags?.message}
          >
            <input className={inputClass} placeholder="bug, backend" {...register('tags')} />
          </Field>
          <Field label="Playbook" hint="Optional playbook id the agent follows." error={e.playbook_id?.message}>
            <input className={inputClass} placeholder="playbook-…" {...register('playbook_id')} />
          </Field>
          <Field
            label="Create as user"
            hint="Optional user id to create the session on behalf of."
            error={e.create_as_user_id?.message}
          >
            <input className={inputClass} placeholder="user-…" {...register('create_as_user_id')} />
          </Field>
          <Field
            label="Session links"
            hint={`Optional links given to the agent as context, one per line; at most ${SESSION_LIMITS.sessionLinks}.`}
            error={e.session_links?.message}
          >
            <textarea className={cn(textareaClass, 'min-h-9')} rows={2} {...register('session_links')} />
          </Field>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...register('bypass_approval')} />
          Bypass approval
          <span className="text-xs text-muted">(the agent does not wait for approval before acting)</span>
        </label>

        <fieldset className="flex flex-col gap-2 rounded-lg border border-line p-3">
          <legend className="px-1 text-sm font-medium">Session secrets</legend>
          <p className="text-xs text-muted">
            Temporary secrets for this session only, not stored in the organization's secrets. Key 1–
            {SESSION_LIMITS.secretKey} characters; value at most {formatNumber(SESSION_LIMITS.secretValue)} characters.
            Sensitive by default: values are never shown again.
          </p>
          {secrets.fields.map((f, i) => {
            const sensitive = watch(`session_secrets.${i}.sensitive`);
            return (
              <div
                key={f.id}
                role="group"
                aria-label={`Secret ${i + 1}`}
                className="grid grid-cols-1 items-start gap-2 sm:grid-cols-[1fr_1.4fr_auto_auto]"
              >
                <Field label={`Secret ${i + 1} key`} error={e.session_secrets?.[i]?.key?.message}>
                  <input className={inputClass} autoComplete="off" {...register(`session_secrets.${i}.key`)} />
                </Field>
                <Field label={`Secret ${i + 1} value`} error={e.session_secrets?.[i]?.value?.message}>
                  <input
                    className={inputClass}
                    type={sensitive ? 'password' : 'text'}
                    autoComplete="new-password"
                    {...register(`session_secrets.${i}.value`)}
                  />
                </Field>
                <label className="flex items-center gap-1.5 pt-7 text-sm">
                  <input type="checkbox" {...register(`session_secrets.${i}.sensitive`)} />
                  Sensitive
                </label>
                <Button
                  variant="ghost"
                  className="mt-6"
                  aria-label={`Remove secret ${i + 1}`}
                  onClick={() => secrets.remove(i)}
                >
                  <Trash2 className="size-4" aria-hidden />
                </Button>
              </div>
            );
          })}
          {e.session_secrets?.message && (
            <p role="alert" className="text-xs font-medium text-danger">
              {e.session_secrets.message}
            </p>
          )}
          <Button
            size="sm"
            className="self-start"
            onClick={() => secrets.append({ key: '', value: '', sensitive: true })}
            disabled={secrets.fields.length >= SESSION_LIMITS.secrets}
          >
            <Plus className="size-3.5" aria-hidden /> Add secret
          </Button>
        </fieldset>

        {formError ? <ProblemView error={formError} /> : null}
        <div className="flex gap-2">
          <Button
            type="submit"
            variant="primary"
            disabled={formState.isSubmitting || can === false}
            title={missingPermissionTitle('UseAgentSessions', can)}
          >
            {formState.isSubmitting ? 'Creating…' : 'Create session'}
          </Button>
        </div>
      </form>
    </>
  );
}
