/**
 * An organization's git permissions: every page loaded (with progress), filtered and sorted in the browser,
 * with a quick read-only toggle per row that does not open the editor (through the console server: the same
 * lock and version check as the bulk editor, and recorded in history).
 */
import { useMutationState } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowDown, ArrowUp, History, Pencil } from 'lucide-react';
import { Switch } from 'radix-ui';
import { useMemo, useState } from 'react';
import { describeMatcher, gitPermissionSetVersion, normalizeGitPermission } from '@/api/git-permissions/set-diff';
import { matcherOf, MATCHER_LABELS, type GitPermission } from '@/api/git-permissions/resources';
import { Badge } from '@/components/badge';
import { Button } from '@/components/ui/button';
import { CursorList } from '@/components/cursor-list';
import { inputClass } from '@/components/field';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { gitPermissionKeys, toggleErrorMessage, useToggleReadOnly } from './api';
import {
  ClearAllButton,
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

const COLUMNS: Array<{ key: SortKey; label: string }> = [
  { key: 'matcher', label: 'Matches' },
  { key: 'type', label: 'Matcher' },
  { key: 'connection', label: 'Connection' },
  { key: 'read_only', label: 'Read-only' },
  { key: 'created_at', label: 'Created' },
];

export function GitPermissionsTable({ orgId, search }: { orgId: string; search: TableSearch }) {
  const navigate = useNavigate({ from: '/orgs/$orgId/git-permissions/' });
  const { query, items, total, complete, pages } = useAllGitPermissions(orgId);
  const { byId } = useConnections();
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
    void navigate({ search: (prev: TableSearch) => ({ ...prev, ...patch }), replace: true });

  const shown = useMemo(() => {
    const q = search.q.trim().toLowerCase();
    const name = (p: GitPermission) => connectionLabel(byId.get(p.git_connection_id), p.git_connection_id);
    const filtered = items.filter((p) => {
      if (search.access === 'read_only' && !p.read_only) return false;
      if (search.access === 'read_write' && p.read_only) return false;
      if (!q) return true;
      return `${describeMatcher(p)} ${name(p)} ${p.git_connection_id} ${p.git_permission_id}`.toLowerCase().includes(q);
    });
    const value = (p: GitPermission): string | number => {
      switch (search.sort) {
        case 'matcher':
          return matcherOf(p)?.value ?? '';
        case 'type':
          return matcherOf(p)?.field ?? '';
        case 'connection':
          return name(p);
        case 'read_only':
          return p.read_only ? 1 : 0;
        case 'created_at':
          return p.created_at ?? 0;
      }
    };
    const sign = search.dir === 'asc' ? 1 : -1;
    return [...filtered].sort((a, b) => {
      const va = value(a);
      const vb = value(b);
      const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
      return c !== 0 ? c * sign : a.git_permission_id.localeCompare(b.git_permission_id);
    });
  }, [items, search, byId]);

  const base = complete
    ? { base_version: gitPermissionSetVersion(items), base: items.map(normalizeGitPermission) }
    : null;

  return (
    <>
      <PageHeader
        title="Git permissions"
        description="Which repositories this organization's sessions may use, by repository, path prefix or group, and whether access is read-only."
        actions={
          <>
            <Link
              to="/orgs/$orgId/git-permissions/edit"
              params={{ orgId }}
              className="inline-flex h-9 items-center gap-1.5 rounded-md bg-accent px-3.5 text-sm font-medium text-white hover:bg-accent-strong"
            >
              <Pencil className="size-4" aria-hidden /> Bulk edit
            </Link>
            <Link
              to="/orgs/$orgId/git-permissions/history"
              params={{ orgId }}
              className="inline-flex h-9 items-center gap-1.5 rounded-md border border-line bg-surface px-3.5 text-sm font-medium hover:bg-surface-2"
            >
              <History className="size-4" aria-hidden /> History
            </Link>
            <ClearAllButton orgId={orgId} base={base} />
          </>
        }
      />
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <input
          className={`${inputClass} w-72 max-w-full`}
          type="search"
          aria-label="Filter permissions"
          placeholder="Filter by path, group or connection"
          value={search.q}
          onChange={(e) => setSearch({ q: e.target.value })}
        />
        <label className="flex items-center gap-2 text-sm">
          Access
          <select
            className={`${inputClass} w-44`}
            value={search.access}
            onChange={(e) => setSearch({ access: e.target.value as TableSearch['access'] })}
          >
            <option value="all">All</option>
            <option value="read_only">Read-only</option>
            <option value="read_write">Read and write</option>
          </select>
        </label>
        {!query.isError && <LoadProgress loaded={items.length} total={total} complete={complete} pages={pages} />}
        {search.q || search.access !== 'all' ? (
          <span className="text-xs text-muted">
            Showing {shown.length} of {items.length}
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
      {query.error && items.length > 0 && (
        <ProblemView compact error={query.error} onRetry={() => void query.fetchNextPage()} />
      )}
      <CursorList
        ariaLabel="Git permissions"
        items={shown}
        total={search.q || search.access !== 'all' ? shown.length : total}
        getKey={(p) => p.git_permission_id}
        columns="minmax(14rem,3fr) minmax(7rem,1fr) minmax(10rem,1.5fr) minmax(7rem,0.8fr) minmax(7rem,1fr)"
        minWidth="52rem"
        estimateSize={44}
        header={COLUMNS.map((c) => (
          <span
            key={c.key}
            role="columnheader"
            aria-sort={search.sort === c.key ? (search.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
          >
            <button
              type="button"
              className="inline-flex items-center gap-1 uppercase hover:text-fg"
              onClick={() =>
                setSearch({ sort: c.key, dir: search.sort === c.key && search.dir === 'asc' ? 'desc' : 'asc' })
              }
            >
              {c.label}
              {search.sort === c.key ? (
                search.dir === 'asc' ? (
                  <ArrowUp className="size-3" aria-hidden />
                ) : (
                  <ArrowDown className="size-3" aria-hidden />
                )
              ) : null}
            </button>
          </span>
        ))}
        renderRow={(p) => {
          const m = matcherOf(p);
          const conn = byId.get(p.git_connection_id);
          return (
            <>
              <span role="cell" className="min-w-0">
                <MatcherText item={p} />
              </span>
              <span role="cell">
                <Badge tone={m?.field === 'repo_path' ? 'info' : m?.field === 'group_prefix' ? 'accent' : 'neutral'}>
                  {m ? MATCHER_LABELS[m.field] : 'Invalid'}
                </Badge>
              </span>
              <span
                role="cell"
                className="min-w-0 truncate text-xs"
                title={`${conn?.host ?? ''} ${p.git_connection_id}`}
              >
                {connectionLabel(conn, p.git_connection_id)}
                {conn ? (
                  <span className="block text-muted">
                    {PROVIDER_LABELS[conn.git_provider_type] ?? conn.git_provider_type}
                  </span>
                ) : null}
              </span>
              <span role="cell" className="flex items-center gap-2">
                <Switch.Root
                  checked={p.read_only}
                  disabled={togglingIds.includes(p.git_permission_id)}
                  aria-label={`Read-only: ${describeMatcher(p)}`}
                  onCheckedChange={(checked) => {
                    setToggleError(null);
                    toggle.mutate({ id: p.git_permission_id, read_only: checked, label: describeMatcher(p) });
                  }}
                  className="relative h-5 w-9 shrink-0 rounded-full border border-line bg-surface-2 transition-colors disabled:opacity-50 data-[state=checked]:border-warn data-[state=checked]:bg-warn"
                >
                  <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-4" />
                </Switch.Root>
                <span className="text-xs text-muted">{p.read_only ? 'Read-only' : 'Read/write'}</span>
              </span>
              <span role="cell" className="text-xs text-muted">
                <RelativeTime value={p.created_at} />
              </span>
            </>
          );
        }}
        hasNextPage={false}
        isFetchingNextPage={query.isFetchingNextPage}
        isPending={query.isPending}
        error={query.error}
        fetchNextPage={() => void query.fetchNextPage()}
        refetch={() => void query.refetch()}
        emptyTitle={items.length === 0 ? 'No git permissions' : 'No permission matches the filter'}
        emptyHint={
          items.length === 0 ? (
            <>
              This organization has no git permissions yet.{' '}
              <Link to="/orgs/$orgId/git-permissions/edit" params={{ orgId }} className="text-accent hover:underline">
                Add some in the bulk editor
              </Link>
              .
            </>
          ) : (
            'Change or clear the filter.'
          )
        }
      />
    </>
  );
}
