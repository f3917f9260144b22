/**
 * The members screen's columns: a member with its roles (enterprise-wide and per organization, direct and
 * through IdP groups), when it joined and its actions; and on an organization's "Through IdP groups" tab a
 * member with the roles it gets there through its groups.
 */
import { Link } from '@tanstack/react-router';
import { Trash2 } from 'lucide-react';
import type { IdpUser, User } from '@/api/operations/members';
import { columnHelper, timeColumn } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { missingPermissionTitle } from '@/lib/principal';
import { AssignmentBadges, IdpAssignmentLines, NotPublished } from './shared';

export type MemberAction = { kind: 'role' | 'remove'; user: User } | null;

const col = columnHelper<User>();
const idpCol = columnHelper<IdpUser>();

/** The member, linked to its page (in the screen's organization, when it has one). */
function MemberCell({
  userId,
  orgId,
  email,
  name,
}: {
  userId: string;
  orgId: string | undefined;
  email: string | null;
  name: string | null;
}) {
  return (
    <span className="flex min-w-0 flex-col">
      <Link
        to="/members/$userId"
        params={{ userId }}
        search={orgId ? { org: orgId } : {}}
        className="truncate font-medium text-accent underline-offset-2 hover:underline"
        title={email ?? undefined}
      >
        {email ?? name ?? 'Member without an address'}
      </Link>
      <span className="truncate text-xs text-muted">{name ?? 'Not signed in yet'}</span>
    </span>
  );
}

export function memberColumns(opts: {
  orgId: string | undefined;
  orgName: (orgId: string) => string;
  canManage: boolean | undefined;
  act: (a: MemberAction) => void;
}) {
  const { orgId, orgName, canManage, act } = opts;
  const reason = missingPermissionTitle('ManageAccountMembership', canManage);
  return col.columns([
    col.accessor((u) => u.email ?? u.name ?? u.user_id, {
      id: 'member',
      header: 'Member',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(13rem,1.5fr)' },
      cell: ({ row: { original: u } }) => <MemberCell userId={u.user_id} orgId={orgId} email={u.email} name={u.name} />,
    }),
    ...(orgId === undefined
      ? [
          col.accessor((u) => u.role_assignments.find((a) => !a.org_id)?.role.role_name ?? '', {
            id: 'enterprise_role',
            header: 'Enterprise role',
            enableSorting: true,
            meta: { width: 'minmax(8.5rem,0.8fr)', className: 'truncate' },
            cell: ({ getValue }) => getValue() || <span className="text-muted">—</span>,
          }),
          col.display({
            id: 'organization_roles',
            header: 'Organization roles',
            meta: { width: 'minmax(12rem,1.5fr)', label: 'Organization roles' },
            cell: ({ row: { original: u } }) => (
              <AssignmentBadges assignments={u.role_assignments.filter((a) => a.org_id)} orgName={orgName} max={3} />
            ),
          }),
        ]
      : [
          col.accessor((u) => u.role_assignments.find((a) => a.org_id === orgId)?.role.role_name ?? '', {
            id: 'org_role',
            header: 'Role here',
            enableSorting: true,
            meta: { width: 'minmax(9rem,0.8fr)', className: 'truncate font-medium' },
            cell: ({ getValue }) => getValue() || <span className="text-muted">—</span>,
          }),
          col.display({
            id: 'enterprise_roles',
            header: 'Enterprise-wide',
            meta: { width: 'minmax(9rem,1fr)', label: 'Enterprise-wide' },
            cell: ({ row: { original: u } }) => (
              <AssignmentBadges assignments={u.role_assignments.filter((a) => !a.org_id)} orgName={orgName} />
            ),
          }),
        ]),
    col.display({
      id: 'idp',
      header: 'Through IdP groups',
      meta: { width: 'minmax(11rem,1.3fr)', label: 'Through IdP groups' },
      cell: ({ row: { original: u } }) =>
        (u.idp_role_assignments ?? []).length > 0 ? (
          <IdpAssignmentLines assignments={u.idp_role_assignments ?? []} orgName={orgName} max={2} />
        ) : (u.idp_group_names ?? []).length > 0 ? (
          <span
            className="block truncate text-xs text-muted"
            title={`Groups with no role: ${(u.idp_group_names ?? []).join(', ')}`}
          >
            Groups: {(u.idp_group_names ?? []).join(', ')} (no role)
          </span>
        ) : u.idp_role_assignments === undefined ? (
          // The vendor's User (on lists) does not carry them: absence says nothing about the user's groups.
          <NotPublished what="the roles a member gets through IdP groups on this list" />
        ) : (
          <span className="text-muted">—</span>
        ),
    }),
    col.accessor('created_at', {
      header: 'Joined',
      ...timeColumn({ width: '6.5rem' }),
      cell: ({ row: { original: u } }) =>
        u.created_at === undefined ? (
          <NotPublished what="when a member joined" />
        ) : (
          timeColumn().cell({ getValue: () => u.created_at })
        ),
    }),
    col.display({
      id: 'actions',
      header: 'Actions',
      enableHiding: false,
      meta: { width: '8.5rem', label: 'Actions', className: 'flex gap-1' },
      cell: ({ row: { original: u } }) => {
        const name = u.email ?? u.user_id;
        return (
          <>
            <Button
              size="sm"
              disabled={canManage === false}
              title={reason}
              aria-label={`Change role of ${name}`}
              onClick={() => act({ kind: 'role', user: u })}
            >
              Change role
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-danger"
              disabled={canManage === false}
              title={reason ?? 'Remove'}
              aria-label={`Remove ${name}`}
              onClick={() => act({ kind: 'remove', user: u })}
            >
              <Trash2 className="size-3.5" aria-hidden />
            </Button>
          </>
        );
      },
    }),
  ]);
}

export function idpColumns(orgName: (orgId: string) => string, orgId: string | undefined) {
  return idpCol.columns([
    idpCol.accessor((u) => u.email ?? u.name ?? u.user_id, {
      id: 'member',
      header: 'Member',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(14rem,1.4fr)' },
      cell: ({ row: { original: u } }) => <MemberCell userId={u.user_id} orgId={orgId} email={u.email} name={u.name} />,
    }),
    idpCol.display({
      id: 'idp_roles',
      header: 'Roles through IdP groups',
      meta: { width: 'minmax(16rem,2fr)', label: 'Roles through IdP groups' },
      cell: ({ row: { original: u } }) => (
        <IdpAssignmentLines assignments={u.idp_role_assignments} orgName={orgName} max={4} />
      ),
    }),
  ]);
}
