/**
 * An organization's git permissions: every page loaded (with progress), filtered and sorted in the browser
 * with the filter and the sort in the URL, and a quick read-only toggle per row that does not open the editor
 * (through the console server: the same lock and version check as the bulk editor, and recorded in history).
 */
import { useMutationState } from '@tanstack/react-query';
import type { SortingState } from '@tanstack/react-table';
import { Link, useNavigate } from '@tanstack/react-router';
import { History, Pencil } from 'lucide-react';
import { useCallback, useId, useMemo, useState } from 'react';
import { describeMatcher, gitPermissionSetVersion } from '@/api/git-permissions/set-diff';
import { matcherOf, MATCHER_LABELS, type GitConnection, type GitPermission } from '@/api/git-permissions/resources';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { SavedViews } from '@/components/saved-views';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { Button, buttonClass } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast';
import { gitPermissionKeys, toggleErrorMessage, useToggleReadOnly, type ToggleVariables } from './api';
import { useDebouncedInput } from '@/lib/debounce';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import {
  ClearAllButton,
  clearAllBlockedReason,
  GIT_PERMISSIONS_PERMISSION,
  connectionLabel,
  LoadProgress,
  MatcherText,
  PROVIDER_LABELS,
  useAllGitPermissions,
  useConnections,
} from './shared';

export type SortKey = 'matcher' | 'type' | 'connection' | 'read_only' | 'created_at';
export interface TableSearch {
  q: string;
  sort: SortKey;
  dir: 'asc' | 'desc';
  access: 'all' | 'read_only' | 'read_write';
}

const ACCESS_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'read_only', label: 'Read-only' },
  { value: 'read_write', label: 'Read and write' },
];

type SortValue = (p: GitPermission) => string | number;

/** Compares by the column's value (numbers as numbers, text in the reader's locale), then by id. */
function sortBy(value: SortValue) {
  return (a: { original: GitPermission }, b: { original: GitPermission }) => {
    const va = value(a.original);
    const vb = value(b.original);
    const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return c !== 0 ? c : a.original.git_permission_id.localeCompare(b.original.git_permission_id);
  };
}

interface ReadOnlyToggle {
  pending: readonly (string | undefined)[];
  onToggle: (variables: ToggleVariables) => void;
}

const col = columnHelper<GitPermission>();

function permissionColumns(byId: ReadonlyMap<string, GitConnection>, toggle: ReadOnlyToggle) {
  const name = (p: GitPermission) => connectionLabel(byId.get(p.git_connection_id), p.git_connection_id);
  const sortable = (value: SortValue) => ({ enableSorting: true, sortDescFirst: false, sortFn: sortBy(value) });
  return col.columns([
    col.accessor((p) => matcherOf(p)?.value ?? '', {
      id: 'matcher',
      header: 'Matches',
      enableHiding: false,
      ...sortable((p) => matcherOf(p)?.value ?? ''),
      meta: { width: 'minmax(14rem,3fr)' },
      cell: ({ row }) => <MatcherText item={row.original} />,
    }),
    col.accessor((p) => matcherOf(p)?.field ?? '', {
      id: 'type',
      header: 'Matcher',
      ...sortable((p) => matcherOf(p)?.field ?? ''),
      meta: { width: 'minmax(7rem,1fr)' },
      cell: ({ row }) => {
        const m = matcherOf(row.original);
        return (
          <Badge tone={m?.field === 'repo_path' ? 'info' : m?.field === 'group_prefix' ? 'accent' : 'neutral'}>
            {m ? MATCHER_LABELS[m.field] : 'Invalid'}
          </Badge>
        );
      },
    }),
    col.accessor(name, {
      id: 'connection',
      header: 'Connection',
      ...sortable(name),
      meta: {
        width: 'minmax(10rem,1.5fr)',
        className: 'truncate text-xs',
        cellTitle: (p: GitPermission) => `${byId.get(p.git_connection_id)?.host ?? ''} ${p.git_connection_id}`,
      },
      cell: ({ row: { original: p } }) => {
        const conn = byId.get(p.git_connection_id);
        return (
          <>
            {connectionLabel(conn, p.git_connection_id)}
            {conn ? (
              <span className="block text-muted">
                {PROVIDER_LABELS[conn.git_provider_type] ?? conn.git_provider_type}
              </span>
            ) : null}
          </>
        );
      },
    }),
    col.accessor('read_only', {
      id: 'read_only',
      header: 'Read-only',
      enableHiding: false,
      ...sortable((p) => (p.read_only ? 1 : 0)),
      meta: { width: 'minmax(8.5rem,0.8fr)', className: 'flex items-center gap-2 whitespace-nowrap' },
      cell: ({ row: { original: p } }) => (
        <>
          <Switch
            checked={p.read_only}
            disabled={toggle.pending.includes(p.git_permission_id)}
            aria-label={`Read-only: ${describeMatcher(p)}`}
            onCheckedChange={(checked) =>
              toggle.onToggle({ id: p.git_permission_id, read_only: checked, label: describeMatcher(p) })
            }
          />
          <span className="text-xs text-muted">{p.read_only ? 'Read-only' : 'Read/write'}</span>
        </>
      ),
    }),
    col.accessor((p) => p.created_at ?? 0, {
      id: 'created_at',
      header: 'Created',
      ...sortable((p) => p.created_at ?? 0),
      meta: { width: 'minmax(7rem,1fr)', className: 'text-xs text-muted' },
      cell: ({ row }) => <RelativeTime value={row.original.created_at} />,
    }),
  ]);
}

