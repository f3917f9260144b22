/**
 * Git permissions: query keys, query options and mutations. Reads page through the API proxy; replace, clear,
 * restore and the read-only toggle go through the console server's safe endpoints (complete read, conflict
 * check, history).
 */
import { queryOptions, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import {
  GIT_REVISIONS_PAGE_SIZE,
  GitPermissionConflict,
  type ConsoleApplyResult,
  type ConsoleGitPermissionSet,
} from '@/api/console/git-permissions';
import {
  GIT_REPOSITORIES_PAGE_MAX,
  MATCHER_FIELDS,
  type GitPermission,
  type GitPermissionInput,
} from '@/api/git-permissions/resources';
import { gitPermissionSetVersion, normalizeGitPermission } from '@/api/git-permissions/set-diff';
import { PAGE_SIZE } from '@/api/conventions';
import { nextCursor, type Page } from '@/api/cursor';
import { readAllPages } from '@/api/page-walk';
import { applyServerErrors } from '@/components/form/server-errors';
import { apiCall } from '@/lib/api-client';
import { errorMessage, isApiError } from '@/lib/api-error';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';
import { gitConnectionKeys } from '@/lib/git-connections';

export const gitPermissionKeys = {
  all: ['git-permissions'] as const,
  org: (orgId: string) => [...gitPermissionKeys.all, orgId] as const,
  lists: (orgId: string) => [...gitPermissionKeys.org(orgId), 'list'] as const,
  infinite: (orgId: string) => [...gitPermissionKeys.lists(orgId), 'infinite'] as const,
  current: (orgId: string) => [...gitPermissionKeys.lists(orgId), 'current'] as const,
  revisions: (orgId: string) => [...gitPermissionKeys.org(orgId), 'revisions'] as const,
  /** The mutation key of the read-only toggles (not a query). */
  toggleReadOnly: (orgId: string) => [...gitPermissionKeys.org(orgId), 'toggle-read-only'] as const,
  /** The mutation key of replace, clear and restore (not a query). */
  change: (orgId: string) => [...gitPermissionKeys.org(orgId), 'change'] as const,
  revision: (orgId: string, id: number) => [...gitPermissionKeys.revisions(orgId), 'detail', id] as const,
  revisionDiff: (orgId: string, from: number, to: number) =>
    [...gitPermissionKeys.revisions(orgId), 'diff', from, to] as const,
};

/** Page size of the permission list; 100 so a large set shows its paging progress. */
export const PERMISSIONS_PAGE_SIZE = 100;

export const gitPermissionsInfiniteQueryOptions = (orgId: string) =>
  cursorInfiniteQueryOptions({
    queryKey: gitPermissionKeys.infinite(orgId),
    page: (pageParam, signal) =>
      apiCall('gitPermissions.list', {
        params: { org_id: orgId },
        query: { first: PERMISSIONS_PAGE_SIZE, after: pageParam },
        signal,
      }),
  });

/** The complete current set and its version token, read by the console server (every page). */
export const gitPermissionSetQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: gitPermissionKeys.current(orgId),
    queryFn: ({ signal }) => apiCall('console.gitPermissions.get', { params: { org_id: orgId }, signal }),
    staleTime: 0,
  });

export const gitConnectionsQueryOptions = () =>
  queryOptions({
    queryKey: gitConnectionKeys.list(),
    queryFn: ({ signal }) =>
      readAllPages((after) => apiCall('gitConnections.list', { query: { first: PAGE_SIZE.max, after }, signal }), {
        signal,
        maxPages: 50,
        what: 'The git connections list',
      }),
    staleTime: 5 * 60_000,
  });

/** Repositories offered per search in the picker (the vendor's list pages by at most 100). */
export const REPOSITORY_PICKER_PAGE_SIZE = Math.min(25, GIT_REPOSITORIES_PAGE_MAX);

