/**
 * The create-session form. Values are checked against the contract's own create schema before sending (the
 * limits the sandbox enforces); a 422 puts the API's errors on their fields. Session secret values stay in
 * the form only: masked while typed, cleared once sent, never shown again. After creation the new session
 * opens, where its start can be watched.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState, type Ref } from 'react';
import { useWatch } from 'react-hook-form';
import { ATTACHMENT_LIMITS } from '@/api/operations/attachments';
import { AGENT_MODES, CreateSessionBody, SESSION_LIMITS } from '@/api/operations/sessions';
import {
  AllowedTagsField,
  CheckboxField,
  ComboboxField,
  fieldFor,
  Form,
  KeyValueField,
  SelectField,
  SubmitButton,
  TagsField,
  TextareaField,
  TextField,
} from '@/components/form';
import { FileUpload, type FileUploadHandle } from '@/components/file-upload';
import { PageHeader } from '@/components/page-header';
import { formatNumber } from '@/lib/format';
import {
  ENTERPRISE_SCOPE,
  MEMBER_CHOICES_MAX,
  memberChoicesQueryOptions,
  sessionKeys,
  useCreateSession,
  type MemberChoice,
} from './api';
import { describeError } from '@/components/problem-view';
import { recordStatus } from './live';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { allowedTagsQueryOptions, defaultTagQueryOptions, validatedTags } from '@/lib/org-tags';

export interface CreateSessionValues {
  prompt: string;
  agent_mode: '' | (typeof AGENT_MODES)[number];
  title: string;
  /** The tag chips; a comma-separated string is read too. */
  tags: string[] | string;
  playbook_id: string;
  session_secrets: Array<{ key: string; value: string; sensitive: boolean }>;
  create_as_user_id: string;
  /** One link per line. */
  session_links: string;
  bypass_approval: boolean;
  /** URLs of the files uploaded in the form (set by the upload widget, not typed). */
  attachment_urls?: string[];
}

const EMPTY: CreateSessionValues = {
  prompt: '',
  agent_mode: '',
  title: '',
  tags: [],
  playbook_id: '',
  session_secrets: [],
  create_as_user_id: '',
  session_links: '',
  bypass_approval: false,
  attachment_urls: [],
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
  'attachment_urls',
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
  const tags = Array.isArray(v.tags) ? v.tags.map((t) => t.trim()).filter(Boolean) : list(v.tags, /,/);
  if (tags.length) body.tags = tags;
  if (v.playbook_id.trim()) body.playbook_id = v.playbook_id.trim();
  if (v.session_secrets.length)
    body.session_secrets = v.session_secrets.map((s) => ({ key: s.key, value: s.value, sensitive: s.sensitive }));
  if (v.create_as_user_id.trim()) body.create_as_user_id = v.create_as_user_id.trim();
  const links = list(v.session_links, /\n/);
  if (links.length) body.session_links = links;
  if (v.bypass_approval) body.bypass_approval = true;
  if (v.attachment_urls?.length) body.attachment_urls = v.attachment_urls;
  return body;
}

/**
 * Where an error of a body path shows, as the form kit places it among the fields on screen: a list's item
 * on the list (`tags.3` → `tags`), a secret's key or value on its own input, a field the form lacks nowhere.
 */
export function formFieldOf(path: string): string | null {
  const row = /^session_secrets\.(\d+)\./.exec(path)?.[1];
  const rows = row === undefined ? [] : ['key', 'value', 'sensitive'].map((k) => `session_secrets.${row}.${k}`);
  return fieldFor(path, [...FORM_FIELDS, ...rows]);
}

/** A member as the picker lists them: name and email, the id for those who have neither. */
export function memberLabel(m: MemberChoice): string {
  if (m.name && m.email) return `${m.name} (${m.email})`;
  return m.name ?? m.email ?? m.user_id;
}

