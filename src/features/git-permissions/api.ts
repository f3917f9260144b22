/**
 * Git permissions: query keys, query options and mutations. Reads page through the API proxy; replace, clear
 * and restore go through the console server's safe endpoints (complete read, conflict check, history).
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import type {
  ConsoleGitPermissionSet,
  GitPermission,
  GitPermissionDiff,
  GitPermissionInput,
  GitPermissionRevision,
  GitPermissionRevisionSummary,
} from '@/api/operations/git-permissions';
import { GIT_REPOSITORIES_PAGE_MAX } from '@/api/operations/git-permissions';
import { nextCursor, type Page } from '@/api/page';
import { apiCall, consoleCall } from '@/lib/api-client';

export const gitPermissionKeys = {
  all: ['git-permissions'] as const,
  org: (orgId: string) => [...gitPermissionKeys.all, orgId] as const,
  lists: (orgId: string) => [...gitPermissionKeys.org(orgId), 'list'] as const,
  infinite: (orgId: string) => [...gitPermissionKeys.lists(orgId), 'infinite'] as const,
  current: (orgId: string) => [...gitPermissionKeys.lists(orgId), 'current'] as const,
  revisions: (orgId: string) => [...gitPermissionKeys.org(orgId), 'revisions'] as const,
  revision: (orgId: string, id: number) => [...gitPermissionKeys.revisions(orgId), 'detail', id] as const,
  revisionDiff: (orgId: string, from: number, to: number) =>
    [...gitPermissionKeys.revisions(orgId), 'diff', from, to] as const,
};

export const gitConnectionKeys = {
  all: ['git-connections'] as const,
  list: () => [...gitConnectionKeys.all, 'list'] as const,
  repositories: (connectionId: string, filter: string) =>
    [...gitConnectionKeys.all, 'repositories', connectionId, filter] as const,
};

/** Page size of the permission list; 100 so a large set shows its paging progress. */
export const PERMISSIONS_PAGE_SIZE = 100;

export const gitPermissionsInfiniteQueryOptions = (orgId: string) =>
  infiniteQueryOptions({
    queryKey: gitPermissionKeys.infinite(orgId),
    queryFn: ({ pageParam, signal }) =>
      apiCall('gitPermissions.list', {
        params: { org_id: orgId },
        query: { first: PERMISSIONS_PAGE_SIZE, after: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
  });

/** The complete current set and its version token, read by the console server (every page). */
export const gitPermissionSetQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: gitPermissionKeys.current(orgId),
    queryFn: ({ signal }) =>
      consoleCall<ConsoleGitPermissionSet>('GET', `/git-permissions/orgs/${encodeURIComponent(orgId)}`, { signal }),
    staleTime: 0,
  });

export const gitConnectionsQueryOptions = () =>
  queryOptions({
    queryKey: gitConnectionKeys.list(),
    queryFn: async ({ signal }) => {
      const items = [];
      let after: string | undefined;
      do {
        const page = await apiCall('gitConnections.list', { query: { first: 200, after }, signal });
        items.push(...page.items);
        after = nextCursor(page);
      } while (after);
      return items;
    },
    staleTime: 5 * 60_000,
  });

export const gitRepositoriesQueryOptions = (connectionId: string, filter: string) =>
  queryOptions({
    queryKey: gitConnectionKeys.repositories(connectionId, filter),
    queryFn: ({ signal }) =>
      apiCall('gitConnections.repositories', {
        params: { connection_id: connectionId },
        query: { filter_name: filter || undefined, first: Math.min(25, GIT_REPOSITORIES_PAGE_MAX) },
        signal,
      }),
    enabled: connectionId !== '',
    staleTime: 60_000,
  });

export type RevisionPage = Page<GitPermissionRevisionSummary>;

export const gitRevisionsInfiniteQueryOptions = (orgId: string) =>
  infiniteQueryOptions({
    queryKey: gitPermissionKeys.revisions(orgId),
    queryFn: ({ pageParam, signal }) =>
      consoleCall<RevisionPage>(
        'GET',
        `/git-permissions/orgs/${encodeURIComponent(orgId)}/revisions?first=50${pageParam ? `&after=${encodeURIComponent(pageParam)}` : ''}`,
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    staleTime: 0,
  });

export const gitRevisionQueryOptions = (orgId: string, revisionId: number) =>
  queryOptions({
    queryKey: gitPermissionKeys.revision(orgId, revisionId),
    queryFn: ({ signal }) =>
      consoleCall<GitPermissionRevision>(
        'GET',
        `/git-permissions/orgs/${encodeURIComponent(orgId)}/revisions/${revisionId}`,
        { signal },
      ),
    staleTime: 60_000,
  });

export interface RevisionDiff {
  from: GitPermissionRevisionSummary;
  to: GitPermissionRevisionSummary;
  diff: GitPermissionDiff<GitPermission>;
}

export const gitRevisionDiffQueryOptions = (orgId: string, from: number, to: number) =>
  queryOptions({
    queryKey: gitPermissionKeys.revisionDiff(orgId, from, to),
    queryFn: ({ signal }) =>
      consoleCall<RevisionDiff>(
        'GET',
        `/git-permissions/orgs/${encodeURIComponent(orgId)}/revisions/diff?from=${from}&to=${to}`,
        { signal },
      ),
    staleTime: 60_000,
  });

/** What the console answers after a replace, clear or restore. */
export interface ApplyResult extends ConsoleGitPermissionSet {
  revision: GitPermissionRevisionSummary | null;
  unchanged: boolean;
}

export interface BaseSet {
  base_version: string;
  base: GitPermissionInput[];
}

function useInvalidateOrg(orgId: string) {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: gitPermissionKeys.org(orgId) });
}

