/**
 * Effective access, for access reviews: pick a person or a service user and see every permission they hold,
 * where (enterprise-wide or in which organization) and through which role (directly or through an IdP group);
 * or pick a permission and an organization and see everyone who holds it there. Computed in the browser from
 * every member, every active service user and the roles' permissions (see `access.ts`); exported as CSV.
 */
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useId, useMemo } from 'react';
import { PERMISSIONS } from '@/api/permissions';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable } from '@/components/data-table';
import { EmptyState, PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Combobox } from '@/components/ui/combobox';
import { FilterSelect } from '@/components/filter-select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { downloadText } from '@/lib/download';
import { formatNumber } from '@/lib/format';
import { everyServiceUserQueryOptions, everyUserQueryOptions, rolesQueryOptions } from './api';
import {
  accessCsv,
  accessCsvName,
  fromServiceUser,
  fromUser,
  grantsOf,
  holdersOf,
  levelLabel,
  principalKey,
  viaLabel,
  type AccessPrincipal,
  type Grant,
  type Holder,
  type RolePermissions,
} from './access';
import { rolePermissionsOf } from './roles';
import type { AccessSearch } from './search';
import { useOrganizations } from './shared';

const grantCol = columnHelper<Grant>();
const holderCol = columnHelper<Holder>();

function grantColumns(orgName: (orgId: string) => string) {
  return grantCol.columns([
    grantCol.accessor('permission', {
      header: 'Permission',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(14rem,1.3fr)', className: 'truncate font-mono text-xs' },
    }),
    grantCol.accessor((g) => levelLabel(g.orgId, orgName), {
      id: 'where',
      header: 'Where',
      enableSorting: true,
      meta: { width: 'minmax(10rem,1fr)', className: 'truncate' },
      cell: ({ row: { original: g }, getValue }) =>
        g.orgId === null ? <Badge tone="accent">Enterprise-wide</Badge> : getValue(),
    }),
    grantCol.accessor('roleName', {
      header: 'Role',
      enableSorting: true,
      meta: { width: 'minmax(9rem,0.9fr)', className: 'truncate' },
    }),
    grantCol.accessor((g) => viaLabel(g.idpGroup), {
      id: 'via',
      header: 'Through',
      enableSorting: true,
      meta: { width: 'minmax(9rem,0.9fr)', className: 'truncate text-xs' },
    }),
  ]);
}

function holderColumns(orgName: (orgId: string) => string) {
  return holderCol.columns([
    holderCol.accessor((h) => h.principal.label, {
      id: 'who',
      header: 'Who',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(14rem,1.4fr)', className: 'flex min-w-0 flex-col' },
      cell: ({ row: { original: h } }) => (
        <>
          <span className="truncate font-medium" data-principal={principalKey(h.principal)}>
            {h.principal.label}
          </span>
          <span className="truncate text-xs text-muted">
            {h.principal.kind === 'user' ? (h.principal.name ?? 'Not signed in yet') : h.principal.id}
          </span>
        </>
      ),
    }),
    holderCol.accessor((h) => (h.principal.kind === 'user' ? 'Person' : 'Service user'), {
      id: 'kind',
      header: 'Kind',
      enableSorting: true,
      meta: { width: '7.5rem' },
      cell: ({ getValue }) => <Badge tone={getValue() === 'Person' ? 'neutral' : 'info'}>{getValue()}</Badge>,
    }),
    holderCol.display({
      id: 'through',
      header: 'Through',
      meta: { width: 'minmax(16rem,2fr)', label: 'Through', className: 'flex flex-col gap-0.5 text-xs' },
      cell: ({ row: { original: h } }) => (
        <>
          {h.grants.map((g) => (
            <span key={`${g.roleId}:${g.orgId}:${g.idpGroup}`} className="truncate">
              <span className="font-medium">{g.roleName}</span> · {levelLabel(g.orgId, orgName)} ·{' '}
              {viaLabel(g.idpGroup)}
            </span>
          ))}
        </>
      ),
    }),
  ]);
}

export interface AccessScreenProps {
  search: AccessSearch;
  onSearchChange: (next: AccessSearch) => void;
}