/**
 * "Create as user": a member of the organization chosen by name or email. Without the permission to list
 * them (or when the list cannot be read), the user id is typed, and the field says why.
 */
function CreateAsUserField({ orgId }: { orgId: string }) {
  const members = useQuery(memberChoicesQueryOptions(orgId));
  const chosen = useWatch<CreateSessionValues, 'create_as_user_id'>({ name: 'create_as_user_id' });
  if (members.isError) {
    return (
      <TextField
        name="create_as_user_id"
        label="Create as user"
        description={`Optional: the user id to create the session on behalf of (the members could not be listed: ${describeError(members.error).title}).`}
        placeholder="user-…"
        countWhenEmpty={false}
      />
    );
  }
  const list = members.data?.members ?? [];
  // A value set before the list arrived (or not in it) stays choosable, under its id.
  const known = !chosen || list.some((m) => m.user_id === chosen);
  return (
    <ComboboxField
      name="create_as_user_id"
      label="Create as user"
      description={
        members.data?.more
          ? `Optional: the member the session is created on behalf of. Lists the first ${formatNumber(MEMBER_CHOICES_MAX)} members; search by name or email.`
          : 'Optional: the member the session is created on behalf of; search by name or email.'
      }
      searchLabel="Search members by name or email"
      placeholder={members.isPending ? 'Loading members…' : 'Nobody: the console’s own credential'}
      emptyText="No member matches."
      options={[
        { value: '', label: 'Nobody: the console’s own credential' },
        ...(known ? [] : [{ value: chosen, label: chosen }]),
        ...list.map((m) => ({
          value: m.user_id,
          label: memberLabel(m),
          textValue: `${memberLabel(m)} ${m.user_id}`,
        })),
      ]}
    />
  );
}

const countLines = (value: unknown) => (typeof value === 'string' ? list(value, /\n/).length : 0);

export interface PlaybookChoice {
  value: string;
  label: string;
}

/**
 * `playbookId`: the playbook chosen when the form opens (a "start a session with this playbook" link);
 * `playbookOptions`: the playbooks to choose among (without them the playbook is typed as an id).
 */