export function useReplaceGitPermissions(orgId: string) {
  const invalidate = useInvalidateOrg(orgId);
  return useMutation({
    mutationFn: (body: BaseSet & { permissions: GitPermissionInput[]; allow_per_item?: boolean }) =>
      consoleCall<ApplyResult>('PUT', `/git-permissions/orgs/${encodeURIComponent(orgId)}`, { body }),
    onSettled: invalidate,
  });
}

export function useClearGitPermissions(orgId: string) {
  const invalidate = useInvalidateOrg(orgId);
  return useMutation({
    mutationFn: (body: BaseSet) =>
      consoleCall<ApplyResult>('DELETE', `/git-permissions/orgs/${encodeURIComponent(orgId)}`, { body }),
    onSettled: invalidate,
  });
}

export function useRestoreGitRevision(orgId: string) {
  const invalidate = useInvalidateOrg(orgId);
  return useMutation({
    mutationFn: ({
      revisionId,
      ...body
    }: BaseSet & { revisionId: number; set: 'previous' | 'result'; allow_per_item?: boolean }) =>
      consoleCall<ApplyResult>(
        'POST',
        `/git-permissions/orgs/${encodeURIComponent(orgId)}/revisions/${revisionId}/restore`,
        { body },
      ),
    onSettled: invalidate,
  });
}

/** Quick toggle of one permission's read_only (PATCH), updating the loaded list in place. */
export function useToggleReadOnly(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read_only }: { id: string; read_only: boolean }) =>
      apiCall('gitPermissions.update', { params: { org_id: orgId, git_permission_id: id }, body: { read_only } }),
    onSuccess: (updated) => {
      qc.setQueryData<InfiniteData<Page<GitPermission>, string | undefined>>(
        gitPermissionKeys.infinite(orgId),
        (data) =>
          data
            ? {
                ...data,
                pages: data.pages.map((p) => ({
                  ...p,
                  items: p.items.map((i) =>
                    i.git_permission_id === updated.git_permission_id ? { ...i, ...updated } : i,
                  ),
                })),
              }
            : data,
      );
      // The console's complete read and the history's "current" are now stale; the paged list is not.
      void qc.invalidateQueries({ queryKey: gitPermissionKeys.current(orgId) });
    },
  });
}
