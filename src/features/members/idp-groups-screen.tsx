/**
 * IdP groups of the enterprise: each with the roles its members get and how many members it has; register
 * many at once from a pasted list (one name per line, up to 100: repeats and names already registered are
 * flagged and sent once or ignored, malformed names stop the form); delete one behind a confirmation.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { RegisterIdpGroupsBody, type IdpGroup } from '@/api/operations/idp-groups';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { Form, SubmitButton, TextareaField } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { idpGroupsInfiniteQueryOptions, useDeleteIdpGroup, useRegisterIdpGroups } from './api';
import { IDP_GROUPS_LIMIT, readIdpGroupNames } from './paste-list';
import { AssignmentBadges, Flagged, MissingPermission, useOrganizations } from './shared';

const col = columnHelper<IdpGroup>();

function groupColumns(opts: {
  orgName: (orgId: string) => string;
  canManage: boolean | undefined;
  reason: string | undefined;
  onDelete: (g: IdpGroup) => void;
}) {
  const { orgName, canManage, reason, onDelete } = opts;
  return col.columns([
    col.accessor('idp_group_name', {
      header: 'IdP group',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(12rem,1.2fr)', className: 'truncate font-medium' },
    }),
    col.display({
      id: 'roles',
      header: 'Roles its members get',
      meta: { width: 'minmax(14rem,2fr)', label: 'Roles its members get' },
      cell: ({ row: { original: g } }) =>
        (g.role_assignments ?? []).length > 0 ? (
          <AssignmentBadges assignments={g.role_assignments ?? []} orgName={orgName} max={3} />
        ) : (
          <span className="text-xs text-muted">No role yet</span>
        ),
    }),
    col.accessor((g) => g.member_count ?? 0, {
      id: 'member_count',
      header: 'Members',
      enableSorting: true,
      sortDescFirst: true,
      meta: { width: '6rem', align: 'end', className: 'tabular-nums' },
      cell: ({ row: { original: g } }) => (g.member_count === undefined ? '—' : formatNumber(g.member_count)),
    }),
    col.accessor('created_at', { header: 'Registered', ...timeColumn({ width: '7.5rem' }) }),
    col.display({
      id: 'actions',
      header: 'Actions',
      enableHiding: false,
      meta: { width: '6rem', label: 'Actions' },
      cell: ({ row: { original: g } }) => (
        <Button
          size="sm"
          variant="ghost"
          className="text-danger"
          disabled={canManage === false}
          title={reason}
          aria-label={`Delete ${g.idp_group_name}`}
          onClick={() => onDelete(g)}
        >
          <Trash2 className="size-3.5" aria-hidden /> Delete
        </Button>
      ),
    }),
  ]);
}

export function IdpGroupsScreen() {
  const canManage = useHasPermission('ManageAccountMembership');
  const reason = missingPermissionTitle('ManageAccountMembership', canManage);
  const orgs = useOrganizations();
  const query = useInfiniteQuery(idpGroupsInfiniteQueryOptions());
  const [deleting, setDeleting] = useState<IdpGroup | null>(null);
  const [registering, setRegistering] = useState(false);
  const remove = useDeleteIdpGroup();
  const columns = useMemo(
    () => groupColumns({ orgName: orgs.name, canManage, reason, onDelete: setDeleting }),
    [orgs.name, canManage, reason],
  );
  const known = useMemo(
    () => new Set(query.data?.pages.flatMap((p) => p.items.map((g) => g.idp_group_name.toLowerCase())) ?? []),
    [query.data],
  );

  return (
    <>
      <PageHeader
        title="IdP groups"
        description="Groups of your identity provider: their members get the roles mapped to the group."
        actions={
          <>
            <Button
              variant="primary"
              disabled={canManage === false}
              title={reason}
              onClick={() => setRegistering(true)}
            >
              <Plus className="size-4" aria-hidden /> Register groups
            </Button>
            <MissingPermission permission="ManageAccountMembership" has={canManage} />
          </>
        }
      />
      <DataTable
        label="IdP groups"
        tableId="idp-groups"
        columns={columns}
        query={query}
        getRowId={(g) => g.idp_group_name}
        minWidth="52rem"
        estimateRowHeight={48}
        empty={{ title: 'No IdP groups yet', hint: 'Register them with Register groups.' }}
      />
      <Dialog open={registering} onOpenChange={setRegistering}>
        <DialogContent className="w-[min(94vw,38rem)]">
          <DialogTitle>Register IdP groups</DialogTitle>
          <DialogDescription>
            One name per line, up to {IDP_GROUPS_LIMIT} at a time, as your identity provider names them. Names already
            registered are left as they are.
          </DialogDescription>
          {registering && <RegisterForm known={known} onDone={() => setRegistering(false)} />}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => {
          if (!o) {
            setDeleting(null);
            remove.reset();
          }
        }}
        destructive
        title={`Delete the IdP group ${deleting?.idp_group_name ?? ''}?`}
        description={`Its ${formatNumber(deleting?.member_count ?? 0)} members lose the roles the group gives them (roles held directly stay). Its role mappings go with it.`}
        confirmLabel="Delete group"
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          const name = deleting.idp_group_name;
          remove.mutate(name, {
            onSuccess: () => {
              toast({ title: `IdP group ${name} deleted`, tone: 'success' });
              setDeleting(null);
              remove.reset();
            },
          });
        }}
      >
        {remove.error && (
          <div className="mt-3">
            <ProblemView compact error={remove.error} />
          </div>
        )}
      </ConfirmDialog>
    </>
  );
}

interface RegisterValues {
  /** The pasted names; the body's list is read from it. */
  idp_group_names: string;
}

