/**
 * Changing organizations (create, rename, limits, delete) and what a deletion takes with it. Changes go through
 * the console's guarded endpoints, which record each one in the settings history with who made it. Every
 * change refreshes the organizations everywhere (overview, switcher, an organization's own page), the ACU
 * limits, which hold the organizations' cycle limits, and the history.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { settingsHistoryKeys } from '@/api/console/settings-history-keys';
import { Organization, type OrganizationCreateBody, type OrganizationUpdateBody } from '@/api/operations/organizations';
import type { Page } from '@/api/cursor';
import { walkPages } from '@/api/page-walk';
import { apiCall } from '@/lib/api-client';
import { ApiError, isApiError } from '@/lib/api-error';
import { acuLimitKeys, orgGroupLimitKeys } from '@/lib/enterprise-limits';
import { orgTagKeys } from '@/lib/org-tags';
import { organizationKeys } from '@/lib/organizations';

/** Keys of the other areas that hold organizations' values. */
const DEPENDENT_KEYS = [acuLimitKeys.all, orgGroupLimitKeys.all, orgTagKeys.all, settingsHistoryKeys.all] as const;

function useInvalidateOrganizations() {
  const qc = useQueryClient();
  return async () => {
    await qc.invalidateQueries({ queryKey: organizationKeys.all });
    for (const key of DEPENDENT_KEYS) void qc.invalidateQueries({ queryKey: key });
  };
}

/**
 * A name in use: the console answers 409 with the error on `name` ("An organization named “X” already
 * exists"); the form kit places field errors of a 422, so it is handed over as one, to show under Name.
 */
function nameErrorOnField(error: unknown): never {
  if (isApiError(error) && error.status === 409 && error.fieldErrors.length > 0) {
    throw new ApiError(422, { ...error.problem, status: 422 }, undefined, error.operationId);
  }
  throw error;
}

export function useCreateOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async (body: OrganizationCreateBody) =>
      Organization.parse(
        (await apiCall('console.settings.organizations.create', { body }).catch(nameErrorOnField)).result,
      ),
    onSuccess: invalidate,
  });
}

export function useUpdateOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async (v: { orgId: string; body: OrganizationUpdateBody }) =>
      Organization.parse(
        (
          await apiCall('console.settings.organizations.update', { params: { org_id: v.orgId }, body: v.body }).catch(
            nameErrorOnField,
          )
        ).result,
      ),
    onSuccess: invalidate,
  });
}

export function useDeleteOrganization() {
  const qc = useQueryClient();
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async (orgId: string) =>
      Organization.parse(
        (await apiCall('console.settings.organizations.delete', { params: { org_id: orgId } })).result,
      ),
    onSuccess: async (_org, orgId) => {
      // Whatever was cached of the organization is gone with it.
      qc.removeQueries({ queryKey: organizationKeys.detail(orgId) });
      qc.removeQueries({ predicate: (q) => q.queryKey.includes(orgId) });
      await invalidate();
    },
  });
}

/** Counting stops after this many pages per list (then the count reads "more than …"). */
const COUNT_MAX_PAGES = 25;
const COUNT_PAGE_SIZE = 200;

export interface Count {
  n: number;
  /** The list had more than `n` (counting stopped), or could not be read. */
  atLeast: boolean;
  /** Why the count is unknown (e.g. a missing permission), when it is. */
  error?: unknown;
}

/** Counts a cursor list: the page's `total` when the API gives it, else every page up to the cap. */
async function countList<T>(
  fetchPage: (after: string | undefined, signal?: AbortSignal) => Promise<Page<T>>,
  signal: AbortSignal,
): Promise<Count> {
  let n = 0;
  try {
    for await (const page of walkPages(fetchPage, { maxPages: COUNT_MAX_PAGES, signal })) {
      if (n === 0 && page.total != null) return { n: page.total, atLeast: false };
      n += page.items.length;
    }
    return { n, atLeast: false };
  } catch (error) {
    if (signal.aborted) throw error;
    return { n, atLeast: true, error };
  }
}

export interface DeletionCounts {
  sessions: Count;
  notes: Count;
  permissions: Count;
}

/** What deleting an organization takes with it: its sessions, knowledge notes and git permissions. */
export const deletionCountsQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: [...organizationKeys.detail(orgId), 'deletion-counts'] as const,
    queryFn: async ({ signal }): Promise<DeletionCounts> => {
      const params = { org_id: orgId };
      const [sessions, notes, permissions] = await Promise.all([
        countList(
          (after, s) =>
            apiCall('sessions.list', { params, query: { first: COUNT_PAGE_SIZE, after }, signal: s ?? signal }),
          signal,
        ),
        countList(
          (after, s) =>
            apiCall('knowledge.list', { params, query: { first: COUNT_PAGE_SIZE, after }, signal: s ?? signal }),
          signal,
        ),
        countList(
          (after, s) =>
            apiCall('gitPermissions.list', { params, query: { first: COUNT_PAGE_SIZE, after }, signal: s ?? signal }),
          signal,
        ),
      ]);
      return { sessions, notes, permissions };
    },
    staleTime: 0,
    gcTime: 0,
  });
