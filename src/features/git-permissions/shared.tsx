/**
 * Pieces the git-permission screens share: loading every page with progress, connection names, the diff
 * view, file download, and the clear-all action behind a typed confirmation.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { describeMatcher, type GitPermissionDiff } from '@/api/git-permissions/set-diff';
import type { ConsoleApplyResult } from '@/api/console/git-permissions';
import type { GitConnection, GitPermission, GitPermissionInput } from '@/api/git-permissions/resources';
import { Badge } from '@/components/badge';
import { Breakable } from '@/components/breakable';
import type { InfiniteRowsQuery } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ProblemView } from '@/components/problem-view';
import { formatNumber } from '@/lib/format';
import {
  gitConnectionsQueryOptions,
  gitPermissionsInfiniteQueryOptions,
  useApplyGitPermissionChange,
  type GitPermissionChangeBase,
  type GitPermissionConflictBody,
} from './api';

/**
 * Loads every page of an organization's permissions, one after another, reporting progress. `rows` is the
 * query as the data table reads it; a page it asks for joins the one already being read.
 */
export function useAllGitPermissions(orgId: string) {
  const query = useInfiniteQuery(gitPermissionsInfiniteQueryOptions(orgId));
  const { data, hasNextPage, isFetchingNextPage, isPending, isSuccess, error, fetchNextPage, refetch } = query;
  const nextPage = useCallback(() => fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !error) void nextPage();
  }, [hasNextPage, isFetchingNextPage, nextPage, error]);
  const items = useMemo(() => data?.pages.flatMap((p) => p.items) ?? [], [data]);
  const total = data?.pages[0]?.total ?? null;
  const complete = isSuccess && !hasNextPage;
  const rows: InfiniteRowsQuery<GitPermission> = {
    data,
    hasNextPage,
    isFetchingNextPage,
    isPending,
    error,
    fetchNextPage: nextPage,
    refetch,
  };
  return { query, rows, items, total, complete, pages: data?.pages.length ?? 0 };
}

export function LoadProgress({
  loaded,
  total,
  complete,
  pages,
}: {
  loaded: number;
  total: number | null;
  complete: boolean;
  pages: number;
}) {
  const pct = total ? Math.round((loaded / Math.max(total, 1)) * 100) : complete ? 100 : 0;
  return (
    <div className="flex items-center gap-3 text-xs text-muted" role="status" aria-live="polite">
      <span>
        {complete
          ? `All ${formatNumber(loaded)} permissions loaded (${pages} page${pages === 1 ? '' : 's'})`
          : `Loading permissions… ${formatNumber(loaded)}${total !== null ? ` of ${formatNumber(total)}` : ''}`}
      </span>
      {!complete && (
        <progress className="h-1.5 w-32 accent-accent" max={100} value={pct} aria-label="Loading progress">
          {pct}%
        </progress>
      )}
    </div>
  );
}

/** The enterprise's git connections by id, with a readable name. */
export function useConnections() {
  const query = useQuery(gitConnectionsQueryOptions());
  const byId = useMemo(() => new Map((query.data ?? []).map((c) => [c.git_connection_id, c])), [query.data]);
  return { query, connections: query.data ?? [], byId };
}

export function connectionLabel(c: GitConnection | undefined, id: string): string {
  if (!c) return id;
  return c.name ?? c.host;
}

export const PROVIDER_LABELS: Record<string, string> = {
  github_token: 'GitHub (token)',
  github_individual_token: 'GitHub (personal token)',
  github_app: 'GitHub App',
  gitlab_token: 'GitLab (token)',
  gitlab_oauth: 'GitLab (OAuth)',
  azure_devops_oauth: 'Azure DevOps',
  bitbucket_oauth: 'Bitbucket (OAuth)',
  bitbucket_token: 'Bitbucket (token)',
};

export function MatcherText({ item }: { item: GitPermissionInput }) {
  return <Breakable className="font-mono text-xs" text={describeMatcher(item)} />;
}

function DiffList<T>({
  title,
  tone,
  items,
  render,
}: {
  title: string;
  tone: 'success' | 'danger' | 'warn';
  items: readonly T[];
  render: (item: T, i: number) => React.ReactNode;
}) {
  const [showAll, setShowAll] = useState(false);
  if (items.length === 0) return null;
  const shown = showAll ? items : items.slice(0, 50);
  return (
    <section aria-label={title} className="rounded-lg border border-line bg-surface">
      <h3 className="flex items-center gap-2 border-b border-line px-3 py-2 text-sm font-semibold">
        <Badge tone={tone}>{formatNumber(items.length)}</Badge> {title}
      </h3>
      <ul className="max-h-72 divide-y divide-line/60 overflow-auto text-sm">
        {shown.map((item, i) => (
          <li key={i} className="px-3 py-1.5">
            {render(item, i)}
          </li>
        ))}
      </ul>
      {items.length > shown.length && (
        <div className="border-t border-line px-3 py-2">
          <Button size="sm" variant="ghost" onClick={() => setShowAll(true)}>
            Show all {formatNumber(items.length)}
          </Button>
        </div>
      )}
    </section>
  );
}