export const gitRepositoriesQueryOptions = (connectionId: string, filter: string) =>
  queryOptions({
    queryKey: gitConnectionKeys.repositories(connectionId, filter),
    queryFn: ({ signal }) =>
      apiCall('gitConnections.repositories.list', {
        params: { connection_id: connectionId },
        query: { filter_name: filter || undefined, first: REPOSITORY_PICKER_PAGE_SIZE },
        signal,
      }),
    enabled: connectionId !== '',
    staleTime: 60_000,
  });

export const gitRevisionsInfiniteQueryOptions = (orgId: string) =>
  cursorInfiniteQueryOptions({
    queryKey: gitPermissionKeys.revisions(orgId),
    page: (pageParam, signal) =>
      apiCall('console.gitPermissions.revisions.list', {
        params: { org_id: orgId },
        query: { first: GIT_REVISIONS_PAGE_SIZE, after: pageParam },
        signal,
      }),
    staleTime: 0,
  });

export const gitRevisionQueryOptions = (orgId: string, revisionId: number) =>
  queryOptions({
    queryKey: gitPermissionKeys.revision(orgId, revisionId),
    queryFn: ({ signal }) =>
      apiCall('console.gitPermissions.revisions.get', {
        params: { org_id: orgId, revision_id: String(revisionId) },
        signal,
      }),
    staleTime: 60_000,
  });

export const gitRevisionDiffQueryOptions = (orgId: string, from: number, to: number) =>
  queryOptions({
    queryKey: gitPermissionKeys.revisionDiff(orgId, from, to),
    queryFn: ({ signal }) =>
      apiCall('console.gitPermissions.revisions.diff', {
        params: { org_id: orgId },
        query: { from: String(from), to: String(to) },
        signal,
      }),
    staleTime: 60_000,
  });

/** A change the console applies with its conflict check: a replace, a clear, or restoring a revision's set. */
export type GitPermissionChange =
  | { action: 'replace'; permissions: GitPermissionInput[]; allow_per_item?: boolean }
  | { action: 'clear' }
  | { action: 'restore'; revisionId: number; set: 'previous' | 'result'; allow_per_item?: boolean };

/** The set a change was made on: its version token and its items (so a 409 can say what changed since). */
export interface GitPermissionChangeBase {
  version: string;
  items: readonly GitPermissionInput[];
}

/**
 * How a change ended: applied; refused because the set changed meanwhile (the 409 body: the set as it is now
 * and what changed since the base); refused as invalid with errors on the items they name (`permissions.17.
 * repo_path`, or `permissions.17` for the item as a whole) and the rest in `error`, for the form-level alert
 * (null when every error found its item); or failed otherwise.
 */
export type GitPermissionChangeOutcome =
  | { status: 'done'; result: ConsoleApplyResult }
  | { status: 'conflict'; conflict: GitPermissionConflictBody; error: unknown }
  | { status: 'invalid'; fieldErrors: ReadonlyMap<string, string[]>; error: unknown }
  | { status: 'failed'; error: unknown };

/** A 409's body (the contract's `GitPermissionConflict`): the set as it is now, its version, what changed. */
export type GitPermissionConflictBody = GitPermissionConflict;

export function conflictBodyOf(problem: unknown): GitPermissionConflictBody | null {
  const r = GitPermissionConflict.safeParse(problem);
  return r.success ? r.data : null;
}

const ITEM_FIELDS: ReadonlySet<string> = new Set(['git_connection_id', ...MATCHER_FIELDS, 'read_only']);

/**
 * Where a 422 error of a change shows: an item's field (`permissions.3.repo_path`), the item as a whole
 * (`permissions.3`), or nowhere (null: the form-level alert), given how many items the change sent.
 */
export function changeFieldOf(path: string, itemCount: number): string | null {
  const m = /^permissions\.(\d+)(?:\.([^.]+))?/.exec(path);
  if (!m || Number(m[1]) >= itemCount) return null;
  return m[2] !== undefined && ITEM_FIELDS.has(m[2]) ? `permissions.${m[1]}.${m[2]}` : `permissions.${m[1]}`;
}

