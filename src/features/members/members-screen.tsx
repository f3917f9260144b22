/**
 * Members of the enterprise, or of one organization: the data table with its filters in the URL (a search by
 * address or name, a role, and on the enterprise list an organization), bulk invitation, role changes, removal
 * behind a confirmation, and a CSV export of the filtered list. A whole address is looked up by the API; the
 * other filters narrow the loaded rows, so the list reads every page while one is set.
 */
import { Download, UserPlus } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { SavedViews } from '@/components/saved-views';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatNumber } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import type { MembersScope } from './api';
import { InviteButton } from './invite-dialog';
import { AddToOrgDialog, ChangeRoleDialog, RemoveMemberDialog } from './member-actions';
import { idpColumns, memberColumns, type MemberAction } from './members-columns';
import { MembersFilters, type MembersScreenSearch } from './members-filters';
import { MissingPermission, useOrganizations } from './shared';
import { useMembersLists } from './use-members-lists';

export interface MembersScreenProps {
  scope: MembersScope;
  search: MembersScreenSearch;
  onSearchChange: (next: MembersScreenSearch) => void;
  /** The history of members' roles, composed by the route. */
  history?: ReactNode;
}

export function MembersScreen({ scope, search, onSearchChange, history }: MembersScreenProps) {
  const orgs = useOrganizations();
  const { orgId, via, members, idpUsers, filter, idpFilter, reading, exportCsv, exportError } = useMembersLists(
    scope,
    search,
    orgs,
  );
  const orgName = orgId ? orgs.name(orgId) : undefined;
  const canManage = useHasPermission('ManageAccountMembership');
  const [action, setAction] = useState<MemberAction>(null);
  const [adding, setAdding] = useState(false);
  const columns = useMemo(
    () => memberColumns({ orgId, orgName: orgs.name, canManage, act: setAction }),
    [orgId, orgs.name, canManage],
  );
  const idpCols = useMemo(() => idpColumns(orgs.name, orgId), [orgs.name, orgId]);
  const filtered = !!(search.q || search.role || search.org);

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
            <MissingPermission permission="ManageAccountMembership" has={canManage} />
          </>
        }
      />
      {exportError !== null && (
        <div className="mb-3">
          <ProblemView compact error={exportError} onRetry={() => void exportCsv()} />
        </div>
      )}
      <MembersFilters orgId={orgId} orgs={orgs} search={search} onSearchChange={onSearchChange} />
      {reading?.hasNextPage && (
        <p role="status" className="mb-2 text-xs text-muted">
          Reading every page to filter… {formatNumber(reading.data?.pages.length ?? 0)} read
        </p>
      )}
      {orgId ? (
        <Tabs value={via} onValueChange={(v) => onSearchChange({ ...search, via: v === 'idp' ? 'idp' : undefined })}>
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