export function CreateSessionForm({
  orgId,
  playbookId,
  playbookOptions,
}: {
  orgId: string;
  playbookId?: string;
  playbookOptions?: readonly PlaybookChoice[];
}) {
  const create = useCreateSession(orgId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const can = useHasPermission('UseAgentSessions');
  // The session is created once every file is uploaded (their URLs are part of the body).
  const [uploading, setUploading] = useState(false);
  const uploads = useRef<FileUploadHandle>(null);
  // Tag validation on: only the organization's allowed tags are offered (unreadable: free text, the API decides).
  const allowed = validatedTags(useQuery(allowedTagsQueryOptions(orgId)).data);
  const defaultTag = useQuery(defaultTagQueryOptions(orgId)).data?.default_tag;
  const noTagsNote = defaultTag ? ` Without tags, the session gets the default tag “${defaultTag}”.` : '';

  return (
    <>
      <PageHeader title="New session" description="Start an agent session in this organization." />
      <Form
        schema={CreateSessionBody}
        defaultValues={playbookId ? { ...EMPTY, playbook_id: playbookId } : EMPTY}
        toBody={toCreateBody}
        aria-label="New session"
        className="max-w-3xl"
        onSubmit={async (body, form) => {
          // The chosen files upload now, not when chosen: an abandoned form leaves nothing stored.
          const attached = (await uploads.current?.uploadAll()) ?? [];
          const session = await create.mutateAsync(
            attached.length > 0 ? { ...body, attachment_urls: attached.map((a) => a.url) } : body,
          );
          // Clear the secret values from the form before leaving it.
          form.reset(EMPTY);
          queryClient.setQueryData(sessionKeys.detail(orgId, session.session_id), session);
          recordStatus(session);
          // The lists start again from the top, where the new session is.
          queryClient.removeQueries({ queryKey: [...sessionKeys.lists(), orgId] });
          queryClient.removeQueries({ queryKey: [...sessionKeys.lists(), ENTERPRISE_SCOPE] });
          await navigate({
            to: '/orgs/$orgId/sessions/$sessionId',
            params: { orgId, sessionId: session.session_id },
          });
        }}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <SubmitButton
              pendingLabel={uploading ? 'Uploading files…' : 'Creating…'}
              disabled={can === false}
              aria-describedby={can === false ? 'create-session-why' : undefined}
            >
              Create session
            </SubmitButton>
            {can === false && (
              <span id="create-session-why" className="text-xs text-muted">
                {missingPermissionTitle('UseAgentSessions', can)}
              </span>
            )}
          </div>
        }
      >
        <TextareaField
          name="prompt"
          label="Prompt"
          description="What the agent should do."
          textareaClassName="min-h-32"
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <SelectField
            name="agent_mode"
            label="Agent mode"
            description="Leave it on the default to use the organization's."
            options={[
              { value: '', label: 'Organization default' },
              ...AGENT_MODES.map((m) => ({ value: m, label: m })),
            ]}
          />
          <TextField name="title" label="Title" description="Optional; shown in the lists." />
          {allowed ? (
            <AllowedTagsField
              name="tags"
              label="Tags"
              allowed={allowed}
              description={`Tag validation is on in this organization: choose among its ${formatNumber(allowed.length)} allowed tags.${noTagsNote}`}
            />
          ) : (
            <TagsField
              name="tags"
              label="Tags"
              placeholder="bug, backend"
              description={`Enter or a comma after each; 1–${SESSION_LIMITS.tag} characters, no commas.${noTagsNote}`}
            />
          )}
          {playbookOptions ? (
            <ComboboxField
              name="playbook_id"
              label="Playbook"
              description="Optional: the procedure the agent follows."
              searchLabel="Search playbooks"
              placeholder="No playbook"
              options={[{ value: '', label: 'No playbook' }, ...playbookOptions]}
            />
          ) : (
            <TextField
              name="playbook_id"
              label="Playbook"
              description="Optional playbook id the agent follows."
              placeholder="playbook-…"
              countWhenEmpty={false}
            />
          )}
          <CreateAsUserField orgId={orgId} />
          <TextareaField
            name="session_links"
            label="Session links"
            description="Optional links given to the agent as context, one per line."
            countOf={countLines}
            unit="links"
            rows={2}
            textareaClassName="min-h-9"
          />
        </div>
        <CheckboxField
          name="bypass_approval"
          label="Bypass approval"
          description="The agent does not wait for approval before acting."
        />
        <KeyValueField
          name="session_secrets"
          label="Session secrets"
          itemLabel="Secret"
          unit="secrets"
          sensitiveName="sensitive"
          secret
          newRow={() => ({ key: '', value: '', sensitive: true })}
          description={`Temporary secrets for this session only, not stored in the organization's secrets. Key 1–${SESSION_LIMITS.secretKey} characters; value at most ${formatNumber(SESSION_LIMITS.secretValue)} characters. Sensitive by default: values are never shown again.`}
        />
        <SessionAttachmentsField orgId={orgId} uploads={uploads} onBusyChange={setUploading} />
      </Form>
    </>
  );
}

/** The file picker of the form: the files upload when the session is created, and become `attachment_urls`. */
function SessionAttachmentsField({
  orgId,
  uploads,
  onBusyChange,
}: {
  orgId: string;
  uploads: Ref<FileUploadHandle>;
  onBusyChange: (busy: boolean) => void;
}) {
  return (
    <FileUpload
      ref={uploads}
      orgId={orgId}
      label="Attachments"
      description="Files the agent gets with the session (logs, designs, data)."
      sentWhen="when you create the session"
      maxFiles={ATTACHMENT_LIMITS.filesAtOnce}
      onBusyChange={onBusyChange}
    />
  );
}