/** What a failed change means for the screen: a conflict, errors on the items (through the form kit), or a failure. */
export function changeOutcomeOf(error: unknown, itemCount: number): GitPermissionChangeOutcome {
  if (isApiError(error) && error.status === 409) {
    const conflict = conflictBodyOf(error.problem);
    if (conflict) return { status: 'conflict', conflict, error };
  }
  const fieldErrors = new Map<string, string[]>();
  const rest = applyServerErrors(
    error,
    (name, e) => fieldErrors.set(name, [...(fieldErrors.get(name) ?? []), e.message ?? '']),
    (path) => changeFieldOf(path, itemCount),
  );
  return fieldErrors.size > 0 ? { status: 'invalid', fieldErrors, error: rest } : { status: 'failed', error: rest };
}

function sendChange(orgId: string, change: GitPermissionChange, base: GitPermissionChangeBase) {
  const baseBody = { base_version: base.version, base: base.items.map(normalizeGitPermission) };
  switch (change.action) {
    case 'replace':
      return apiCall('console.gitPermissions.replace', {
        params: { org_id: orgId },
        body: { ...baseBody, permissions: change.permissions, allow_per_item: change.allow_per_item },
      });
    case 'clear':
      return apiCall('console.gitPermissions.clear', { params: { org_id: orgId }, body: baseBody });
    case 'restore':
      return apiCall('console.gitPermissions.revisions.restore', {
        params: { org_id: orgId, revision_id: String(change.revisionId) },
        body: { ...baseBody, set: change.set, allow_per_item: change.allow_per_item },
      });
  }
}

/**
 * The one way the screens change an organization's set (the bulk editor, clear-all, history restore): the
 * change is sent with the version and the items of the set it was made on, and `apply` resolves to its
 * outcome, never rejects. `outcome` is the last one; `formError` what a form-level alert shows (a failure, or
 * the 422 errors no item shows), never the conflict.
 */
export function useApplyGitPermissionChange(orgId: string) {
  const qc = useQueryClient();
  const mutation = useMutation({
    mutationKey: gitPermissionKeys.change(orgId),
    mutationFn: ({ change, base }: { change: GitPermissionChange; base: GitPermissionChangeBase }) =>
      sendChange(orgId, change, base),
    // Whatever happened, the set may differ from what the screens hold: read it again.
    onSettled: () => qc.invalidateQueries({ queryKey: gitPermissionKeys.org(orgId) }),
  });
  const [outcome, setOutcome] = useState<GitPermissionChangeOutcome | null>(null);
  const { mutateAsync, reset: resetMutation } = mutation;
  const apply = useCallback(
    async (change: GitPermissionChange, base: GitPermissionChangeBase): Promise<GitPermissionChangeOutcome> => {
      setOutcome(null);
      let next: GitPermissionChangeOutcome;
      try {
        next = { status: 'done', result: await mutateAsync({ change, base }) };
      } catch (error) {
        next = changeOutcomeOf(error, change.action === 'replace' ? change.permissions.length : 0);
      }
      setOutcome(next);
      return next;
    },
    [mutateAsync],
  );
  const reset = useCallback(() => {
    resetMutation();
    setOutcome(null);
  }, [resetMutation]);
  const formError = outcome?.status === 'failed' || outcome?.status === 'invalid' ? (outcome.error ?? null) : null;
  return { apply, reset, outcome, formError, isPending: mutation.isPending };
}

export type PermissionPages = InfiniteData<Page<GitPermission>, string | undefined>;

/** The loaded list's items, and whether it holds the whole set (every page read). */
export function loadedSet(data: PermissionPages | undefined): { items: GitPermission[]; complete: boolean } {
  if (!data || data.pages.length === 0) return { items: [], complete: false };
  const last = data.pages[data.pages.length - 1]!;
  return { items: data.pages.flatMap((p) => p.items), complete: nextCursor(last) === undefined };
}

