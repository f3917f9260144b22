/**
 * IdP groups of the enterprise: each with its enterprise role (`idpGroups.roles.list`) and its role in each
 * organization (`idpGroups.organization.roles.list`, one list per organization, the first
 * ${IDP_ORG_ROLE_READS} organizations on the table), and how many members it has when the API says so; give a
 * group a role, change it or remove it, enterprise-wide or in one organization; register many at once from a
 * pasted list (one name per line, up to 100: repeats and names already registered are flagged and sent once or
 * ignored, malformed names stop the form); delete one behind a confirmation. Where a list could not be read, the
 * cell says so instead of "no role".
 */
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { Plus, UserCog } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { RegisterIdpGroupsBody, type IdpGroup } from '@/api/operations/idp-groups';
import { RoleIdBody, type Role } from '@/api/operations/members';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { ConfirmDelete, DeleteButton } from '@/components/delete-action';
import { FilterSelect } from '@/components/filter-select';
import { Form, SubmitButton, TextareaField } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import {
  IDP_ORG_ROLE_READS,
  idpGroupEnterpriseRolesQueryOptions,
  idpGroupOrgRolesQueryOptions,
  idpGroupsInfiniteQueryOptions,
  useDeleteIdpGroup,
  useRegisterIdpGroups,
  useRemoveIdpGroupRole,
  useSetIdpGroupRole,
  type GroupRoles,
} from './api';
import { IDP_GROUPS_LIMIT, readIdpGroupNames } from './paste-list';
import { RoleSelectField, useRolePicker } from './role-picker';
import { Flagged, MissingPermission, NotPublished, useOrganizations, type OrgDirectory } from './shared';

/** What the role-mapping lists established: the enterprise roles, and the roles in each organization read. */
export interface GroupRoleView {
  /** Undefined while loading or when it could not be read (`enterpriseError`). */
  enterprise: GroupRoles | undefined;
  enterpriseError: unknown;
  /** The organizations whose list was read, with each group's role there. */
  byOrg: ReadonlyMap<string, GroupRoles>;
  /** Organizations not (yet) read: beyond the bound, loading, or refused. */
  unread: number;
}

/** A group's organization roles, from the lists read: one entry per organization where it has one. */
export function orgRolesOf(name: string, view: GroupRoleView): Array<{ orgId: string; role: Role }> {
  const out: Array<{ orgId: string; role: Role }> = [];
  for (const [orgId, roles] of view.byOrg) {
    const role = roles.get(name);
    if (role) out.push({ orgId, role });
  }
  return out;
}

const col = columnHelper<IdpGroup>();

function EnterpriseRoleCell({ name, view }: { name: string; view: GroupRoleView }) {
  if (view.enterpriseError) return <span className="text-xs text-muted">Could not be read</span>;
  if (!view.enterprise) return <span className="text-xs text-muted">Reading…</span>;
  const role = view.enterprise.get(name);
  return role ? (
    <Badge tone="accent" title={`${role.role_name}, enterprise-wide`} className="max-w-full truncate">
      {role.role_name}
    </Badge>
  ) : (
    <span className="text-xs text-muted">None</span>
  );
}

function OrgRolesCell({ name, view, orgName }: { name: string; view: GroupRoleView; orgName: (id: string) => string }) {
  const roles = orgRolesOf(name, view);
  const shown = roles.slice(0, 3);
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-1">
      {shown.map(({ orgId, role }) => (
        <Badge key={orgId} className="max-w-full truncate" title={`${role.role_name} in ${orgName(orgId)}`}>
          {role.role_name} · {orgName(orgId)}
        </Badge>
      ))}
      {roles.length > shown.length && (
        <span className="text-xs text-muted">+{formatNumber(roles.length - shown.length)} more</span>
      )}
      {roles.length === 0 && view.unread === 0 && <span className="text-xs text-muted">None</span>}
      {view.unread > 0 && (
        <span className="text-xs text-muted">
          {roles.length === 0 ? 'None in the organizations read; ' : ''}
          {formatNumber(view.unread)} {view.unread === 1 ? 'organization' : 'organizations'} not read
        </span>
      )}
    </span>
  );
}

