/** Editing a session's tags: add (append) and remove (replace with the rest, with an Undo). */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SESSION_LIMITS, TagsBody } from '@/api/operations/sessions';
import { RemovableTags } from '@/components/removable-tags';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/field';
import { ProblemView } from '@/components/problem-view';
import { Input } from '@/components/ui/input';
import { Combobox } from '@/components/ui/combobox';
import { allowedTagsQueryOptions, validatedTags } from '@/lib/org-tags';
import { toast } from '@/components/ui/toast';
import { isApiError } from '@/lib/api-error';
import { useUpdateTags } from './api';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';

export function SessionTags({ orgId, sessionId, tags }: { orgId: string; sessionId: string; tags: string[] }) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>();
  const update = useUpdateTags(orgId, sessionId);
  const can = useHasPermission('ManageOrgSessions');
  const denied = missingPermissionTitle('ManageOrgSessions', can);
  // Tag validation on in the organization: a picker of its allowed tags instead of free text.
  const allowed = validatedTags(useQuery(allowedTagsQueryOptions(orgId)).data);

  const add = () => {
    const parts = draft
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const outside = allowed ? parts.find((t) => !allowed.includes(t)) : undefined;
    if (outside !== undefined) {
      setError(`“${outside}” is not an allowed tag of this organization (tag validation is on)`);
      return;
    }
    const parsed = TagsBody.safeParse({ tags: parts.length ? [...tags, ...parts] : [''] });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    update.mutate({ mode: 'append', tags: parts }, { onSuccess: () => setDraft('') });
  };
  // Removing is one click, so it can be undone: the toast's Undo adds the tag back.
  const remove = (tag: string) =>
    update.mutate(
      { mode: 'replace', tags: tags.filter((x) => x !== tag) },
      {
        onSuccess: () =>
          toast({
            title: `Tag “${tag}” removed`,
            action: { label: 'Undo', onClick: () => update.mutate({ mode: 'append', tags: [tag] }) },
          }),
      },
    );
  const serverError =
    update.error && isApiError(update.error) && update.error.status === 422
      ? update.error.fieldErrors[0]?.msg
      : undefined;

  return (
    <section aria-labelledby="tags-heading" className="flex flex-col gap-2">
      <h2 id="tags-heading" className="text-base font-semibold">
        Tags
      </h2>
      <RemovableTags
        label="Session tags"
        tags={tags}
        empty="No tags"
        removeLabel={(t) => `Remove tag ${t}`}
        onRemove={remove}
        disabled={update.isPending || can === false}
        title={denied}
      />
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <Field
          label="Add tag"
          className="flex-1"
          hint={
            allowed
              ? `Tag validation is on: choose among the organization's allowed tags; at most ${SESSION_LIMITS.tags} tags.`
              : `1–${SESSION_LIMITS.tag} characters, no commas (separate several with commas); at most ${SESSION_LIMITS.tags} tags.`
          }
          error={error ?? serverError}
        >
          {allowed ? (
            <Combobox
              value={draft}
              onValueChange={setDraft}
              options={allowed.filter((t) => !tags.includes(t)).map((t) => ({ value: t, label: t }))}
              placeholder="Choose an allowed tag"
              searchLabel="Search allowed tags"
              emptyText="No allowed tag matches: only the organization's allowed tags can be used"
            />
          ) : (
            <Input value={draft} onChange={(e) => setDraft(e.target.value)} />
          )}
        </Field>
        <Button type="submit" className="mb-5" disabled={update.isPending || can === false} title={denied}>
          Add
        </Button>
      </form>
      {update.error && !serverError ? <ProblemView compact error={update.error} /> : null}
    </section>
  );
}