/** The loaded pages with one permission replaced by its new state (pages and cursors kept). */
export function withPermission(data: PermissionPages, updated: GitPermission): PermissionPages {
  return {
    ...data,
    pages: data.pages.map((p) =>
      p.items.some((i) => i.git_permission_id === updated.git_permission_id)
        ? {
            ...p,
            items: p.items.map((i) => (i.git_permission_id === updated.git_permission_id ? { ...i, ...updated } : i)),
          }
        : p,
    ),
  };
}

export interface ToggleVariables {
  id: string;
  read_only: boolean;
  /** The permission in words, for messages. */
  label?: string;
}

/** Why a toggle did not apply, in words (409: the set changed since it was loaded; 404: the permission is gone). */
export function toggleErrorMessage(what: string, error: unknown): string {
  if (isApiError(error) && error.status === 409)
    return `Could not change ${what}: the permissions changed since this list was loaded, so nothing was changed. The list now shows the current permissions; toggle again if it is still needed.`;
  if (isApiError(error) && error.status === 404)
    return `Could not change ${what}: it no longer exists. The list now shows the current permissions.`;
  return `Could not change ${what}: ${errorMessage(error)}`;
}

/**
 * Quick toggle of one permission's read_only. It goes through the console server, under the same
 * per-organization lock and version check as a bulk replace, and is recorded in history. The version of the
 * loaded set is sent when the whole set is loaded, so a toggle on a set that changed meanwhile answers 409
 * instead of reverting the other change. Toggles of one organization run one after another, each against the
 * set the previous one left.
 */
export function useToggleReadOnly(
  orgId: string,
  opts: { onError?: (error: unknown, variables: ToggleVariables) => void } = {},
) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: gitPermissionKeys.toggleReadOnly(orgId),
    scope: { id: `git-permissions-toggle:${orgId}` },
    mutationFn: ({ id, read_only }: ToggleVariables) => {
      // Read at run time, not when clicked: a queued toggle sees the set the previous toggle answered.
      const loaded = loadedSet(qc.getQueryData<PermissionPages>(gitPermissionKeys.infinite(orgId)));
      const body = loaded.complete ? { read_only, base_version: gitPermissionSetVersion(loaded.items) } : { read_only };
      return apiCall('console.gitPermissions.update', { params: { org_id: orgId, git_permission_id: id }, body });
    },
    onSuccess: (result, variables) => {
      const updated = result.permission ?? result.items.find((i) => i.git_permission_id === variables.id);
      let sameSet = false;
      qc.setQueryData<PermissionPages>(gitPermissionKeys.infinite(orgId), (data) => {
        if (!data) return data;
        const next = updated ? withPermission(data, updated) : data;
        const loaded = loadedSet(next);
        sameSet = loaded.complete && gitPermissionSetVersion(loaded.items) === result.version;
        return next;
      });
      // The answer holds the complete new set: the console's read of it is known.
      const { org_id, items, version, count } = result;
      qc.setQueryData<ConsoleGitPermissionSet>(gitPermissionKeys.current(orgId), { org_id, items, version, count });
      // Another change landed too (no version was sent): read the list again.
      if (!sameSet) void qc.invalidateQueries({ queryKey: gitPermissionKeys.infinite(orgId) });
      // The toggle is a revision: the history shows it.
      void qc.invalidateQueries({ queryKey: gitPermissionKeys.revisions(orgId) });
    },
    onError: (error, variables) => {
      // 409: the set changed since it was loaded; 404: the permission is gone. Show the set as it is now.
      if (isApiError(error) && (error.status === 409 || error.status === 404))
        void qc.invalidateQueries({ queryKey: gitPermissionKeys.lists(orgId) });
      opts.onError?.(error, variables);
    },
  });
}
