/**
 * Playbooks: query keys, query options and mutations for both scopes — the enterprise (every playbook) and one
 * organization (its own). The same screens serve both; `PlaybookScope` picks the operations.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { notFound } from '@tanstack/react-router';
import type { Playbook, PlaybookAccessType, PlaybookBody } from '@/api/operations/playbooks';
import { apiCall } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export type PlaybookScope = { kind: 'enterprise' } | { kind: 'org'; orgId: string };

/** The list filters, as they live in the URL. */
export interface PlaybookFilters {
  search?: string;
  /** Enterprise list only. */
  access_type?: PlaybookAccessType;
}

export const PLAYBOOKS_PAGE_SIZE = 100;

const scopeKey = (scope: PlaybookScope) => (scope.kind === 'enterprise' ? 'enterprise' : `org:${scope.orgId}`);

export const playbookKeys = {
  all: ['playbooks'] as const,
  scope: (scope: PlaybookScope) => [...playbookKeys.all, scopeKey(scope)] as const,
  lists: (scope: PlaybookScope) => [...playbookKeys.scope(scope), 'list'] as const,
  list: (scope: PlaybookScope, filters: PlaybookFilters) => [...playbookKeys.lists(scope), filters] as const,
  detail: (scope: PlaybookScope, playbookId: string) => [...playbookKeys.scope(scope), 'detail', playbookId] as const,
  choices: (orgId: string) => [...playbookKeys.all, 'choices', orgId] as const,
};

/**
 * Whether a playbook matches the search as the sandbox does (title, macro, body): the API's `search` is a sandbox
 * extension, so the screen also narrows what it loaded.
 */
export function matchesSearch(p: Playbook, search: string | undefined): boolean {
  const term = search?.trim().toLowerCase();
  if (!term) return true;
  return [p.title, p.macro ?? '', p.body].some((s) => s.toLowerCase().includes(term));
}

export const playbooksInfiniteQueryOptions = (scope: PlaybookScope, filters: PlaybookFilters) =>
  cursorInfiniteQueryOptions({
    queryKey: playbookKeys.list(scope, filters),
    page: (after, signal) => {
      const query = { first: PLAYBOOKS_PAGE_SIZE, after, search: filters.search };
      return scope.kind === 'enterprise'
        ? apiCall('playbooks.enterprise.list', { query: { ...query, access_type: filters.access_type }, signal })
        : apiCall('playbooks.list', { params: { org_id: scope.orgId }, query, signal });
    },
  });

export const playbookQueryOptions = (scope: PlaybookScope, playbookId: string) =>
  queryOptions({
    queryKey: playbookKeys.detail(scope, playbookId),
    queryFn: ({ signal }) =>
      scope.kind === 'enterprise'
        ? apiCall('playbooks.enterprise.get', { params: { playbook_id: playbookId }, signal })
        : apiCall('playbooks.get', { params: { org_id: scope.orgId, playbook_id: playbookId }, signal }),
  });

/** The most playbooks a choice offers (one page of each list). */
const CHOICES_MAX = 200;

/**
 * The playbooks a session of `orgId` can follow: the organization's own and the enterprise's. The enterprise list
 * needs an enterprise-wide grant; without it the organization's own are offered.
 */
export const playbookChoicesQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: playbookKeys.choices(orgId),
    queryFn: async ({ signal }) => {
      const [own, enterprise] = await Promise.all([
        apiCall('playbooks.list', { params: { org_id: orgId }, query: { first: CHOICES_MAX }, signal }),
        apiCall('playbooks.enterprise.list', {
          query: { first: CHOICES_MAX, access_type: 'enterprise' },
          signal,
        }).catch((err: unknown) => {
          if (isApiError(err) && err.status === 403) return { items: [] as Playbook[] };
          throw err;
        }),
      ]);
      return [...own.items, ...enterprise.items.filter((p) => p.access_type === 'enterprise')];
    },
    staleTime: 60_000,
  });

/**
 * The playbook choices of a form in `orgId`, as `{value, label}` options; undefined when they cannot be read
 * (no permission, an upstream failure), so the form falls back to typing an id. `chosen` is kept as an option
 * while the list loads or when it is not in it.
 */
export function usePlaybookOptions(
  orgId: string,
  chosen?: string,
): Array<{ value: string; label: string }> | undefined {
  const choices = useQuery(playbookChoicesQueryOptions(orgId));
  if (choices.isError) return undefined;
  const options = (choices.data ?? []).map((p) => ({
    value: p.playbook_id,
    label: `${p.title}${p.access_type === 'enterprise' ? ' (enterprise)' : ''}`,
  }));
  if (chosen && !options.some((o) => o.value === chosen)) options.push({ value: chosen, label: chosen });
  return options;
}

export function useCreatePlaybook(scope: PlaybookScope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PlaybookBody) =>
      scope.kind === 'enterprise'
        ? apiCall('playbooks.enterprise.create', { body })
        : apiCall('playbooks.create', { params: { org_id: scope.orgId }, body }),
    onSuccess: (playbook) => {
      qc.setQueryData(playbookKeys.detail(scope, playbook.playbook_id), playbook);
      return qc.invalidateQueries({ queryKey: playbookKeys.all });
    },
  });
}

export function useUpdatePlaybook(scope: PlaybookScope, playbookId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PlaybookBody) =>
      scope.kind === 'enterprise'
        ? apiCall('playbooks.enterprise.update', { params: { playbook_id: playbookId }, body })
        : apiCall('playbooks.update', { params: { org_id: scope.orgId, playbook_id: playbookId }, body }),
    onSuccess: (playbook) => {
      qc.setQueryData(playbookKeys.detail(scope, playbook.playbook_id), playbook);
      return qc.invalidateQueries({ queryKey: playbookKeys.all });
    },
  });
}

export function useDeletePlaybook(scope: PlaybookScope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (playbookId: string) =>
      scope.kind === 'enterprise'
        ? apiCall('playbooks.enterprise.delete', { params: { playbook_id: playbookId } })
        : apiCall('playbooks.delete', { params: { org_id: scope.orgId, playbook_id: playbookId } }),
    // The playbook's own page is still open until the caller navigates away: refresh everything but its detail,
    // which the caller drops once it has left (`forgetPlaybook`).
    onSuccess: (playbook) =>
      qc.invalidateQueries({
        queryKey: playbookKeys.all,
        predicate: (q) => !(q.queryKey.includes('detail') && q.queryKey.includes(playbook.playbook_id)),
      }),
  });
}

export function forgetPlaybook(qc: QueryClient, scope: PlaybookScope, playbookId: string): void {
  qc.removeQueries({ queryKey: playbookKeys.detail(scope, playbookId), exact: true });
}

/** Route loader: fetches one playbook, turning a 404 into the router's not-found. */
export async function loadPlaybook(queryClient: QueryClient, scope: PlaybookScope, playbookId: string): Promise<void> {
  try {
    await queryClient.query(playbookQueryOptions(scope, playbookId));
  } catch (err) {
    if (isApiError(err) && err.status === 404) throw notFound();
    throw err;
  }
}
