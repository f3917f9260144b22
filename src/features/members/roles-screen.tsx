/**
 * Roles: every role of the enterprise with its permissions, and the matrix of roles × permissions (which role
 * holds what, at a glance). Enterprise roles are assigned enterprise-wide, organization roles per organization.
 * The vendor's Role publishes neither `permissions` nor `is_built_in`: such a role's permissions read "not
 * published by this API" (never 0, never a column of "No"), and its kind is neither Built-in nor Custom.
 */
import { useQuery } from '@tanstack/react-query';
import { Check } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import type { Role } from '@/api/operations/members';
import { PERMISSIONS, SERVICE_USER_MANAGEMENT_PERMISSIONS } from '@/api/permissions';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable } from '@/components/data-table';
import { EmptyState, PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { rolesQueryOptions } from './api';
import { PERMISSIONS_NOT_PUBLISHED, permissionsPublished, roleKind } from './roles';

export type RolesView = 'list' | 'matrix';

const col = columnHelper<Role>();

function TypeBadge({ type }: { type: Role['role_type'] }) {
  return type === 'enterprise' ? <Badge tone="accent">Enterprise</Badge> : <Badge tone="info">Organization</Badge>;
}

const columns = col.columns([
  col.accessor('role_name', {
    header: 'Role',
    enableSorting: true,
    enableHiding: false,
    meta: { width: 'minmax(11rem,1fr)', className: 'flex flex-col' },
    cell: ({ row: { original: r } }) => (
      <>
        <span className="font-medium">{r.role_name}</span>
        <span className="truncate font-mono text-xs text-muted">{r.role_id}</span>
      </>
    ),
  }),
  col.accessor('role_type', {
    header: 'Level',
    enableSorting: true,
    meta: { width: '7.5rem' },
    cell: ({ getValue }) => <TypeBadge type={getValue()} />,
  }),
  col.accessor((r) => roleKind(r) ?? '', {
    id: 'kind',
    header: 'Kind',
    enableSorting: true,
    meta: { width: '5.5rem', className: 'text-xs' },
    cell: ({ getValue }) =>
      getValue() || (
        <span className="text-muted" title="This API does not say whether the role is built in or custom">
          <span aria-hidden>—</span>
          <span className="sr-only">Not published by this API</span>
        </span>
      ),
  }),
  col.accessor((r) => (permissionsPublished(r) ? r.permissions.length : -1), {
    id: 'permissions',
    header: 'Permissions',
    enableSorting: true,
    meta: { width: 'minmax(18rem,3fr)', label: 'Permissions' },
    cell: ({ row: { original: r } }) =>
      permissionsPublished(r) ? (
        <span className="flex flex-wrap gap-1 py-1">
          <span className="mr-1 text-xs text-muted tabular-nums">{r.permissions.length}</span>
          {[...r.permissions].sort().map((p) => (
            <Badge key={p} className="font-mono font-normal">
              {p}
            </Badge>
          ))}
        </span>
      ) : (
        <span className="text-xs text-muted italic" data-testid="permissions-not-published">
          {PERMISSIONS_NOT_PUBLISHED[0]!.toUpperCase() + PERMISSIONS_NOT_PUBLISHED.slice(1)}
        </span>
      ),
  }),
]);

/** Every permission of the contract and any others the roles carry, sorted by name. */
function permissionRows(roles: readonly Role[]): string[] {
  const all = new Set<string>(PERMISSIONS);
  for (const r of roles) for (const p of r.permissions ?? []) all.add(p);
  return [...all].sort();
}

const NEVER_GRANTED = new Set<string>(SERVICE_USER_MANAGEMENT_PERMISSIONS);

/**
 * The matrix of the roles that publish their permissions; the others are named beside it, never shown as a
 * column of "No".
 */
export function RolesMatrix({ roles: all }: { roles: readonly Role[] }) {
  const list = useMemo(() => all.filter(permissionsPublished), [all]);
  const unpublished = all.filter((r) => !permissionsPublished(r));
  if (list.length === 0) {
    return (
      <EmptyState title="Permissions not published by this API">
        The API answers each role’s name and level but not the permissions it holds, so there is no matrix to show. The
        Roles tab lists every role.
      </EmptyState>
    );
  }
  return <Matrix list={list} unpublished={unpublished} />;
}

function Matrix({ list, unpublished }: { list: readonly Role[]; unpublished: readonly Role[] }) {
  const rows = useMemo(() => permissionRows(list), [list]);
  const held = useMemo(() => list.map((r) => new Set(r.permissions ?? [])), [list]);
  const enterprise = list.filter((r) => r.role_type === 'enterprise').length;
  const org = list.length - enterprise;
  return (
    // Its inline size is the page's, never its table's: the table scrolls inside it, its first column sticky,
    // and the page never scrolls sideways.
    <div className="flex min-w-0 flex-col gap-2 [contain:inline-size]">
      <div
        role="region"
        aria-label="Roles and permissions matrix"
        tabIndex={0}
        // Positioned, so the cells' screen-reader texts (absolute) are clipped by it and never widen the page.
        className="relative max-h-[calc(100dvh-15rem)] min-h-60 overflow-auto rounded-lg border border-line bg-surface focus-visible:outline-2 focus-visible:outline-accent"
      >
        <table className="w-max min-w-full border-separate border-spacing-0 text-sm">
          <caption className="sr-only">
            Which role holds which permission: one row per permission, one column per role
          </caption>
          <thead className="sticky top-0 z-10 bg-surface-2">
            <tr>
              <th
                scope="col"
                rowSpan={2}
                className="sticky left-0 z-10 border-b border-line bg-surface-2 px-3 py-2 text-left text-xs font-semibold tracking-wide text-muted uppercase"
              >
                Permission
              </th>
              {enterprise > 0 && (
                <th
                  scope="colgroup"
                  colSpan={enterprise}
                  className="border-b border-l border-line px-2 py-1 text-xs font-semibold text-accent"
                >
                  Enterprise roles
                </th>
              )}
              {org > 0 && (
                <th
                  scope="colgroup"
                  colSpan={org}
                  className="border-b border-l border-line px-2 py-1 text-xs font-semibold text-info"
                >
                  Organization roles
                </th>
              )}
            </tr>
            <tr>
              {list.map((r, i) => (
                <th
                  key={r.role_id}
                  scope="col"
                  className={`w-24 max-w-28 border-b border-line px-2 py-2 text-center align-bottom text-xs font-medium ${
                    i === 0 || list[i - 1]?.role_type !== r.role_type ? 'border-l' : ''
                  }`}
                >
                  {r.role_name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p} className="hover:bg-surface-2/60">
                <th
                  scope="row"
                  className="sticky left-0 border-b border-line/60 bg-surface px-3 py-1.5 text-left font-mono text-xs font-normal whitespace-nowrap"
                >
                  {p}
                  {NEVER_GRANTED.has(p) && (
                    <span className="ml-1 font-sans text-muted" title="Never granted to a service user through the API">
                      <span aria-hidden>†</span>
                      <span className="sr-only"> (never granted to a service user)</span>
                    </span>
                  )}
                </th>
                {list.map((r, i) => (
                  <td
                    key={r.role_id}
                    className={`border-b border-line/60 px-2 py-1.5 text-center ${
                      i === 0 || list[i - 1]?.role_type !== r.role_type ? 'border-l border-l-line' : ''
                    }`}
                  >
                    {held[i]?.has(p) ? (
                      <>
                        <Check className="inline size-4 text-success" aria-hidden />
                        <span className="sr-only">Yes</span>
                      </>
                    ) : (
                      <>
                        <span className="text-line" aria-hidden>
                          ·
                        </span>
                        <span className="sr-only">No</span>
                      </>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {unpublished.length > 0 && (
        <p className="text-xs text-muted">
          Not in the matrix, their permissions not published by this API:{' '}
          {unpublished.map((r) => r.role_name).join(', ')}.
        </p>
      )}
      <p className="text-xs text-muted">
        † Never granted to a service user through the API: a role holding it cannot be given to a new service user.
      </p>
    </div>
  );
}

export function RolesScreen({
  view,
  onViewChange,
  history,
}: {
  view: RolesView;
  onViewChange: (v: RolesView) => void;
  /** The history of role changes, composed by the route: shown in its own tab. */
  history?: ReactNode;
}) {
  const roles = useQuery(rolesQueryOptions());
  // The History tab is the page's own state: the route's view stays list or matrix.
  const [historyOpen, setHistoryOpen] = useState(false);
  // While the roles load, or when they cannot be read, each tab says so.
  const state = roles.error ? (
    <ProblemView error={roles.error} onRetry={() => void roles.refetch()} />
  ) : !roles.data ? (
    <Spinner label="Loading roles…" />
  ) : null;
  return (
    <>
      <PageHeader
        title="Roles"
        description="What each role lets its holders do. Enterprise roles hold across the enterprise; organization roles in the organization they are given in."
      />
      <Tabs
        value={historyOpen ? 'history' : view}
        onValueChange={(v) => {
          setHistoryOpen(v === 'history');
          if (v !== 'history') onViewChange(v === 'matrix' ? 'matrix' : 'list');
        }}
      >
        <TabsList aria-label="Roles view">
          <TabsTrigger value="list">Roles</TabsTrigger>
          <TabsTrigger value="matrix">Matrix</TabsTrigger>
          {history && <TabsTrigger value="history">History</TabsTrigger>}
        </TabsList>
        <TabsContent value="list">
          {state ?? (
            <DataTable
              label="Roles"
              tableId="roles"
              columns={columns}
              data={roles.data}
              getRowId={(r) => r.role_id}
              estimateRowHeight={88}
              minWidth="48rem"
              empty={{ title: 'No roles' }}
              className="h-[calc(100dvh-17rem)] min-h-80"
            />
          )}
        </TabsContent>
        <TabsContent value="matrix">{state ?? <RolesMatrix roles={roles.data ?? []} />}</TabsContent>
        {history && <TabsContent value="history">{history}</TabsContent>}
      </Tabs>
    </>
  );
}
