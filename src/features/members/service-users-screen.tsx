/**
 * Service users of the enterprise (every level) or of one organization (those created there): their role,
 * level, expiry (a warning when it ends within 14 days) and state; create one (the credential shown once);
 * give one a role or change it; delete one behind a typed confirmation, after which its credential is refused.
 * Fields the vendor's ServiceUser lacks (`created_at`, `org_id`) read "Not published", never a guess.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { AlertTriangle, UserCog } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import type { ServiceUser } from '@/api/operations/service-users';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { ConfirmDelete, DeleteButton } from '@/components/delete-action';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { formatDateTime, formatRelative } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { useNow } from '@/lib/use-now';
import { serviceUsersInfiniteQueryOptions, useDeleteServiceUser, type MembersScope } from './api';
import { CreateServiceUserButton } from './create-service-user';
import { ServiceUserRoleDialog, serviceUserLevel } from './service-user-role';
import { AssignmentBadges, MissingPermission, NotPublished, useOrganizations } from './shared';

/** An expiry this close is warned about. */
export const EXPIRY_WARNING_DAYS = 14;
const DAY = 86_400;

export type ServiceUserState = 'active' | 'expiring' | 'expired' | 'deleted';

export function serviceUserState(s: ServiceUser, nowSeconds: number): ServiceUserState {
  if (s.deleted_at != null) return 'deleted';
  if (s.expires_at != null && s.expires_at <= nowSeconds) return 'expired';
  if (s.expires_at != null && s.expires_at - nowSeconds <= EXPIRY_WARNING_DAYS * DAY) return 'expiring';
  return 'active';
}

function StateBadge({ state }: { state: ServiceUserState }) {
  switch (state) {
    case 'deleted':
      return <Badge>Deleted</Badge>;
    case 'expired':
      return <Badge tone="danger">Expired</Badge>;
    case 'expiring':
      return <Badge tone="warn">Active, expiring</Badge>;
    default:
      return <Badge tone="success">Active</Badge>;
  }
}

/** The word a deletion is confirmed with: the name itself, unless it is too long to type. */
export const confirmWord = (s: ServiceUser) => (s.name.length <= 60 ? s.name : 'delete');

const col = columnHelper<ServiceUser>();

function serviceUserColumns(opts: {
  now: number;
  orgName: (orgId: string) => string;
  canManage: boolean | undefined;
  reason: string | undefined;
  screenOrgId: string | null;
  onRole: (s: ServiceUser) => void;
  onDelete: (s: ServiceUser) => void;
}) {
  const { now, orgName, canManage, reason, screenOrgId, onRole, onDelete } = opts;
  return col.columns([
    col.accessor('name', {
      header: 'Name',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(12rem,1.3fr)', className: 'flex flex-col' },
      cell: ({ row: { original: s } }) => (
        <>
          <span className="truncate font-medium">{s.name}</span>
          <span className="truncate font-mono text-xs text-muted">{s.service_user_id}</span>
        </>
      ),
    }),
    col.display({
      id: 'role',
      header: 'Role',
      meta: { width: 'minmax(12rem,1.5fr)', label: 'Role' },
      cell: ({ row: { original: s } }) => (
        <AssignmentBadges assignments={s.role_assignments} orgName={orgName} max={2} />
      ),
    }),
    // The level it was created at (sandbox `org_id`), else the level of its role (the vendor says only that).
    col.accessor(
      (s) => {
        const level = serviceUserLevel(s, screenOrgId);
        return level ? orgName(level) : s.role_assignments.length ? 'Enterprise' : '';
      },
      {
        id: 'level',
        header: 'Level',
        enableSorting: true,
        meta: { width: 'minmax(8rem,0.8fr)', className: 'truncate text-xs' },
        cell: ({ getValue }) => getValue() || <NotPublished what="the level of a service user without a role" />,
      },
    ),
    col.accessor((s) => s.expires_at ?? Number.MAX_SAFE_INTEGER, {
      id: 'expires_at',
      header: 'Expires',
      enableSorting: true,
      meta: {
        width: '10rem',
        className: 'text-xs',
        cellTitle: (s: ServiceUser) => (s.expires_at == null ? undefined : formatDateTime(s.expires_at)),
      },
      cell: ({ row: { original: s } }) => {
        if (s.expires_at == null) return <span className="text-muted">Never</span>;
        const soon = serviceUserState(s, now) === 'expiring';
        return (
          <span className={soon ? 'inline-flex items-center gap-1 font-medium text-warn' : undefined}>
            {soon && <AlertTriangle className="size-3.5 shrink-0" aria-hidden />}
            {s.expires_at <= now ? 'Ended ' : soon ? 'Ends ' : ''}
            {formatRelative(s.expires_at, now * 1000)}
            {soon && <span className="sr-only"> (within {EXPIRY_WARNING_DAYS} days)</span>}
          </span>
        );
      },
    }),
    col.accessor((s) => serviceUserState(s, now), {
      id: 'state',
      header: 'State',
      enableSorting: true,
      meta: { width: '8.5rem' },
      cell: ({ getValue }) => <StateBadge state={getValue()} />,
    }),
    col.accessor('created_at', {
      header: 'Created',
      ...timeColumn({ width: '7rem' }),
      cell: ({ row: { original: s } }) =>
        s.created_at === undefined ? (
          <NotPublished what="when a service user was created" />
        ) : (
          timeColumn().cell({ getValue: () => s.created_at })
        ),
    }),
    col.display({
      id: 'actions',
      header: 'Actions',
      enableHiding: false,
      meta: { width: '12rem', label: 'Actions', className: 'flex gap-1' },
      cell: ({ row: { original: s } }) =>
        s.deleted_at == null ? (
          <>
            <Button
              size="sm"
              disabled={canManage === false}
              title={reason}
              aria-label={`Change role of ${s.name}`}
              onClick={() => onRole(s)}
            >
              <UserCog className="size-3.5" aria-hidden /> Role
            </Button>
            <DeleteButton
              label={`Delete ${s.name}`}
              disabled={canManage === false}
              title={reason}
              onClick={() => onDelete(s)}
            />
          </>
        ) : null,
    }),
  ]);
}