function groupColumns(opts: {
  orgName: (orgId: string) => string;
  view: GroupRoleView;
  canManage: boolean | undefined;
  reason: string | undefined;
  onRoles: (g: IdpGroup) => void;
  onDelete: (g: IdpGroup) => void;
}) {
  const { orgName, view, canManage, reason, onRoles, onDelete } = opts;
  return col.columns([
    col.accessor('idp_group_name', {
      header: 'IdP group',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(12rem,1.2fr)', className: 'truncate font-medium' },
    }),
    col.accessor((g) => view.enterprise?.get(g.idp_group_name)?.role_name ?? '', {
      id: 'enterprise_role',
      header: 'Enterprise role',
      enableSorting: true,
      meta: { width: 'minmax(9rem,0.9fr)', label: 'Enterprise role' },
      cell: ({ row: { original: g } }) => <EnterpriseRoleCell name={g.idp_group_name} view={view} />,
    }),
    col.display({
      id: 'org_roles',
      header: 'Organization roles',
      meta: { width: 'minmax(14rem,2fr)', label: 'Organization roles' },
      cell: ({ row: { original: g } }) => <OrgRolesCell name={g.idp_group_name} view={view} orgName={orgName} />,
    }),
    col.accessor((g) => g.member_count ?? -1, {
      id: 'member_count',
      header: 'Members',
      enableSorting: true,
      sortDescFirst: true,
      meta: { width: '7rem', align: 'end', className: 'tabular-nums' },
      cell: ({ row: { original: g } }) =>
        g.member_count === undefined ? (
          <NotPublished what="how many members a group has" />
        ) : (
          formatNumber(g.member_count)
        ),
    }),
    col.accessor('created_at', {
      header: 'Registered',
      ...timeColumn({ width: '7.5rem' }),
      cell: ({ row: { original: g } }) =>
        g.created_at === undefined ? (
          <NotPublished what="when a group was registered" />
        ) : (
          timeColumn().cell({ getValue: () => g.created_at })
        ),
    }),
    col.display({
      id: 'actions',
      header: 'Actions',
      enableHiding: false,
      meta: { width: '10.5rem', label: 'Actions', className: 'flex gap-1' },
      cell: ({ row: { original: g } }) => (
        <>
          <Button size="sm" aria-label={`Roles of ${g.idp_group_name}`} onClick={() => onRoles(g)}>
            <UserCog className="size-3.5" aria-hidden /> Roles
          </Button>
          <DeleteButton
            label={`Delete ${g.idp_group_name}`}
            disabled={canManage === false}
            title={reason}
            onClick={() => onDelete(g)}
          />
        </>
      ),
    }),
  ]);
}

/** Stable (module level), so that `useQueries` keeps its combined result while no list changes. */
const dataOf = (results: ReadonlyArray<{ data: GroupRoles | undefined }>) => results.map((q) => q.data);

/** The role-mapping lists: the enterprise's, and each organization's for the first organizations. */
function useGroupRoleView(orgs: OrgDirectory): GroupRoleView {
  const enterprise = useQuery(idpGroupEnterpriseRolesQueryOptions());
  const { organizations } = orgs;
  const read = useMemo(() => organizations.slice(0, IDP_ORG_ROLE_READS), [organizations]);
  const perOrg = useQueries({
    queries: read.map((o) => idpGroupOrgRolesQueryOptions(o.org_id)),
    combine: dataOf,
  });
  return useMemo(() => {
    const byOrg = new Map<string, GroupRoles>();
    perOrg.forEach((r, i) => {
      const id = read[i]?.org_id;
      if (r && id) byOrg.set(id, r);
    });
    return {
      enterprise: enterprise.data,
      enterpriseError: enterprise.error,
      byOrg,
      unread: organizations.length - byOrg.size,
    };
  }, [enterprise.data, enterprise.error, perOrg, read, organizations.length]);
}