export function GitPermissionsTable({ orgId, search }: { orgId: string; search: TableSearch }) {
  const navigate = useNavigate({ from: '/orgs/$orgId/git-permissions/' });
  const { query, rows, items, total, complete, pages } = useAllGitPermissions(orgId);
  const { byId } = useConnections();
  const accessId = useId();
  const [toggleError, setToggleError] = useState<{ id: string; message: string } | null>(null);
  // Every toggle reports its own failure (toggles run one after another; a later click must not hide it).
  const toggle = useToggleReadOnly(orgId, {
    onError: (e, v) => setToggleError({ id: v.id, message: toggleErrorMessage(v.label ?? v.id, e) }),
  });
  // Every toggle still running (they run one after another), so each of their switches stays disabled.
  const togglingIds = useMutationState({
    filters: { mutationKey: gitPermissionKeys.toggleReadOnly(orgId), status: 'pending' },
    select: (m) => (m.state.variables as { id: string } | undefined)?.id,
  });
  const setSearch = (patch: Partial<TableSearch>) =>
    void navigate({ search: (prev: TableSearch) => ({ ...prev, ...patch }) });
  // Each filter change is a step of the history (Back returns to it); typing commits after a pause.
  const [filterText, setFilterText] = useDebouncedInput(search.q, (q) => setSearch({ q }));

  const { mutate } = toggle;
  const columns = useMemo(
    () =>
      permissionColumns(byId, {
        pending: togglingIds,
        onToggle: (v) => {
          setToggleError(null);
          mutate(v, {
            // Done: say so, with an Undo that toggles it back (through the same conflict-checked change).
            onSuccess: () =>
              toast({
                tone: 'success',
                title: `${v.label ?? v.id} is now ${v.read_only ? 'read-only' : 'read-write'}`,
                action: { label: 'Undo', onClick: () => mutate({ ...v, read_only: !v.read_only }) },
              }),
          });
        },
      }),
    [byId, togglingIds, mutate],
  );

  const filter = useMemo(() => {
    const q = search.q.trim().toLowerCase();
    if (!q && search.access === 'all') return undefined;
    return (p: GitPermission) => {
      if (search.access === 'read_only' && !p.read_only) return false;
      if (search.access === 'read_write' && p.read_only) return false;
      if (!q) return true;
      const name = connectionLabel(byId.get(p.git_connection_id), p.git_connection_id);
      return `${describeMatcher(p)} ${name} ${p.git_connection_id} ${p.git_permission_id}`.toLowerCase().includes(q);
    };
  }, [search.q, search.access, byId]);
  const shown = useMemo(() => (filter ? items.filter(filter).length : items.length), [items, filter]);

  const sorting = useMemo<SortingState>(() => [{ id: search.sort, desc: search.dir === 'desc' }], [search]);
  const onSortingChange = useCallback(
    (next: SortingState) => {
      const s = next[0];
      // The URL always holds a sort: a third click on a column goes back to ascending rather than unsorted.
      void navigate({
        search: (prev: TableSearch) => ({
          ...prev,
          sort: (s?.id ?? prev.sort) as SortKey,
          dir: s?.desc ? 'desc' : 'asc',
        }),
      });
    },
    [navigate],
  );

  const base = complete ? { version: gitPermissionSetVersion(items), items } : null;
  const denied = useHasPermission(GIT_PERMISSIONS_PERMISSION) === false;
  const reasonId = useId();
  // While the list is still loading (or failed to), Clear all waits: said only once the page has settled.
  const clearReason = query.isPending
    ? null
    : query.isError && !denied
      ? 'Clear all needs the complete list, which could not be read.'
      : clearAllBlockedReason(base, denied);

  return (
    <>
      <PageHeader
        title="Git permissions"
        description="Which repositories this organization's sessions may use, by repository, path prefix or group, and whether access is read-only."
        actions={
          <>
            <SavedViews screen="git-permissions" current={search} onOpen={(view) => void navigate({ search: view })} />
            {denied ? (
              // Not links a credential without the permission could follow only to a refusal: disabled, with why.
              <>
                <Button variant="primary" disabled aria-describedby={reasonId}>
                  <Pencil className="size-4" aria-hidden /> Bulk edit
                </Button>
                <Button disabled aria-describedby={reasonId}>
                  <History className="size-4" aria-hidden /> History
                </Button>
              </>
            ) : (
              <>
                <Link
                  to="/orgs/$orgId/git-permissions/edit"
                  params={{ orgId }}
                  className={buttonClass({ variant: 'primary' })}
                >
                  <Pencil className="size-4" aria-hidden /> Bulk edit
                </Link>
                <Link to="/orgs/$orgId/git-permissions/history" params={{ orgId }} className={buttonClass()}>
                  <History className="size-4" aria-hidden /> History
                </Link>
              </>
            )}
            <ClearAllButton orgId={orgId} base={base} denied={denied} describedBy={reasonId} />
          </>
        }
      />
      {(denied || clearReason) && (
        <p id={reasonId} className="-mt-2 mb-3 text-sm text-muted">
          {denied
            ? `Bulk edit, History and Clear all are not available: ${missingPermissionTitle(GIT_PERMISSIONS_PERMISSION, false)}.`
            : clearReason}
        </p>
      )}
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <Input
          className="w-72 max-w-full"
          type="search"
          aria-label="Filter permissions"
          placeholder="Filter by path, group or connection"
          value={filterText}
          onChange={(e) => setFilterText(e.target.value)}
        />
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={accessId}>Access</label>
          <Select
            id={accessId}
            className="w-44"
            value={search.access}
            options={ACCESS_OPTIONS}
            onValueChange={(v) => setSearch({ access: v as TableSearch['access'] })}
          />
        </div>
        {!query.isError && <LoadProgress loaded={items.length} total={total} complete={complete} pages={pages} />}
        {filter ? (
          <span className="text-xs text-muted">
            Showing {shown} of {items.length}
          </span>
        ) : null}
      </div>
      {toggleError && (
        <div className="mb-3">
          <ProblemView compact error={new Error(toggleError.message)}>
            <Button size="sm" variant="ghost" onClick={() => setToggleError(null)}>
              Dismiss
            </Button>
          </ProblemView>
        </div>
      )}
      <DataTable
        label="Git permissions"
        tableId="git-permissions"
        columns={columns}
        query={rows}
        getRowId={(p) => p.git_permission_id}
        filter={filter}
        sorting={sorting}
        onSortingChange={onSortingChange}
        minWidth="52rem"
        estimateRowHeight={44}
        empty={
          items.length === 0
            ? {
                title: 'No git permissions',
                hint: (
                  <>
                    This organization has no git permissions yet.{' '}
                    <Link
                      to="/orgs/$orgId/git-permissions/edit"
                      params={{ orgId }}
                      className="text-accent underline underline-offset-2 hover:no-underline"
                    >
                      Add some in the bulk editor
                    </Link>
                    .
                  </>
                ),
              }
            : { title: 'No permission matches the filter', hint: 'Change or clear the filter.' }
        }
      />
    </>
  );
}
