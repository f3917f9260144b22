/** Repository indexing: query keys, the repositories list (a sandbox extension) and the bulk removal. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export const INDEXING_PAGE_SIZE = 100;

export const indexingKeys = {
  all: ['indexing'] as const,
  org: (orgId: string) => [...indexingKeys.all, orgId] as const,
  lists: (orgId: string) => [...indexingKeys.org(orgId), 'list'] as const,
};

export const repositoriesInfiniteQueryOptions = (orgId: string) =>
  cursorInfiniteQueryOptions({
    queryKey: indexingKeys.lists(orgId),
    page: (pageParam, signal) =>
      apiCall('indexing.list', {
        params: { org_id: orgId },
        query: { first: INDEXING_PAGE_SIZE, after: pageParam },
        signal,
      }),
    // 4xx answers are final (the query client's default): a 403 shows the missing permission at once, and an
    // upstream without the listing extension (404 or 405) falls back to typed paths at once.
  });

/** True when the upstream does not offer the listing (the spec does not define it). */
export function listingUnavailable(err: unknown): boolean {
  return isApiError(err) && (err.status === 404 || err.status === 405);
}

export function useRemoveFromIndexing(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (repositoryPaths: string[]) =>
      apiCall('indexing.remove', { params: { org_id: orgId }, body: { repository_paths: repositoryPaths } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: indexingKeys.org(orgId) }),
  });
}

/** The paths a 404 of the bulk removal names as not found. */
export function notFoundPaths(err: unknown, sent: readonly string[]): string[] | null {
  if (!isApiError(err) || err.status !== 404) return null;
  const listed = (err.problem as { not_found_repository_paths?: unknown }).not_found_repository_paths;
  if (Array.isArray(listed) && listed.every((p) => typeof p === 'string')) return listed as string[];
  // Another upstream may only name them in `detail`.
  const detail = err.problem.detail ?? '';
  const named = sent.filter((p) => detail.includes(p));
  return named.length > 0 ? named : [];
}

/** Reads a list of repository paths typed by hand: one per line, or separated by commas or spaces. */
export function parsePaths(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
}
