/**
 * An organization's git permissions: every page loaded (with progress), filtered and sorted in the browser
 * with the filter and the sort in the URL, and a quick read-only toggle per row that does not open the editor
 * (through the console server: the same lock and version check as the bulk editor, and recorded in history).
 */
import { useMutationState } from '@tanstack/react-query';
import type { SortingState } from '@tanstack/react-table';
import { Link, useNavigate } from '@tanstack/react-router';
import { History, Pencil } from 'lucide-react';
import { useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import { describeMatcher, gitPermissionSetVersion } from '@/api/git-permissions/set-diff';
import type { GitConnection, GitPermission } from '@/api/git-permissions/resources';
import { DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { SavedViews } from '@/components/saved-views';
import { ProblemView } from '@/components/problem-view';
import { Button, buttonClass } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { gitPermissionKeys, toggleErrorMessage, useToggleReadOnly } from './api';
import { useDebouncedInput } from '@/lib/debounce';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { permissionColumns } from './permission-columns';
import {
  ClearAllButton,
  clearAllBlockedReason,
  GIT_PERMISSIONS_PERMISSION,
  connectionLabel,
  LoadProgress,
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

/** The columns with their read-only switches wired to the quick toggle, and the last toggle's failure. */
function useReadOnlyToggle(orgId: string, byId: ReadonlyMap<string, GitConnection>) {
  const [toggleError, setToggleError] = useState<{ id: string; message: string } | null>(null);
  // Every toggle reports its own failure (toggles run one after another; a later click must not hide it).
  const { mutate } = useToggleReadOnly(orgId, {
    onError: (e, v) => setToggleError({ id: v.id, message: toggleErrorMessage(v.label ?? v.id, e) }),
  });
  // Every toggle still running (they run one after another), so each of their switches stays disabled.
  const togglingIds = useMutationState({
    filters: { mutationKey: gitPermissionKeys.toggleReadOnly(orgId), status: 'pending' },
    select: (m) => (m.state.variables as { id: string } | undefined)?.id,
  });
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
  return { columns, toggleError, dismissToggleError: () => setToggleError(null) };
}

/** The URL's text and access filters as a row predicate (none when nothing filters), and how many rows pass. */
function usePermissionFilter(search: TableSearch, items: GitPermission[], byId: ReadonlyMap<string, GitConnection>) {
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
  return { filter, shown };
}

/** The table's sort, read from and written to the URL. */
function useUrlSorting(search: TableSearch) {
  const navigate = useNavigate({ from: '/orgs/$orgId/git-permissions/' });
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
  return { sorting, onSortingChange };
}

/** Bulk edit and History: links, or disabled buttons described by why when the credential lacks the permission. */
function EditorLinks({ orgId, denied, reasonId }: { orgId: string; denied: boolean; reasonId: string }) {
  if (denied)
    // Not links a credential without the permission could follow only to a refusal: disabled, with why.
    return (
      <>
        <Button variant="primary" disabled aria-describedby={reasonId}>
          <Pencil className="size-4" aria-hidden /> Bulk edit
        </Button>
        <Button disabled aria-describedby={reasonId}>
          <History className="size-4" aria-hidden /> History
        </Button>
      </>
    );
  return (
    <>
      <Link to="/orgs/$orgId/git-permissions/edit" params={{ orgId }} className={buttonClass({ variant: 'primary' })}>
        <Pencil className="size-4" aria-hidden /> Bulk edit
      </Link>
      <Link to="/orgs/$orgId/git-permissions/history" params={{ orgId }} className={buttonClass()}>
        <History className="size-4" aria-hidden /> History
      </Link>
    </>
  );
}

/** The text filter, the access filter, the loading progress and how many rows the filter shows. */
function PermissionFilters({
  search,
  setSearch,
  progress,
  shown,
  total,
  filtering,
}: {
  search: TableSearch;
  setSearch: (patch: Partial<TableSearch>) => void;
  progress: ReactNode;
  shown: number;
  total: number;
  filtering: boolean;
}) {
  const accessId = useId();
  // Each filter change is a step of the history (Back returns to it); typing commits after a pause.
  const [filterText, setFilterText] = useDebouncedInput(search.q, (q) => setSearch({ q }));
  return (
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
      {progress}
      {filtering ? (
        <span className="text-xs text-muted">
          Showing {shown} of {total}
        </span>
      ) : null}
    </div>
  );
}

/** What the empty table says: none at all (with the way to add some), or none passing the filter. */
function emptyState(orgId: string, noneAtAll: boolean) {
  if (!noneAtAll) return { title: 'No permission matches the filter', hint: 'Change or clear the filter.' };
  return {
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
  };
}

export function GitPermissionsTable({ orgId, search }: { orgId: string; search: TableSearch }) {
  const navigate = useNavigate({ from: '/orgs/$orgId/git-permissions/' });
  const { query, rows, items, total, complete, pages } = useAllGitPermissions(orgId);
  const { byId } = useConnections();
  const { columns, toggleError, dismissToggleError } = useReadOnlyToggle(orgId, byId);
  const setSearch = (patch: Partial<TableSearch>) =>
    void navigate({ search: (prev: TableSearch) => ({ ...prev, ...patch }) });
  const { filter, shown } = usePermissionFilter(search, items, byId);
  const { sorting, onSortingChange } = useUrlSorting(search);

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
            <EditorLinks orgId={orgId} denied={denied} reasonId={reasonId} />
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
      <PermissionFilters
        search={search}
        setSearch={setSearch}
        progress={
          !query.isError && <LoadProgress loaded={items.length} total={total} complete={complete} pages={pages} />
        }
        shown={shown}
        total={items.length}
        filtering={filter !== undefined}
      />
      {toggleError && (
        <div className="mb-3">
          <ProblemView compact error={new Error(toggleError.message)}>
            <Button size="sm" variant="ghost" onClick={dismissToggleError}>
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
        empty={emptyState(orgId, items.length === 0)}
      />
    </>
  );
}