function toBody(v: RegisterValues): RegisterIdpGroupsBody {
  return { idp_group_names: readIdpGroupNames(v.idp_group_names).sent };
}

const countNames = (v: unknown) => (typeof v === 'string' ? readIdpGroupNames(v).sent.length : 0);

function RegisterForm({ known, onDone }: { known: ReadonlySet<string>; onDone: () => void }) {
  const register = useRegisterIdpGroups();
  return (
    <Form
      schema={RegisterIdpGroupsBody}
      defaultValues={{ idp_group_names: '' }}
      toBody={toBody}
      aria-label="Register IdP groups"
      className="mt-4"
      onSubmit={async (body) => {
        const created = await register.mutateAsync(body);
        const ignored = body.idp_group_names.length - created.length;
        toast({
          title: `Registered ${formatNumber(created.length)} IdP ${created.length === 1 ? 'group' : 'groups'}`,
          description: ignored > 0 ? `${formatNumber(ignored)} already registered, left as they were.` : undefined,
          tone: 'success',
        });
        onDone();
      }}
      actions={
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <SubmitButton pendingLabel="Registering…">Register groups</SubmitButton>
        </div>
      }
    >
      <TextareaField
        name="idp_group_names"
        label="Group names"
        description="One per line. No / or \, at most 256 characters each."
        limit={IDP_GROUPS_LIMIT}
        countOf={countNames}
        unit="groups"
        placeholder={'eng-platform\nsecurity-team'}
        textareaClassName="min-h-36 font-mono text-xs"
      />
      <RegisterPreview known={known} />
    </Form>
  );
}

function RegisterPreview({ known }: { known: ReadonlySet<string> }) {
  const text = useWatch<RegisterValues, 'idp_group_names'>({ name: 'idp_group_names' });
  const list = useMemo(() => readIdpGroupNames(text ?? ''), [text]);
  if (list.entries.length === 0) return null;
  const already = list.entries.filter(
    (e) => e.repeats === undefined && e.problem === undefined && known.has(e.value.toLowerCase()),
  );
  const fresh = list.valid - already.length;
  return (
    <div className="-mt-2 flex flex-col gap-2 text-xs" data-testid="register-preview">
      <p aria-live="polite" className="text-muted">
        {formatNumber(fresh)} new {fresh === 1 ? 'group' : 'groups'}
        {already.length > 0 && ` · ${formatNumber(already.length)} already registered (ignored)`}
        {list.repeated.length > 0 && ` · ${formatNumber(list.repeated.length)} repeated (sent once)`}
        {list.malformed.length > 0 && ` · ${formatNumber(list.malformed.length)} malformed`}
      </p>
      <Flagged title="Malformed: fix or remove them" tone="danger" entries={list.malformed} reason={(e) => e.problem} />
      <Flagged title="Already registered: left as they are" tone="muted" entries={already} reason={() => undefined} />
      <Flagged
        title="Repeated: each is registered once"
        tone="muted"
        entries={list.repeated}
        reason={(e) => `repeats line ${list.entries[e.repeats ?? 0]?.line ?? '?'}`}
      />
    </div>
  );
}
