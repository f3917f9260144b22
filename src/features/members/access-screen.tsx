/**
 * Effective access, for access reviews: pick a person or a service user and see every role they hold, where
 * (enterprise-wide or in which organization) and how (directly or through which IdP group), and every permission
 * those roles grant; or pick a permission and an organization and see everyone who holds it there. Computed in
 * the browser from every member (with the IdP users' list where the members' list lacks their inherited roles),
 * every active service user and the roles' permissions (see `access.ts`); exported as CSV.
 *
 * When the API does not publish the roles' permissions (the vendor's Role), the screen says what it can
 * establish — who holds which role, where and how — and that it cannot establish the permissions; it prints a
 * count, or an empty answer, only when every list it depends on was read and says it.
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
import {
  everyIdpUserQueryOptions,
  everyServiceUserQueryOptions,
  everyUserQueryOptions,
  rolesQueryOptions,
} from './api';
import {
  accessCsv,
  accessCsvName,
  fromServiceUser,
  fromUser,
  gapsOf,
  grantsOf,
  holdersOf,
  holdingKey,
  holdingsCsv,
  holdingsOf,
  levelLabel,
  principalKey,
  roleHoldersAt,
  viaLabel,
  type AccessPrincipal,
  type AnswerGaps,
  type Grant,
  type Holder,
  type Holding,
  type RoleHolder,
  type RolePermissions,
} from './access';
import { PERMISSIONS_NOT_PUBLISHED, rolePermissionsOf } from './roles';
import type { AccessSearch } from './search';
import { useOrganizations } from './shared';

const grantCol = columnHelper<Grant>();
const holderCol = columnHelper<Holder>();

type ColumnHelperOf<T extends object> = ReturnType<typeof columnHelper<T>>;

/** Where a role holds: its organization's name, or a badge when it holds enterprise-wide. */
function whereColumn<T extends { orgId: string | null }>(
  helper: ColumnHelperOf<T>,
  orgName: (orgId: string) => string,
) {
  return helper.accessor((r) => levelLabel(r.orgId, orgName), {
    id: 'where',
    header: 'Where',
    enableSorting: true,
    meta: { width: 'minmax(10rem,1fr)', className: 'truncate' },
    cell: ({ row: { original: r }, getValue }) =>
      r.orgId === null ? <Badge tone="accent">Enterprise-wide</Badge> : getValue(),
  });
}

/** How a role is held: directly or through which IdP group. */
function viaColumn<T extends { idpGroup: string | null }>(helper: ColumnHelperOf<T>) {
  return helper.accessor((r) => viaLabel(r.idpGroup), {
    id: 'via',
    header: 'Through',
    enableSorting: true,
    meta: { width: 'minmax(9rem,0.9fr)', className: 'truncate text-xs' },
  });
}

/** Whether the holder is a person or a service user. */
function kindColumn<T extends { principal: AccessPrincipal }>(helper: ColumnHelperOf<T>) {
  return helper.accessor((h) => (h.principal.kind === 'user' ? 'Person' : 'Service user'), {
    id: 'kind',
    header: 'Kind',
    enableSorting: true,
    meta: { width: '7.5rem' },
    cell: ({ getValue }) => <Badge tone={getValue() === 'Person' ? 'neutral' : 'info'}>{getValue()}</Badge>,
  });
}

/** One role a holder holds, on a line: the role, where, and how. */
function RoleLine({
  role,
  orgName,
}: {
  role: { roleName: string; orgId: string | null; idpGroup: string | null };
  orgName: (orgId: string) => string;
}) {
  return (
    <span className="truncate">
      <span className="font-medium">{role.roleName}</span> · {levelLabel(role.orgId, orgName)} ·{' '}
      {viaLabel(role.idpGroup)}
    </span>
  );
}

function grantColumns(orgName: (orgId: string) => string) {
  return grantCol.columns([
    grantCol.accessor('permission', {
      header: 'Permission',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(14rem,1.3fr)', className: 'truncate font-mono text-xs' },
    }),
    whereColumn(grantCol, orgName),
    grantCol.accessor('roleName', {
      header: 'Role',
      enableSorting: true,
      meta: { width: 'minmax(9rem,0.9fr)', className: 'truncate' },
    }),
    viaColumn(grantCol),
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
    kindColumn(holderCol),
    holderCol.display({
      id: 'through',
      header: 'Through',
      meta: { width: 'minmax(16rem,2fr)', label: 'Through', className: 'flex flex-col gap-0.5 text-xs' },
      cell: ({ row: { original: h } }) => (
        <>
          {h.grants.map((g) => (
            <RoleLine key={`${g.roleId}:${g.orgId}:${g.idpGroup}`} role={g} orgName={orgName} />
          ))}
        </>
      ),
    }),
  ]);
}