export function AccessScreen({ search, onSearchChange }: AccessScreenProps) {
  const users = useQuery(everyUserQueryOptions());
  const serviceUsers = useQuery(everyServiceUserQueryOptions());
  const roles = useQuery(rolesQueryOptions());
  const orgs = useOrganizations();
  const view = search.view ?? 'principal';

  const principals = useMemo<AccessPrincipal[]>(
    () => [...(users.data ?? []).map(fromUser), ...(serviceUsers.data ?? []).map(fromServiceUser)],
    [users.data, serviceUsers.data],
  );
  const rolePermissions = useMemo(() => rolePermissionsOf(roles.data ?? []), [roles.data]);
  const error = users.error ?? roles.error;
  const ready = !!users.data && !!roles.data && !serviceUsers.isPending;
  // While the lists load, or when they cannot be read, each tab says so.
  const state = error ? (
    <ProblemView
      error={error}
      onRetry={() => {
        void users.refetch();
        void roles.refetch();
      }}
    />
  ) : !ready ? (
    <Spinner label="Reading every member, service user and role…" />
  ) : null;

  return (
    <>
      <PageHeader
        title="Effective access"
        description="Who can do what, where, and through which role — for access reviews. Enterprise-wide roles hold in every organization."
      />
      <Tabs
        value={view}
        onValueChange={(v) => onSearchChange({ ...search, view: v === 'permission' ? 'permission' : undefined })}
      >
        <TabsList aria-label="Ask by">
          <TabsTrigger value="principal">By person or service user</TabsTrigger>
          <TabsTrigger value="permission">By permission</TabsTrigger>
        </TabsList>
        {serviceUsers.error ? (
          <div className="pt-3">
            <ProblemView compact error={serviceUsers.error}>
              <span className="text-sm text-muted">Service users are left out of the answers below.</span>
            </ProblemView>
          </div>
        ) : null}
        <TabsContent value="principal">
          {state ?? (
            <ByPrincipal
              principals={principals}
              rolePermissions={rolePermissions}
              orgName={orgs.name}
              selected={search.principal}
              onSelect={(principal) => onSearchChange({ ...search, principal: principal || undefined })}
            />
          )}
        </TabsContent>
        <TabsContent value="permission">
          {state ?? (
            <ByPermission
              principals={principals}
              rolePermissions={rolePermissions}
              orgs={orgs.organizations}
              orgName={orgs.name}
              permission={search.permission}
              org={search.org}
              onChange={(patch) => onSearchChange({ ...search, ...patch })}
            />
          )}
        </TabsContent>
      </Tabs>
    </>
  );
}

function ByPrincipal({
  principals,
  rolePermissions,
  orgName,
  selected,
  onSelect,
}: {
  principals: readonly AccessPrincipal[];
  rolePermissions: RolePermissions;
  orgName: (orgId: string) => string;
  selected: string | undefined;
  onSelect: (key: string) => void;
}) {
  const id = useId();
  const options = useMemo(
    () =>
      principals.map((p) => ({
        value: principalKey(p),
        label:
          p.kind === 'user'
            ? `${p.label}${p.name && p.name !== p.label ? ` — ${p.name}` : ''}`
            : `Service user: ${p.label}`,
      })),
    [principals],
  );
  const principal = principals.find((p) => principalKey(p) === selected);
  const grants = useMemo(() => (principal ? grantsOf(principal, rolePermissions) : []), [principal, rolePermissions]);
  const columns = useMemo(() => grantColumns(orgName), [orgName]);
  const distinct = new Set(grants.map((g) => g.permission)).size;
  const places = new Set(grants.map((g) => g.orgId ?? '')).size;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex w-full max-w-md flex-col gap-1">
          <label htmlFor={id} className="text-sm font-medium">
            Person or service user
          </label>
          <Combobox
            id={id}
            value={selected ?? ''}
            onValueChange={onSelect}
            options={options}
            placeholder="Choose someone"
            searchLabel="Search people and service users"
          />
        </div>
        {principal && (
          <Button
            onClick={() =>
              downloadText(
                accessCsvName(principal.label, Math.floor(Date.now() / 1000)),
                accessCsv(
                  grants.map((grant) => ({ principal, grant })),
                  orgName,
                ),
              )
            }
          >
            <Download className="size-4" aria-hidden /> Export CSV
          </Button>
        )}
      </div>
      {!principal ? (
        <EmptyState title={selected ? 'Nobody by that id' : 'Choose a person or a service user'}>
          {selected
            ? 'They may have been removed, or the service user deleted or expired.'
            : 'Their permissions are listed with where they hold and through which role.'}
        </EmptyState>
      ) : (
        <>
          <p role="status" className="text-sm">
            <span className="font-medium">{principal.label}</span> holds {formatNumber(distinct)}{' '}
            {distinct === 1 ? 'permission' : 'permissions'}
            {grants.length > 0 && ` in ${formatNumber(places)} ${places === 1 ? 'place' : 'places'}`}.
          </p>
          <DataTable
            label={`Permissions of ${principal.label}`}
            tableId="access-grants"
            columns={columns}
            data={grants}
            getRowId={(g) => `${g.permission}:${g.orgId}:${g.roleId}:${g.idpGroup}`}
            minWidth="48rem"
            estimateRowHeight={40}
            empty={{ title: 'No permissions', hint: 'They hold no role, or their roles hold no permission.' }}
            className="h-auto max-h-[calc(100dvh-20rem)] min-h-60"
          />
        </>
      )}
    </div>
  );
}

