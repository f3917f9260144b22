/**
 * The overview's organization dialogs: create (name and limits), rename, per-organization ACU limits, and
 * delete behind a typed confirmation that shows what goes with the organization (its sessions, knowledge
 * notes and git permissions, counted through the API). Code of its own, loaded when a dialog first opens, so
 * the first screen does not carry the form kit.
 */
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  ORGANIZATION_LIMITS,
  OrganizationCreateBody,
  OrganizationUpdateBody,
  type Organization,
} from '@/api/operations/organizations';
import { ConfirmDelete } from '@/components/delete-action';
import { Form, NumberField, SubmitButton, TextField } from '@/components/form';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import { forgetOrg } from '@/lib/last-org';
import {
  deletionCountsQueryOptions,
  useCreateOrganization,
  useDeleteOrganization,
  useUpdateOrganization,
  type Count,
} from './api';

export type OrganizationAction =
  | { kind: 'create' }
  | { kind: 'rename'; org: Organization }
  | { kind: 'limits'; org: Organization }
  | { kind: 'delete'; org: Organization };

const LIMIT_HINT = `A whole number of ACUs, 0 to ${formatNumber(ORGANIZATION_LIMITS.acuLimit)}; empty: no limit.`;

export default function OrganizationDialogs({
  action,
  onClose,
}: {
  action: OrganizationAction | null;
  onClose: () => void;
}) {
  if (action?.kind === 'delete') return <DeleteOrganization org={action.org} onClose={onClose} />;
  const title =
    action?.kind === 'create'
      ? 'Create organization'
      : action?.kind === 'rename'
        ? `Rename ${action.org.name}`
        : action?.kind === 'limits'
          ? `ACU limits of ${action.org.name}`
          : '';
  const description =
    action?.kind === 'create'
      ? 'A new organization of the enterprise, with optional ACU limits.'
      : action?.kind === 'rename'
        ? 'Names are unique in the enterprise (compared without case).'
        : 'The most ACUs the organization may use per billing cycle, and per session. Clear a box to remove that limit.';
  return (
    <Dialog open={action !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="w-[min(94vw,32rem)]">
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        {action?.kind === 'create' && <CreateForm onDone={onClose} />}
        {action?.kind === 'rename' && <RenameForm org={action.org} onDone={onClose} />}
        {action?.kind === 'limits' && <LimitsForm org={action.org} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function Actions({ label, pending }: { label: string; pending: string }) {
  return (
    <div className="flex justify-end gap-2">
      <DialogClose asChild>
        <Button>Cancel</Button>
      </DialogClose>
      <SubmitButton pendingLabel={pending}>{label}</SubmitButton>
    </div>
  );
}

interface CreateValues {
  name: string;
  max_cycle_acu_limit?: number;
  max_session_acu_limit?: number;
}

function CreateForm({ onDone }: { onDone: () => void }) {
  const create = useCreateOrganization();
  return (
    <Form
      schema={OrganizationCreateBody}
      defaultValues={{ name: '' } as CreateValues}
      aria-label="Create organization"
      className="mt-4"
      onSubmit={async (body) => {
        const org = await create.mutateAsync(body);
        toast({ title: `Organization ${org.name} created`, tone: 'success' });
        onDone();
      }}
      actions={<Actions label="Create organization" pending="Creating…" />}
    >
      <TextField name="name" label="Name" autoComplete="off" />
      <LimitFields />
    </Form>
  );
}

function LimitFields() {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <NumberField
        name="max_cycle_acu_limit"
        label="ACU limit per billing cycle"
        description={LIMIT_HINT}
        min={0}
        max={ORGANIZATION_LIMITS.acuLimit}
        step={1}
        placeholder="No limit"
      />
      <NumberField
        name="max_session_acu_limit"
        label="ACU limit per session"
        description={`${LIMIT_HINT} At most the cycle limit.`}
        min={0}
        max={ORGANIZATION_LIMITS.acuLimit}
        step={1}
        placeholder="No limit"
      />
    </div>
  );
}

function RenameForm({ org, onDone }: { org: Organization; onDone: () => void }) {
  const update = useUpdateOrganization();
  return (
    <Form
      schema={OrganizationUpdateBody}
      defaultValues={{ name: org.name }}
      aria-label={`Rename ${org.name}`}
      className="mt-4"
      onSubmit={async (body) => {
        const next = await update.mutateAsync({ orgId: org.org_id, body });
        toast({ title: `Renamed to ${next.name}`, tone: 'success' });
        onDone();
      }}
      actions={<Actions label="Rename" pending="Renaming…" />}
    >
      <TextField name="name" label="Name" autoComplete="off" />
    </Form>
  );
}

interface LimitValues {
  max_cycle_acu_limit?: number;
  max_session_acu_limit?: number;
}

/** Both limits are sent: an empty box removes that limit (null). */
function toLimitsBody(v: LimitValues): OrganizationUpdateBody {
  return {
    max_cycle_acu_limit: v.max_cycle_acu_limit ?? null,
    max_session_acu_limit: v.max_session_acu_limit ?? null,
  };
}

function LimitsForm({ org, onDone }: { org: Organization; onDone: () => void }) {
  const update = useUpdateOrganization();
  return (
    <Form
      schema={OrganizationUpdateBody}
      defaultValues={{
        max_cycle_acu_limit: org.max_cycle_acu_limit ?? undefined,
        max_session_acu_limit: org.max_session_acu_limit ?? undefined,
      }}
      toBody={toLimitsBody}
      aria-label={`ACU limits of ${org.name}`}
      className="mt-4"
      onSubmit={async (body) => {
        await update.mutateAsync({ orgId: org.org_id, body });
        toast({ title: `ACU limits of ${org.name} saved`, tone: 'success' });
        onDone();
      }}
      actions={<Actions label="Save limits" pending="Saving…" />}
    >
      <LimitFields />
    </Form>
  );
}

function countText(c: Count, one: string, many: string): string {
  const n = `${c.atLeast ? 'at least ' : ''}${formatNumber(c.n)}`;
  return `${n} ${c.n === 1 && !c.atLeast ? one : many}`;
}

function DeleteOrganization({ org, onClose }: { org: Organization; onClose: () => void }) {
  const counts = useQuery(deletionCountsQueryOptions(org.org_id));
  const remove = useDeleteOrganization();
  const navigate = useNavigate();
  const c = counts.data;
  const unknown = c ? [c.sessions, c.notes, c.permissions].filter((x) => x.error !== undefined) : [];
  return (
    <ConfirmDelete
      target={org}
      onClose={onClose}
      mutation={remove}
      variables={(o) => o.org_id}
      title={`Delete ${org.name}?`}
      description={
        <div className="flex flex-col gap-2">
          <p>Everything in the organization is deleted with it. This cannot be undone. Its audit-log entries stay.</p>
          {counts.isPending ? (
            <p role="status">Counting what goes with it…</p>
          ) : counts.error ? (
            <ProblemView compact error={counts.error} />
          ) : c ? (
            <ul aria-label="What is deleted with it" className="list-disc pl-5 font-medium">
              <li>{countText(c.sessions, 'session', 'sessions')}</li>
              <li>{countText(c.notes, 'knowledge note', 'knowledge notes')}</li>
              <li>{countText(c.permissions, 'git permission', 'git permissions')}</li>
            </ul>
          ) : null}
          {unknown.length > 0 && (
            <p className="text-xs text-muted">
              Some lists could not be read in full (the console&apos;s credential may lack their permission): the counts
              marked &quot;at least&quot; may be higher.
            </p>
          )}
        </div>
      }
      typeToConfirm={org.name}
      confirmLabel="Delete organization"
      toastTitle={(o) => `Organization ${o.name} deleted`}
      onDeleted={(o) => {
        forgetOrg(o.org_id);
        void navigate({ to: '/' });
      }}
    />
  );
}