const holdingCol = columnHelper<Holding>();
const roleHolderCol = columnHelper<RoleHolder>();

function holdingColumns(orgName: (orgId: string) => string, rolePermissions: RolePermissions) {
  return holdingCol.columns([
    holdingCol.accessor('roleName', {
      header: 'Role',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(10rem,1fr)', className: 'truncate font-medium' },
    }),
    whereColumn(holdingCol, orgName),
    viaColumn(holdingCol),
    holdingCol.display({
      id: 'permissions',
      header: 'Permissions',
      meta: { width: 'minmax(12rem,1fr)', label: 'Permissions', className: 'truncate text-xs' },
      cell: ({ row: { original: h } }) => {
        const held = rolePermissions(h.roleId);
        return held === undefined ? (
          <span className="text-muted italic">{PERMISSIONS_NOT_PUBLISHED}</span>
        ) : (
          `${formatNumber(held.length)} ${held.length === 1 ? 'permission' : 'permissions'}`
        );
      },
    }),
  ]);
}

function roleHolderColumns(orgName: (orgId: string) => string) {
  return roleHolderCol.columns([
    roleHolderCol.accessor((h) => h.principal.label, {
      id: 'who',
      header: 'Who',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(14rem,1.4fr)', className: 'truncate font-medium' },
      cell: ({ row: { original: h } }) => <span data-principal={principalKey(h.principal)}>{h.principal.label}</span>,
    }),
    kindColumn(roleHolderCol),
    roleHolderCol.display({
      id: 'roles',
      header: 'Roles',
      meta: { width: 'minmax(16rem,2fr)', label: 'Roles', className: 'flex flex-col gap-0.5 text-xs' },
      cell: ({ row: { original: h } }) => (
        <>
          {h.holdings.map((g) => (
            <RoleLine key={holdingKey(g)} role={g} orgName={orgName} />
          ))}
        </>
      ),
    }),
  ]);
}

/** What an answer cannot include, in sentences (empty when it is whole). */
function gapSentences(gaps: AnswerGaps): string[] {
  const out: string[] = [];
  if (gaps.unpublishedRoles.length)
    out.push(
      `The API does not publish the permissions of ${gaps.unpublishedRoles.length === 1 ? 'the role' : 'the roles'} ${gaps.unpublishedRoles.join(', ')}: the console can establish who holds ${gaps.unpublishedRoles.length === 1 ? 'it' : 'them'}, where and how, but not the permissions ${gaps.unpublishedRoles.length === 1 ? 'it grants' : 'they grant'}.`,
    );
  if (gaps.idpUnknown)
    out.push('The roles people get through IdP groups could not be read: only their direct roles are counted.');
  if (gaps.serviceUsersUnread) out.push('The service users could not be read: they are left out.');
  return out;
}

function Gaps({ gaps }: { gaps: AnswerGaps }) {
  const sentences = gapSentences(gaps);
  if (sentences.length === 0) return null;
  return (
    <div className="rounded-md border border-warn/40 bg-warn/5 p-3 text-sm" data-testid="access-gaps">
      {sentences.map((t) => (
        <p key={t}>{t}</p>
      ))}
    </div>
  );
}

export interface AccessScreenProps {
  search: AccessSearch;
  onSearchChange: (next: AccessSearch) => void;
}