function ByPermission({
  principals,
  rolePermissions,
  orgs,
  orgName,
  permission,
  org,
  onChange,
}: {
  principals: readonly AccessPrincipal[];
  rolePermissions: RolePermissions;
  orgs: ReadonlyArray<{ org_id: string; name: string }>;
  orgName: (orgId: string) => string;
  permission: string | undefined;
  org: string | undefined;
  onChange: (patch: Pick<AccessSearch, 'permission' | 'org'>) => void;
}) {
  const orgId = org ?? null;
  const holders = useMemo(
    () => (permission ? holdersOf(principals, permission, orgId, rolePermissions) : []),
    [principals, permission, orgId, rolePermissions],
  );
  const columns = useMemo(() => holderColumns(orgName), [orgName]);
  const people = holders.filter((h) => h.principal.kind === 'user').length;
  const where = orgId === null ? 'at the enterprise level' : `in ${orgName(orgId)}`;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <FilterSelect
          className="w-full sm:w-72"
          label="Permission"
          value={permission ?? ''}
          placeholder="Choose a permission"
          options={PERMISSIONS.map((p) => ({ value: p, label: p }))}
          onValueChange={(v) => onChange({ permission: v || undefined, org })}
        />
        <FilterSelect
          className="w-full sm:w-64"
          label="Organization"
          value={org ?? ''}
          options={[
            { value: '', label: 'Enterprise level only' },
            ...orgs.map((o) => ({ value: o.org_id, label: o.name })),
          ]}
          onValueChange={(v) => onChange({ permission, org: v || undefined })}
        />
        {permission && (
          <Button
            onClick={() =>
              downloadText(
                accessCsvName(`${permission}-${orgId ?? 'enterprise'}`, Math.floor(Date.now() / 1000)),
                accessCsv(
                  holders.flatMap((h) => h.grants.map((grant) => ({ principal: h.principal, grant }))),
                  orgName,
                ),
              )
            }
          >
            <Download className="size-4" aria-hidden /> Export CSV
          </Button>
        )}
      </div>
      {!permission ? (
        <EmptyState title="Choose a permission">
          Everyone who holds it in the organization you choose is listed, with the role that gives it.
        </EmptyState>
      ) : (
        <>
          <p role="status" className="text-sm" data-testid="holders-summary">
            {formatNumber(holders.length)} {holders.length === 1 ? 'holds' : 'hold'}{' '}
            <span className="font-mono">{permission}</span> {where}: {formatNumber(people)}{' '}
            {people === 1 ? 'person' : 'people'} and {formatNumber(holders.length - people)}{' '}
            {holders.length - people === 1 ? 'service user' : 'service users'}.
          </p>
          <DataTable
            label={`Holders of ${permission} ${where}`}
            tableId="access-holders"
            columns={columns}
            data={holders}
            getRowId={(h) => principalKey(h.principal)}
            minWidth="48rem"
            estimateRowHeight={56}
            empty={{ title: `Nobody holds ${permission} ${where}` }}
            className="h-auto max-h-[calc(100dvh-20rem)] min-h-60"
          />
        </>
      )}
    </div>
  );
}
