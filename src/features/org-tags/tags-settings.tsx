/**
 * An organization's session tags: whether tags are validated, the allowed list (add, remove one, replace the
 * whole list) and the default tag given to sessions created without tags. Validation is on while the allowed
 * list is not empty (the API has no separate switch): turning it off clears the list, behind a confirmation;
 * turning it on asks for the first allowed tags.
 */
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { AllowedTagsBody, DefaultTagBody, ORG_TAG_LIMITS } from '@/api/operations/org-tags';
import { SESSION_LIMITS } from '@/api/operations/sessions';
import { Badge } from '@/components/badge';
import { Form, SelectField, SubmitButton, TagsField, TextField } from '@/components/form';
import { PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import { allowedTagsQueryOptions, defaultTagQueryOptions } from '@/lib/org-tags';
import { organizationQueryOptions } from '@/lib/organizations';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { useChangeAllowedTags, useSetDefaultTag } from './api';

const TAG_HINT = `1–${SESSION_LIMITS.tag} characters each, no commas; at most ${formatNumber(ORG_TAG_LIMITS.tags)} allowed tags.`;

export function TagSettings({
  orgId,
  history,
}: {
  orgId: string;
  /** The history of the tag settings, composed by the route. */ history?: ReactNode;
}) {
  const org = useQuery(organizationQueryOptions(orgId));
  const allowed = useQuery(allowedTagsQueryOptions(orgId));
  const defaultTag = useQuery(defaultTagQueryOptions(orgId));
  const title = 'Session tags';
  return (
    <>
      <PageHeader
        title={title}
        documentTitle={org.data ? `${title} · ${org.data.name}` : title}
        description="Which tags sessions of this organization may carry, and the tag a session gets when created without any."
      />
      {allowed.error ? (
        <ProblemView error={allowed.error} onRetry={() => void allowed.refetch()} />
      ) : !allowed.data ? (
        <Spinner label="Loading the tag settings…" />
      ) : (
        <div className="flex max-w-3xl flex-col gap-8">
          <AllowedTagsSection orgId={orgId} tags={allowed.data.tags} />
          <DefaultTagSection
            orgId={orgId}
            allowed={allowed.data.tags}
            current={defaultTag.data?.default_tag ?? null}
            error={defaultTag.error}
          />
        </div>
      )}
      {history && <div className="mt-8">{history}</div>}
    </>
  );
}

function AllowedTagsSection({ orgId, tags }: { orgId: string; tags: string[] }) {
  const can = useHasPermission('ManageOrganizations');
  const denied = missingPermissionTitle('ManageOrganizations', can);
  const change = useChangeAllowedTags(orgId);
  const [wantOn, setWantOn] = useState(false);
  const [confirmOff, setConfirmOff] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const addRef = useRef<HTMLDivElement>(null);
  const on = tags.length > 0;

  const remove = (tag: string) =>
    change.mutate(
      { mode: 'remove', tag },
      {
        onSuccess: () =>
          toast({
            title: `Tag “${tag}” is no longer allowed`,
            action: { label: 'Undo', onClick: () => change.mutate({ mode: 'append', tags: [tag] }) },
          }),
      },
    );

  return (
    <>
      <section aria-labelledby="validation-heading" className="rounded-lg border border-line bg-surface p-4">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id="validation-heading" className="text-base font-semibold">
              Tag validation
            </h2>
            <p className="mt-1 text-sm text-muted" id="validation-state">
              {on
                ? `On: sessions can only be created or tagged with the ${formatNumber(tags.length)} allowed tags below; any other tag is refused.`
                : wantOn
                  ? 'Add the first allowed tags below: validation turns on with them.'
                  : 'Off: sessions may carry any tag.'}
            </p>
          </div>
          <Switch
            aria-labelledby="validation-heading"
            aria-describedby="validation-state"
            checked={on || wantOn}
            disabled={can === false || change.isPending}
            title={denied}
            onCheckedChange={(next) => {
              if (!next && on) setConfirmOff(true);
              else if (!next) setWantOn(false);
              else {
                setWantOn(true);
                addRef.current?.querySelector<HTMLElement>('input')?.focus();
              }
            }}
          />
        </div>
      </section>

      <section aria-labelledby="allowed-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="allowed-heading" className="text-base font-semibold">
            Allowed tags <span className="font-normal text-muted">({formatNumber(tags.length)})</span>
          </h2>
          <Button size="sm" disabled={can === false} title={denied} onClick={() => setReplacing(true)}>
            Replace the list…
          </Button>
        </div>
        <ul aria-label="Allowed tags" className="flex flex-wrap gap-1.5">
          {tags.length === 0 && <li className="text-sm text-muted">No allowed tags: any tag is accepted.</li>}
          {tags.map((t) => (
            <li key={t}>
              <Badge>
                {t}
                <button
                  type="button"
                  aria-label={`Remove allowed tag ${t}`}
                  title={denied}
                  disabled={change.isPending || can === false}
                  className="rounded-full hover:text-danger disabled:opacity-50"
                  onClick={() => remove(t)}
                >
                  <X className="size-3" aria-hidden />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
        {change.error && !replacing && <ProblemView compact error={change.error} />}
        <div ref={addRef}>
          <Form
            schema={AllowedTagsBody}
            defaultValues={{ tags: [] as string[] }}
            aria-label="Add allowed tags"
            className="gap-2"
            onSubmit={async (body, form) => {
              const res = await change.mutateAsync({ mode: 'append', tags: body.tags });
              form.reset({ tags: [] });
              setWantOn(false);
              toast({ title: `${formatNumber(res.tags.length)} allowed tags`, tone: 'success' });
            }}
            actions={
              <div>
                <SubmitButton pendingLabel="Adding…" disabled={can === false} title={denied}>
                  Add tags
                </SubmitButton>
              </div>
            }
          >
            <TagsField
              name="tags"
              label="Add allowed tags"
              placeholder="bug, backend"
              description={`Enter or a comma after each. ${TAG_HINT}`}
            />
          </Form>
        </div>
      </section>

      <ConfirmDialog
        open={confirmOff}
        onOpenChange={(o) => {
          if (!o) setConfirmOff(false);
        }}
        destructive
        title="Turn tag validation off?"
        description={`The API turns validation off by clearing the allowed list: its ${formatNumber(tags.length)} tags are removed and sessions may carry any tag. The default tag stays.`}
        confirmLabel="Clear the list and turn off"
        pending={change.isPending}
        onConfirm={() =>
          change.mutate(
            { mode: 'clear' },
            {
              onSuccess: () => {
                setConfirmOff(false);
                setWantOn(false);
                toast({ title: 'Tag validation is off', tone: 'success' });
              },
            },
          )
        }
      >
        {change.error && (
          <div className="mt-3">
            <ProblemView compact error={change.error} />
          </div>
        )}
      </ConfirmDialog>

      <Dialog open={replacing} onOpenChange={setReplacing}>
        <DialogContent className="w-[min(94vw,36rem)]">
          <DialogTitle>Replace the allowed tags</DialogTitle>
          <DialogDescription>
            The list becomes exactly these tags. A default tag no longer allowed is cleared. An empty list turns
            validation off.
          </DialogDescription>
          {replacing && (
            <Form
              schema={AllowedTagsBody}
              defaultValues={{ tags }}
              aria-label="Replace the allowed tags"
              className="mt-4"
              onSubmit={async (body) => {
                const res = await change.mutateAsync({ mode: 'replace', tags: body.tags });
                setReplacing(false);
                toast({ title: `Allowed tags replaced (${formatNumber(res.tags.length)})`, tone: 'success' });
              }}
              actions={
                <div className="flex justify-end gap-2">
                  <DialogClose asChild>
                    <Button>Cancel</Button>
                  </DialogClose>
                  <SubmitButton pendingLabel="Replacing…">Replace list</SubmitButton>
                </div>
              }
            >
              <TagsField name="tags" label="Allowed tags" description={TAG_HINT} />
            </Form>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}

function DefaultTagSection({
  orgId,
  allowed,
  current,
  error,
}: {
  orgId: string;
  allowed: string[];
  current: string | null;
  error: unknown;
}) {
  const can = useHasPermission('ManageOrganizations');
  const denied = missingPermissionTitle('ManageOrganizations', can);
  const set = useSetDefaultTag(orgId);
  const validated = allowed.length > 0;
  return (
    <section aria-labelledby="default-heading" className="flex flex-col gap-3">
      <h2 id="default-heading" className="text-base font-semibold">
        Default tag
      </h2>
      <p className="text-sm text-muted">
        {current === null
          ? 'None: sessions created without tags carry none.'
          : `Sessions created without tags get “${current}”.`}
      </p>
      {error ? <ProblemView compact error={error} /> : null}
      <Form
        key={`${current ?? ''}|${allowed.join(',')}`}
        schema={DefaultTagBody}
        defaultValues={{ tag: current ?? '' }}
        aria-label="Default tag"
        className="gap-2"
        onSubmit={async (body) => {
          const res = await set.mutateAsync(body.tag);
          toast({ title: `Default tag set to “${res.default_tag ?? ''}”`, tone: 'success' });
        }}
        actions={
          <div className="flex gap-2">
            <SubmitButton pendingLabel="Saving…" disabled={can === false} title={denied}>
              Set default tag
            </SubmitButton>
            <Button
              disabled={current === null || set.isPending || can === false}
              title={denied}
              onClick={() =>
                set.mutate(null, { onSuccess: () => toast({ title: 'Default tag cleared', tone: 'success' }) })
              }
            >
              Clear default tag
            </Button>
          </div>
        }
      >
        {validated ? (
          <SelectField
            name="tag"
            label="Default tag"
            description="Validation is on: the default must be one of the allowed tags."
            placeholder="Choose an allowed tag"
            options={allowed.map((t) => ({ value: t, label: t }))}
          />
        ) : (
          <TextField name="tag" label="Default tag" description={`1–${SESSION_LIMITS.tag} characters, no commas.`} />
        )}
      </Form>
    </section>
  );
}
