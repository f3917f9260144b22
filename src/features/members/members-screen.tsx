/**
 * Members of the enterprise, or of one organization: the data table with its filters in the URL (a search by
 * address or name, a role, and on the enterprise list an organization), bulk invitation, role changes, removal
 * behind a confirmation, and a CSV export of the filtered list. A whole address is looked up by the API; the
 * other filters narrow the loaded rows, so the list reads every page while one is set.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Download, Trash2, UserPlus } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import type { IdpUser, User } from '@/api/operations/members';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { ClearFilters, FilterBar, FilterFields, FilterText } from '@/components/filter-bar';
import { PageHeader } from '@/components/page-header';
import { SavedViews } from '@/components/saved-views';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { FilterSelect } from '@/components/filter-select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDebouncedInput } from '@/lib/debounce';
import { downloadText } from '@/lib/download';
import { formatNumber } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import {
  membersInfiniteQueryOptions,
  orgIdpUsersInfiniteQueryOptions,
  rolesQueryOptions,
  type MembersScope,
} from './api';
import { csvFileName, idpUsersCsv, membersCsv } from './export';
import { InviteButton } from './invite-dialog';
import { AddToOrgDialog, ChangeRoleDialog, RemoveMemberDialog } from './member-actions';
import { apiEmail, filtersInBrowser, memberMatches, type MembersSearch, type OrgMembersSearch } from './search';
import {
  AssignmentBadges,
  IdpAssignmentLines,
  loadEveryPage,
  MissingPermission,
  NotPublished,
  useLoadAll,
  useOrganizations,
} from './shared';

type Search = MembersSearch & Partial<Pick<OrgMembersSearch, 'via'>>;

export interface MembersScreenProps {
  scope: MembersScope;
  search: Search;
  onSearchChange: (next: Search) => void;
  /** The history of members' roles, composed by the route. */
  history?: ReactNode;
}

type Action = { kind: 'role' | 'remove'; user: User } | null;

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