export function AccessScreen({ search, onSearchChange }: AccessScreenProps) {
  const users = useQuery(everyUserQueryOptions());
  const serviceUsers = useQuery(everyServiceUserQueryOptions());
  const roles = useQuery(rolesQueryOptions());
  // The vendor's users list carries only direct roles: the inherited ones come from the IdP users' list.
  const needIdp = !!users.data && users.data.some((u) => u.idp_role_assignments === undefined);
  const idpUsers = useQuery({ ...everyIdpUserQueryOptions(), enabled: needIdp });
  const orgs = useOrganizations();
  const view = search.view ?? 'principal';

  const principals = useMemo<AccessPrincipal[]>(
    () => [
      ...(users.data ?? []).map((u) => fromUser(u, idpUsers.data)),
      ...(serviceUsers.data ?? []).map(fromServiceUser),
    ],
    [users.data, idpUsers.data, serviceUsers.data],
  );
  const rolePermissions = useMemo(() => rolePermissionsOf(roles.data ?? []), [roles.data]);
  const gaps = useMemo(
    () => gapsOf(principals, rolePermissions, !!serviceUsers.data),
    [principals, rolePermissions, serviceUsers.data],
  );
  const error = users.error ?? roles.error;
  const ready = !!users.data && !!roles.data && !serviceUsers.isPending && !(needIdp && idpUsers.isPending);
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
        {needIdp && idpUsers.error ? (
          <div className="pt-3">
            <ProblemView compact error={idpUsers.error}>
              <span className="text-sm text-muted">Roles through IdP groups are left out of the answers below.</span>
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
              gaps={gaps}
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
  const holdings = useMemo(() => (principal ? holdingsOf(principal) : []), [principal]);
  const gaps = useMemo(
    () => (principal ? gapsOf([principal], rolePermissions, true) : undefined),
    [principal, rolePermissions],
  );
  const columns = useMemo(() => grantColumns(orgName), [orgName]);
  const roleColumns = useMemo(() => holdingColumns(orgName, rolePermissions), [orgName, rolePermissions]);
  const distinct = new Set(grants.map((g) => g.permission)).size;
  const places = new Set(grants.map((g) => g.orgId ?? '')).size;
  const published = holdings.filter((h) => rolePermissions(h.roleId) !== undefined).length;
  // A role held at one level counts once, however many paths lead to it.
  const roleCount = new Set(holdings.map((h) => `${h.roleId}\u0000${h.orgId}`)).size;
  const rolesText = `${formatNumber(roleCount)} ${roleCount === 1 ? 'role' : 'roles'}`;
  const directCount = new Set(holdings.filter((h) => h.idpGroup === null).map((h) => `${h.roleId}\u0000${h.orgId}`))
    .size;
  const exportCsv = () => {
    if (!principal) return;
    const name = accessCsvName(principal.label, Math.floor(Date.now() / 1000));
    // Whole permissions when the console knows them; otherwise the roles it can establish.
    downloadText(
      name,
      gaps?.complete
        ? accessCsv(
            grants.map((grant) => ({ principal, grant })),
            orgName,
          )
        : holdingsCsv(
            holdings.map((holding) => ({ principal, holding })),
            orgName,
          ),
    );
  };

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
          <Button onClick={exportCsv}>
            <Download className="size-4" aria-hidden /> Export CSV
          </Button>
        )}
      </div>
      {!principal || !gaps ? (
        <EmptyState title={selected ? 'Nobody by that id' : 'Choose a person or a service user'}>
          {selected
            ? 'They may have been removed, or the service user deleted or expired.'
            : 'Their roles are listed with where they hold and how, and the permissions those roles grant.'}
        </EmptyState>
      ) : (
        <>
          <p role="status" className="text-sm" data-testid="principal-summary">
            <span className="font-medium">{principal.label}</span>{' '}
            {!principal.idpKnown ? (
              <>
                holds {formatNumber(directCount)} {directCount === 1 ? 'role' : 'roles'} directly; the roles they get
                through IdP groups could not be read.
              </>
            ) : gaps.complete ? (
              <>
                holds {rolesText} and {formatNumber(distinct)} {distinct === 1 ? 'permission' : 'permissions'}
                {grants.length > 0 && ` in ${formatNumber(places)} ${places === 1 ? 'place' : 'places'}`}.
              </>
            ) : (
              <>
                holds {formatNumber(holdings.length)} {holdings.length === 1 ? 'role' : 'roles'}; which permissions{' '}
                {holdings.length === 1 ? 'it grants' : 'they grant'} cannot be established (not published by this API).
              </>
            )}
          </p>
          <Gaps gaps={gaps} />
          <DataTable
            label={`Roles of ${principal.label}`}
            tableId="access-roles"
            columns={roleColumns}
            data={holdings}
            getRowId={holdingKey}
            minWidth="44rem"
            estimateRowHeight={40}
            empty={
              principal.idpKnown
                ? { title: 'No roles', hint: 'They hold no role, directly or through an IdP group.' }
                : { title: 'No direct roles', hint: 'Roles through IdP groups could not be read.' }
            }
            className="h-auto max-h-[calc(100dvh-24rem)] min-h-40"
          />
          {(published > 0 || holdings.length === 0) && (
            <DataTable
              label={`Permissions of ${principal.label}`}
              tableId="access-grants"
              columns={columns}
              data={grants}
              getRowId={(g) => `${g.permission}:${g.orgId}:${g.roleId}:${g.idpGroup}`}
              minWidth="48rem"
              estimateRowHeight={40}
              empty={
                gaps.complete
                  ? { title: 'No permissions', hint: 'They hold no role, or their roles hold no permission.' }
                  : { title: 'None established', hint: 'Only roles that publish their permissions are counted here.' }
              }
              className="h-auto max-h-[calc(100dvh-20rem)] min-h-60"
            />
          )}
        </>
      )}
    </div>
  );
}

