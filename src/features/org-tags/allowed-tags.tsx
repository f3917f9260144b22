/**
 * The allowed-tags half of the session tags settings: the validation switch (on while the allowed list is not
 * empty; turning it off clears the list behind a confirmation, turning it on asks for the first tags), the
 * list with a remove per tag (and Undo), the add form, and the dialog that replaces the whole list.
 */
import { useRef, useState, type RefObject } from 'react';
import { AllowedTagsBody, ORG_TAG_LIMITS } from '@/api/operations/org-tags';
import { SESSION_LIMITS } from '@/api/operations/sessions';
import { Form, SubmitButton, TagsField } from '@/components/form';
import { ProblemView } from '@/components/problem-view';
import { RemovableTags } from '@/components/removable-tags';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { useChangeAllowedTags } from './api';

const TAG_HINT = `1–${SESSION_LIMITS.tag} characters each, no commas; at most ${formatNumber(ORG_TAG_LIMITS.tags)} allowed tags.`;

type Change = ReturnType<typeof useChangeAllowedTags>;

/** Whether the credential may change the tags: `can` false disables, `denied` says why (as a title). */
interface Access {
  can: boolean | undefined;
  denied: string | undefined;
}

function ValidationSwitch({
  tags,
  wantOn,
  access,
  pending,
  onChange,
}: {
  tags: string[];
  wantOn: boolean;
  access: Access;
  pending: boolean;
  onChange: (next: boolean) => void;
}) {
  const on = tags.length > 0;
  return (
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
          disabled={access.can === false || pending}
          title={access.denied}
          onCheckedChange={onChange}
        />
      </div>
    </section>
  );
}

function AllowedTagList({
  tags,
  change,
  access,
  showError,
  addRef,
  onAdded,
  onReplace,
}: {
  tags: string[];
  change: Change;
  access: Access;
  /** The last change's failure is shown here unless the replace dialog shows it. */
  showError: boolean;
  addRef: RefObject<HTMLDivElement | null>;
  onAdded: () => void;
  onReplace: () => void;
}) {
  const { can, denied } = access;
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
    <section aria-labelledby="allowed-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="allowed-heading" className="text-base font-semibold">
          Allowed tags <span className="font-normal text-muted">({formatNumber(tags.length)})</span>
        </h2>
        <Button size="sm" disabled={can === false} title={denied} onClick={onReplace}>
          Replace the list…
        </Button>
      </div>
      <RemovableTags
        label="Allowed tags"
        tags={tags}
        empty="No allowed tags: any tag is accepted."
        removeLabel={(t) => `Remove allowed tag ${t}`}
        onRemove={remove}
        disabled={change.isPending || can === false}
        title={denied}
      />
      {change.error && showError && <ProblemView compact error={change.error} />}
      <div ref={addRef}>
        <Form
          schema={AllowedTagsBody}
          defaultValues={{ tags: [] as string[] }}
          aria-label="Add allowed tags"
          className="gap-2"
          onSubmit={async (body, form) => {
            const res = await change.mutateAsync({ mode: 'append', tags: body.tags });
            form.reset({ tags: [] });
            onAdded();
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
  );
}

function TurnOffDialog({
  open,
  count,
  change,
  onClose,
  onCleared,
}: {
  open: boolean;
  count: number;
  change: Change;
  onClose: () => void;
  onCleared: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      destructive
      title="Turn tag validation off?"
      description={`The API turns validation off by clearing the allowed list: its ${formatNumber(count)} tags are removed and sessions may carry any tag. The default tag stays.`}
      confirmLabel="Clear the list and turn off"
      pending={change.isPending}
      onConfirm={() =>
        change.mutate(
          { mode: 'clear' },
          {
            onSuccess: () => {
              onCleared();
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
  );
}

function ReplaceTagsDialog({
  open,
  onOpenChange,
  tags,
  change,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tags: string[];
  change: Change;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="w-[min(94vw,36rem)]">
        <DialogTitle>Replace the allowed tags</DialogTitle>
        <DialogDescription>
          The list becomes exactly these tags. A default tag no longer allowed is cleared. An empty list turns
          validation off.
        </DialogDescription>
        {open && (
          <Form
            schema={AllowedTagsBody}
            defaultValues={{ tags }}
            aria-label="Replace the allowed tags"
            className="mt-4"
            onSubmit={async (body) => {
              const res = await change.mutateAsync({ mode: 'replace', tags: body.tags });
              onOpenChange(false);
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
  );
}

export function AllowedTagsSection({ orgId, tags }: { orgId: string; tags: string[] }) {
  const can = useHasPermission('ManageOrganizations');
  const access = { can, denied: missingPermissionTitle('ManageOrganizations', can) };
  const change = useChangeAllowedTags(orgId);
  const [wantOn, setWantOn] = useState(false);
  const [confirmOff, setConfirmOff] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const addRef = useRef<HTMLDivElement>(null);
  const on = tags.length > 0;

  return (
    <>
      <ValidationSwitch
        tags={tags}
        wantOn={wantOn}
        access={access}
        pending={change.isPending}
        onChange={(next) => {
          if (!next && on) setConfirmOff(true);
          else if (!next) setWantOn(false);
          else {
            setWantOn(true);
            addRef.current?.querySelector<HTMLElement>('input')?.focus();
          }
        }}
      />
      <AllowedTagList
        tags={tags}
        change={change}
        access={access}
        showError={!replacing}
        addRef={addRef}
        onAdded={() => setWantOn(false)}
        onReplace={() => setReplacing(true)}
      />
      <TurnOffDialog
        open={confirmOff}
        count={tags.length}
        change={change}
        onClose={() => setConfirmOff(false)}
        onCleared={() => {
          setConfirmOff(false);
          setWantOn(false);
        }}
      />
      <ReplaceTagsDialog open={replacing} onOpenChange={setReplacing} tags={tags} change={change} />
    </>
  );
}