/** Added, removed and changed permissions between two sets. */
export function DiffView({
  diff,
  connectionName,
  emptyText = 'No differences: the two sets are the same.',
}: {
  diff: GitPermissionDiff<GitPermissionInput>;
  connectionName: (id: string) => string;
  emptyText?: string;
}) {
  const row = (p: GitPermissionInput) => (
    <span className="flex flex-wrap items-center gap-x-2">
      <MatcherText item={p} />
      <span className="text-xs text-muted">on {connectionName(p.git_connection_id)}</span>
      {p.read_only ? <Badge>read-only</Badge> : null}
    </span>
  );
  const none = diff.added.length + diff.removed.length + diff.changed.length === 0;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm" aria-live="polite">
        <strong>{formatNumber(diff.added.length)}</strong> added, <strong>{formatNumber(diff.removed.length)}</strong>{' '}
        removed, <strong>{formatNumber(diff.changed.length)}</strong> changed, {formatNumber(diff.unchanged)} unchanged
      </p>
      {none && <p className="text-sm text-muted">{emptyText}</p>}
      <DiffList title="Added" tone="success" items={diff.added} render={(p: GitPermissionInput) => row(p)} />
      <DiffList title="Removed" tone="danger" items={diff.removed} render={(p: GitPermissionInput) => row(p)} />
      <DiffList
        title="Changed"
        tone="warn"
        items={diff.changed}
        render={(c: { before: GitPermissionInput; after: GitPermissionInput }) => (
          <span className="flex flex-wrap items-center gap-x-2">
            <MatcherText item={c.after} />
            <span className="text-xs text-muted">on {connectionName(c.after.git_connection_id)}:</span>
            <span className="text-xs">
              {c.before.read_only ? 'read-only' : 'read and write'} →{' '}
              <strong>{c.after.read_only ? 'read-only' : 'read and write'}</strong>
            </span>
          </span>
        )}
      />
    </div>
  );
}

/** The way back from the editor and the history to the permissions table. */
export function BackToList({ orgId }: { orgId: string }) {
  return (
    <Link
      to="/orgs/$orgId/git-permissions"
      params={{ orgId }}
      search={{}}
      className="text-accent underline underline-offset-2 hover:no-underline"
    >
      Back to the list
    </Link>
  );
}

export function downloadText(filename: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export const CLEAR_CONFIRM_WORD = 'clear all';

/** The permission every git-permission operation needs, reads included. */
export const GIT_PERMISSIONS_PERMISSION = 'ManageGitIntegrations' as const;

/** Why Clear all is disabled, in words (null when it is not): a greyed-out button alone says nothing. */
export function clearAllBlockedReason(base: GitPermissionChangeBase | null, denied: boolean): string | null {
  if (denied) return null; // said once for every action the credential cannot take
  if (!base) return 'Clear all is available once every permission is loaded.';
  if (base.items.length === 0) return 'Clear all: nothing to clear, this organization has no git permissions.';
  return null;
}

/**
 * Clears every permission of the organization, behind a typed confirmation and the conflict check. Without
 * `onConflict`, a conflict is shown in the dialog (nothing was cleared; the list is read again).
 */
export function ClearAllButton({
  orgId,
  base,
  onDone,
  onConflict,
  denied = false,
  describedBy,
}: {
  orgId: string;
  /** The set the admin sees; null while it is not completely loaded. */
  base: GitPermissionChangeBase | null;
  /** The console's credential lacks the permission to change the set. */
  denied?: boolean;
  /** The element saying in words why the button is disabled (see `clearAllBlockedReason`). */
  describedBy?: string;
  onDone?: (r: ConsoleApplyResult) => void;
  onConflict?: (c: GitPermissionConflictBody) => void;
}) {
  const [open, setOpen] = useState(false);
  const clear = useApplyGitPermissionChange(orgId);
  const count = base?.items.length ?? 0;
  const outcome = clear.outcome;
  const shown = outcome?.status === 'conflict' ? outcome.error : clear.formError;
  return (
    <>
      <Button
        variant="danger"
        disabled={denied || !base || count === 0}
        aria-describedby={denied || !base || count === 0 ? describedBy : undefined}
        onClick={() => setOpen(true)}
      >
        Clear all…
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) clear.reset();
        }}
        title={`Clear all ${formatNumber(count)} git permissions?`}
        description={
          <>
            Every git permission of this organization is removed. The removed set is kept in the history, where it can
            be restored.
          </>
        }
        confirmLabel="Clear all permissions"
        destructive
        typeToConfirm={CLEAR_CONFIRM_WORD}
        pending={clear.isPending}
        onConfirm={async () => {
          if (!base) return;
          const result = await clear.apply({ action: 'clear' }, base);
          if (result.status === 'done') {
            setOpen(false);
            onDone?.(result.result);
          } else if (result.status === 'conflict' && onConflict) {
            setOpen(false);
            onConflict(result.conflict);
          }
        }}
      >
        {shown ? (
          <div className="mt-3">
            <ProblemView compact error={shown} />
          </div>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