/** `history`: the history of the groups' roles, composed by the route. */
export function IdpGroupsScreen({ history }: { history?: ReactNode } = {}) {
  const canManage = useHasPermission('ManageAccountMembership');
  const reason = missingPermissionTitle('ManageAccountMembership', canManage);
  const orgs = useOrganizations();
  const query = useInfiniteQuery(idpGroupsInfiniteQueryOptions());
  const view = useGroupRoleView(orgs);
  const [deleting, setDeleting] = useState<IdpGroup | null>(null);
  const [editing, setEditing] = useState<IdpGroup | null>(null);
  const [registering, setRegistering] = useState(false);
  const remove = useDeleteIdpGroup();
  const columns = useMemo(
    () => groupColumns({ orgName: orgs.name, view, canManage, reason, onRoles: setEditing, onDelete: setDeleting }),
    [orgs.name, view, canManage, reason],
  );
  const known = useMemo(
    () => new Set(query.data?.pages.flatMap((p) => p.items.map((g) => g.idp_group_name.toLowerCase())) ?? []),
    [query.data],
  );

  return (
    <>
      <PageHeader
        title="IdP groups"
        description="Groups of your identity provider: their members get the group’s enterprise role and its role in each organization."
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
      {view.enterpriseError ? (
        <div className="mb-3">
          <ProblemView compact error={view.enterpriseError}>
            <span className="text-sm text-muted">The groups’ enterprise roles could not be read.</span>
          </ProblemView>
        </div>
      ) : null}
      {orgs.organizations.length > IDP_ORG_ROLE_READS && (
        <p className="mb-2 text-xs text-muted" role="note">
          Organization roles are read for the first {formatNumber(IDP_ORG_ROLE_READS)} of{' '}
          {formatNumber(orgs.organizations.length)} organizations; a group’s Roles show any organization.
        </p>
      )}
      <DataTable
        label="IdP groups"
        tableId="idp-groups"
        columns={columns}
        query={query}
        getRowId={(g) => g.idp_group_name}
        minWidth="62rem"
        estimateRowHeight={48}
        empty={{ title: 'No IdP groups yet', hint: 'Register them with Register groups.' }}
      />
      <GroupRolesDialog
        group={editing}
        orgs={orgs}
        view={view}
        canManage={canManage}
        onClose={() => setEditing(null)}
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
      <ConfirmDelete
        target={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        variables={(g) => g.idp_group_name}
        title={`Delete the IdP group ${deleting?.idp_group_name ?? ''}?`}
        description={`${
          deleting?.member_count === undefined
            ? 'Its members lose'
            : `Its ${formatNumber(deleting.member_count)} ${deleting.member_count === 1 ? 'member loses' : 'members lose'}`
        } the roles the group gives them (roles held directly stay). Its role mappings go with it.`}
        confirmLabel="Delete group"
        toastTitle={(g) => `IdP group ${g.idp_group_name} deleted`}
      />
      {history && <div className="mt-8">{history}</div>}
    </>
  );
}

/**
 * A group's roles: its enterprise role, and its role in the organization chosen (read on demand, so any
 * organization, not only those on the table). Each is given, changed or removed on its own.
 */
function GroupRolesDialog({
  group,
  orgs,
  view,
  canManage,
  onClose,
}: {
  group: IdpGroup | null;
  orgs: OrgDirectory;
  view: GroupRoleView;
  canManage: boolean | undefined;
  onClose: () => void;
}) {
  const name = group?.idp_group_name ?? '';
  const [orgId, setOrgId] = useState('');
  const current = orgRolesOf(name, view);
  const chosen = orgId || current[0]?.orgId || orgs.organizations[0]?.org_id || '';
  return (
    <Dialog
      open={group !== null}
      onOpenChange={(o) => {
        if (!o) {
          setOrgId('');
          onClose();
        }
      }}
    >
      <DialogContent className="w-[min(94vw,40rem)]">
        <DialogTitle>Roles of {name}</DialogTitle>
        <DialogDescription>
          Members of the group get its enterprise role everywhere, and its role in an organization there. Roles held
          directly do not change.
        </DialogDescription>
        {group && (
          <div className="mt-4 flex flex-col gap-5">
            <section aria-labelledby="group-enterprise-role" className="flex flex-col gap-2">
              <h3 id="group-enterprise-role" className="text-sm font-semibold">
                Enterprise role
              </h3>
              {view.enterpriseError ? (
                <ProblemView compact error={view.enterpriseError} />
              ) : !view.enterprise ? (
                <p className="text-sm text-muted">Reading…</p>
              ) : (
                <LevelRoleForm
                  key={`enterprise:${view.enterprise.get(name)?.role_id ?? ''}`}
                  name={name}
                  orgId={null}
                  where="enterprise role"
                  current={view.enterprise.get(name)}
                  canManage={canManage}
                />
              )}
            </section>
            <section aria-labelledby="group-org-role" className="flex flex-col gap-2">
              <h3 id="group-org-role" className="text-sm font-semibold">
                Role in an organization
              </h3>
              {current.length > 0 && (
                <p className="text-xs text-muted">
                  Has a role in: {current.map((c) => `${orgs.name(c.orgId)} (${c.role.role_name})`).join(', ')}
                  {view.unread > 0 ? ' among the organizations read' : ''}.
                </p>
              )}
              {orgs.organizations.length === 0 ? (
                <p className="text-sm text-muted">No organizations.</p>
              ) : (
                <>
                  <FilterSelect
                    className="w-full sm:w-72"
                    label="Organization"
                    value={chosen}
                    options={orgs.organizations.map((o) => ({ value: o.org_id, label: o.name }))}
                    onValueChange={(v) => setOrgId(v)}
                  />
                  {chosen && <OrgRole name={name} orgId={chosen} orgName={orgs.name(chosen)} canManage={canManage} />}
                </>
              )}
            </section>
          </div>
        )}
        <div className="mt-4 flex justify-end">
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function OrgRole({
  name,
  orgId,
  orgName,
  canManage,
}: {
  name: string;
  orgId: string;
  orgName: string;
  canManage: boolean | undefined;
}) {
  const roles = useQuery(idpGroupOrgRolesQueryOptions(orgId));
  if (roles.error) return <ProblemView compact error={roles.error} onRetry={() => void roles.refetch()} />;
  if (!roles.data) return <p className="text-sm text-muted">Reading…</p>;
  const current = roles.data.get(name);
  return (
    <LevelRoleForm
      key={`${orgId}:${current?.role_id ?? ''}`}
      name={name}
      orgId={orgId}
      where={`role in ${orgName}`}
      current={current}
      canManage={canManage}
    />
  );
}

/** One level's role of a group: the role select and Save (assign or change), and Remove when it has one. */
function LevelRoleForm({
  name,
  orgId,
  where,
  current,
  canManage,
}: {
  name: string;
  orgId: string | null;
  /** "enterprise role", "role in Payments Core". */
  where: string;
  current: Role | undefined;
  canManage: boolean | undefined;
}) {
  const picker = useRolePicker(orgId);
  const set = useSetIdpGroupRole();
  const remove = useRemoveIdpGroupRole();
  const reason = missingPermissionTitle('ManageAccountMembership', canManage);
  const label = where[0]!.toUpperCase() + where.slice(1);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm" data-testid={orgId === null ? 'group-enterprise-role' : 'group-org-role'}>
        {current ? (
          <>
            Now: <span className="font-medium">{current.role_name}</span>
          </>
        ) : (
          <span className="text-muted">No {where} now.</span>
        )}
      </p>
      <Form
        schema={RoleIdBody}
        defaultValues={{ role_id: current?.role_id ?? '' }}
        aria-label={`${label} of ${name}`}
        onSubmit={async (body) => {
          remove.reset();
          await set.mutateAsync({ name, orgId, body });
          toast({ title: `${name}: ${where} is now ${picker.roleName(body.role_id)}`, tone: 'success' });
        }}
        actions={
          <div className="flex flex-wrap justify-end gap-2">
            {current && (
              <Button
                variant="ghost"
                className="text-danger"
                disabled={canManage === false || remove.isPending}
                title={reason}
                onClick={() =>
                  remove.mutate(
                    { name, orgId },
                    { onSuccess: () => toast({ title: `${name}: ${where} removed`, tone: 'success' }) },
                  )
                }
              >
                {remove.isPending ? 'Removing…' : `Remove ${where}`}
              </Button>
            )}
            <SubmitButton pendingLabel="Saving…" disabled={canManage === false}>
              {current ? `Change ${where}` : `Give ${where}`}
            </SubmitButton>
          </div>
        }
      >
        <RoleSelectField picker={picker} label={label} disabled={canManage === false} />
      </Form>
      {remove.error && <ProblemView compact error={remove.error} />}
    </div>
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