function memberColumns(opts: {
  orgId: string | undefined;
  orgName: (orgId: string) => string;
  canManage: boolean | undefined;
  act: (a: Action) => void;
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

function idpColumns(orgName: (orgId: string) => string, orgId: string | undefined) {
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

export function MembersScreen({ scope, search, onSearchChange, history }: MembersScreenProps) {
  const orgId = scope.kind === 'org' ? scope.orgId : undefined;
  const via = orgId ? (search.via ?? 'direct') : 'direct';
  const orgs = useOrganizations();
  const orgName = orgId ? orgs.name(orgId) : undefined;
  const roles = useQuery(rolesQueryOptions());
  const canManage = useHasPermission('ManageAccountMembership');
  const [action, setAction] = useState<Action>(null);
  const [adding, setAdding] = useState(false);
  const [exporting, setExporting] = useState<unknown>(null);

  const email = apiEmail(search);
  const inBrowser = filtersInBrowser(search);
  const members = useInfiniteQuery({ ...membersInfiniteQueryOptions(scope, email), enabled: via === 'direct' });
  const idpUsers = useInfiniteQuery({
    ...orgIdpUsersInfiniteQueryOptions(orgId ?? '', email),
    enabled: !!orgId && via === 'idp',
  });
  useLoadAll(members, inBrowser && via === 'direct');
  useLoadAll(idpUsers, inBrowser && via === 'idp');

  const filter = useMemo(() => (inBrowser ? (u: User) => memberMatches(u, search) : undefined), [inBrowser, search]);
  const idpFilter = useMemo(
    () =>
      inBrowser
        ? (u: IdpUser) =>
            memberMatches({ ...u, role_assignments: [], idp_role_assignments: u.idp_role_assignments }, search)
        : undefined,
    [inBrowser, search],
  );
  const columns = useMemo(
    () => memberColumns({ orgId, orgName: orgs.name, canManage, act: setAction }),
    [orgId, orgs.name, canManage],
  );
  const idpCols = useMemo(() => idpColumns(orgs.name, orgId), [orgs.name, orgId]);

  const set = (patch: Partial<Search>) => onSearchChange({ ...search, ...patch });
  const [q, setQ] = useDebouncedInput(search.q ?? '', (v) => set({ q: v.trim() || undefined }));
  const filtered = !!(search.q || search.role || search.org);

  const roleOptions = useMemo(() => {
    return [
      { value: '', label: 'Any role' },
      ...(roles.data ?? []).map((r) => ({
        value: r.role_id,
        label: `${r.role_name} (${r.role_type === 'org' ? 'organization' : 'enterprise'})`,
        textValue: r.role_name,
      })),
    ];
  }, [roles.data]);

  async function exportCsv() {
    setExporting(null);
    try {
      if (via === 'idp') {
        const rows = await loadEveryPage<IdpUser>(idpUsers);
        const kept = idpFilter ? rows.filter(idpFilter) : rows;
        downloadText(csvFileName(`members-${orgId}-idp`), idpUsersCsv(kept, orgs.name));
      } else {
        const rows = await loadEveryPage<User>(members);
        const kept = filter ? rows.filter(filter) : rows;
        downloadText(csvFileName(orgId ? `members-${orgId}` : 'members'), membersCsv(kept, orgs.name));
      }
    } catch (error) {
      setExporting(error);
    }
  }

  const directTable = (
    <DataTable
      label="Members"
      tableId={orgId ? 'org-members' : 'members'}
      columns={columns}
      query={members}
      filter={filter}
      getRowId={(u) => u.user_id}
      minWidth={orgId ? '58rem' : '64rem'}
      estimateRowHeight={56}
      empty={{
        title: filtered ? 'No member matches these filters' : 'No members yet',
        hint: filtered ? 'Change or clear the filters.' : orgId ? 'Add one with Add member.' : 'Invite people.',
      }}
    />
  );
  const manageReason = <MissingPermission permission="ManageAccountMembership" has={canManage} />;

  return (
    <>
      <PageHeader
        title="Members"
        description={
          orgId
            ? `The people of ${orgName ?? 'this organization'}: those with a role here, and those who belong through IdP groups. Enterprise-wide roles hold here too.`
            : 'The people of the enterprise, their enterprise role, their roles in each organization and those they get through IdP groups.'
        }
        actions={
          <>
            <SavedViews
              screen={orgId ? 'members-org' : 'members'}
              current={search}
              onOpen={(view) => onSearchChange(view)}
            />
            <Button onClick={() => void exportCsv()} title="Every row that matches the filters, as CSV">
              <Download className="size-4" aria-hidden /> Export CSV
            </Button>
            {orgId ? (
              <Button
                variant="primary"
                disabled={canManage === false}
                title={missingPermissionTitle('ManageAccountMembership', canManage)}
                onClick={() => setAdding(true)}
              >
                <UserPlus className="size-4" aria-hidden /> Add member
              </Button>
            ) : (
              <InviteButton
                disabled={canManage === false}
                title={missingPermissionTitle('ManageAccountMembership', canManage)}
              />
            )}
            {manageReason}
          </>
        }
      />
      {exporting !== null && (
        <div className="mb-3">
          <ProblemView compact error={exporting} onRetry={() => void exportCsv()} />
        </div>
      )}
      <FilterBar active={[search.q, search.role, search.org].filter(Boolean).length} showLabel="Show members">
        {(narrow) => (
          <FilterFields label="Filter members" narrow={narrow}>
            <FilterText
              search
              label="Search"
              className="min-w-56 flex-1"
              placeholder="Address or name"
              value={q}
              onChange={setQ}
            />
            <FilterSelect
              className={narrow ? '' : 'w-60'}
              label="Role"
              value={search.role ?? ''}
              options={roleOptions}
              onValueChange={(v) => set({ role: v || undefined })}
            />
            {!orgId && (
              <FilterSelect
                className={narrow ? '' : 'w-56'}
                label="Organization"
                value={search.org ?? ''}
                options={[
                  { value: '', label: 'Any organization' },
                  ...orgs.organizations.map((o) => ({ value: o.org_id, label: o.name })),
                ]}
                onValueChange={(v) => set({ org: v || undefined })}
              />
            )}
            <ClearFilters shown={filtered} onClear={() => onSearchChange(orgId ? { via: search.via } : {})} />
          </FilterFields>
        )}
      </FilterBar>
      {inBrowser && (via === 'direct' ? members : idpUsers).hasNextPage && (
        <p role="status" className="mb-2 text-xs text-muted">
          Reading every page to filter… {formatNumber((via === 'direct' ? members : idpUsers).data?.pages.length ?? 0)}{' '}
          read
        </p>
      )}
      {orgId ? (
        <Tabs value={via} onValueChange={(v) => set({ via: v === 'idp' ? 'idp' : undefined })}>
          <TabsList aria-label="Which members">
            <TabsTrigger value="direct">With a role here</TabsTrigger>
            <TabsTrigger value="idp">Through IdP groups</TabsTrigger>
          </TabsList>
          <TabsContent value="direct">{directTable}</TabsContent>
          <TabsContent value="idp">
            <DataTable
              label="Members through IdP groups"
              tableId="org-idp-members"
              columns={idpCols}
              query={idpUsers}
              filter={idpFilter}
              getRowId={(u) => u.user_id}
              minWidth="40rem"
              estimateRowHeight={56}
              empty={{
                title: filtered ? 'No member matches these filters' : 'Nobody belongs through an IdP group',
              }}
            />
          </TabsContent>
        </Tabs>
      ) : (
        directTable
      )}
      <ChangeRoleDialog
        user={action?.kind === 'role' ? action.user : null}
        orgId={orgId}
        orgName={orgName}
        onClose={() => setAction(null)}
      />
      <RemoveMemberDialog
        user={action?.kind === 'remove' ? action.user : null}
        orgId={orgId}
        orgName={orgName}
        onClose={() => setAction(null)}
      />
      {orgId && (
        <AddToOrgDialog open={adding} orgId={orgId} orgName={orgName ?? orgId} onClose={() => setAdding(false)} />
      )}
      {history && <div className="mt-8">{history}</div>}
    </>
  );
}