export function ServiceUsersScreen({
  scope,
  includeInactive,
  onIncludeInactiveChange,
  history,
}: {
  scope: MembersScope;
  includeInactive: boolean;
  onIncludeInactiveChange: (v: boolean) => void;
  /** The history of service users' roles, composed by the route. */
  history?: ReactNode;
}) {
  const orgId = scope.kind === 'org' ? scope.orgId : null;
  const permission = orgId ? 'ManageOrgServiceUsers' : 'ManageAccountServiceUsers';
  const canManage = useHasPermission(permission);
  const reason = missingPermissionTitle(permission, canManage);
  const orgs = useOrganizations();
  const query = useInfiniteQuery(serviceUsersInfiniteQueryOptions(scope, includeInactive));
  const now = Math.floor(useNow(60_000) / 1000);
  const [deleting, setDeleting] = useState<ServiceUser | null>(null);
  const [roleOf, setRoleOf] = useState<ServiceUser | null>(null);
  const remove = useDeleteServiceUser();
  const columns = useMemo(
    () =>
      serviceUserColumns({
        now,
        orgName: orgs.name,
        canManage,
        reason,
        screenOrgId: orgId,
        onRole: setRoleOf,
        onDelete: setDeleting,
      }),
    [now, orgs.name, canManage, reason, orgId],
  );

  return (
    <>
      <PageHeader
        title="Service users"
        description={
          orgId
            ? `Credentials for programs, created in ${orgs.name(orgId)}: organization roles, this organization only.`
            : 'Credentials for programs, at the enterprise level and in every organization. A service user may grant only what it holds itself.'
        }
        actions={
          <>
            <CreateServiceUserButton scope={scope} orgs={orgs} disabled={canManage === false} title={reason} />
            <MissingPermission permission={permission} has={canManage} />
          </>
        }
      />
      <div className="mb-3 flex items-center gap-2 text-sm">
        <Switch
          id="include-inactive"
          checked={includeInactive}
          onCheckedChange={(c) => onIncludeInactiveChange(c === true)}
        />
        <label htmlFor="include-inactive">Show expired and deleted service users</label>
      </div>
      <DataTable
        label="Service users"
        tableId={orgId ? 'org-service-users' : 'service-users'}
        columns={columns}
        query={query}
        getRowId={(s) => s.service_user_id}
        minWidth="68rem"
        estimateRowHeight={56}
        empty={{
          title: includeInactive ? 'No service users' : 'No active service users',
          hint: 'Create one with New service user.',
        }}
      />
      <ServiceUserRoleDialog
        serviceUser={roleOf}
        screenOrgId={orgId}
        orgName={orgs.name}
        onClose={() => setRoleOf(null)}
      />
      <ConfirmDelete
        target={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        variables={(s) => ({ serviceUserId: s.service_user_id, orgId })}
        title={`Delete ${deleting?.name ?? 'service user'}?`}
        description="Its credential stops working at once (the API answers 401) and cannot be restored. Programs that use it stop."
        typeToConfirm={deleting ? confirmWord(deleting) : undefined}
        confirmLabel="Delete service user"
        toastTitle={(s) => `${s.name} deleted; its credential no longer works`}
      />
      {history && <div className="mt-8">{history}</div>}
    </>
  );
}