function ByPermission({
  principals,
  rolePermissions,
  gaps,
  orgs,
  orgName,
  permission,
  org,
  onChange,
}: {
  principals: readonly AccessPrincipal[];
  rolePermissions: RolePermissions;
  gaps: AnswerGaps;
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
  const roleHolders = useMemo(
    () => (gaps.unpublishedRoles.length ? roleHoldersAt(principals, orgId) : []),
    [gaps.unpublishedRoles.length, principals, orgId],
  );
  const roleColumns = useMemo(() => roleHolderColumns(orgName), [orgName]);
  const people = holders.filter((h) => h.principal.kind === 'user').length;
  const where = orgId === null ? 'at the enterprise level' : `in ${orgName(orgId)}`;
  // Some role publishes its permissions: the holders through those can be named.
  const someKnown = principals.some((p) => p.assignments.some((a) => rolePermissions(a.role.role_id) !== undefined));
  const exportCsv = () => {
    const at = Math.floor(Date.now() / 1000);
    const name = accessCsvName(`${permission}-${orgId ?? 'enterprise'}`, at);
    downloadText(
      name,
      gaps.unpublishedRoles.length && !someKnown
        ? holdingsCsv(
            roleHolders.flatMap((h) => h.holdings.map((holding) => ({ principal: h.principal, holding }))),
            orgName,
          )
        : accessCsv(
            holders.flatMap((h) => h.grants.map((grant) => ({ principal: h.principal, grant }))),
            orgName,
          ),
    );
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <FilterSelect
          className="w-full sm:w-72"
          label="Permission"
          value={permission ?? ''}
          placeholder="Choose a permission"
          options={[...PERMISSIONS].sort().map((p) => ({ value: p, label: p }))}
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
          <Button onClick={exportCsv}>
            <Download className="size-4" aria-hidden /> Export CSV
          </Button>
        )}
      </div>
      {!permission ? (
        <EmptyState title="Choose a permission">
          Everyone who holds it in the organization you choose is listed, with the role that gives it.
        </EmptyState>
      ) : gaps.complete ? (
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
      ) : (
        <>
          <p role="status" className="text-sm" data-testid="holders-summary">
            Who holds <span className="font-mono">{permission}</span> {where} cannot be fully established
            {someKnown ? '; those below hold it through roles that publish their permissions' : ''}.
          </p>
          <Gaps gaps={gaps} />
          {someKnown && (
            <DataTable
              label={`Holders of ${permission} ${where}`}
              tableId="access-holders"
              columns={columns}
              data={holders}
              getRowId={(h) => principalKey(h.principal)}
              minWidth="48rem"
              estimateRowHeight={56}
              empty={{
                title: 'None established',
                hint: 'Nobody holds it through a role that publishes its permissions; others may through the rest.',
              }}
              className="h-auto max-h-[calc(100dvh-20rem)] min-h-60"
            />
          )}
          {gaps.unpublishedRoles.length > 0 && (
            <>
              <h2 className="mt-2 text-sm font-semibold">Who holds which role {where}, and how</h2>
              <DataTable
                label={`Roles held ${where}`}
                tableId="access-role-holders"
                columns={roleColumns}
                data={roleHolders}
                getRowId={(h) => principalKey(h.principal)}
                minWidth="44rem"
                estimateRowHeight={56}
                empty={{ title: `No role held ${where} in the lists read` }}
                className="h-auto max-h-[calc(100dvh-20rem)] min-h-60"
              />
            </>
          )}
        </>
      )}
    </div>
  );
}
