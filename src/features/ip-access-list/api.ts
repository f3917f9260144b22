/**
 * IP access list: query keys, query options and the one mutation. Everything goes through the console's safe
 * endpoints (`console.ipAccessList.*`): the list with its version token and the console's own addresses, the
 * checked apply (409 on a concurrent change, 422 on a lockout), the history and restore.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  IP_REVISIONS_PAGE_SIZE,
  IpAccessListConflict,
  IpAccessListLockout,
  type ConsoleIpApplyResult,
} from '@/api/console/ip-access-list';
import { apiCall } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export const ipAccessListKeys = {
  all: ['ip-access-list'] as const,
  current: () => [...ipAccessListKeys.all, 'current'] as const,
  revisions: () => [...ipAccessListKeys.all, 'revisions'] as const,
  revision: (id: number) => [...ipAccessListKeys.revisions(), 'detail', id] as const,
  /** The mutation key of apply and restore (not a query). */
  change: () => [...ipAccessListKeys.all, 'change'] as const,
};

export const ipAccessListQueryOptions = () =>
  queryOptions({
    queryKey: ipAccessListKeys.current(),
    queryFn: ({ signal }) => apiCall('console.ipAccessList.get', { signal }),
    staleTime: 0,
  });

export const ipRevisionsInfiniteQueryOptions = () =>
  cursorInfiniteQueryOptions({
    queryKey: ipAccessListKeys.revisions(),
    page: (after, signal) =>
      apiCall('console.ipAccessList.revisions.list', { query: { first: IP_REVISIONS_PAGE_SIZE, after }, signal }),
    staleTime: 0,
  });

/** The list a change was made on: its version and entries (so a 409 can say what changed since). */
export interface IpChangeBase {
  version: string;
  ip_ranges: readonly string[];
}

export type IpChange =
  | { action: 'apply'; ip_ranges: string[]; override_enterprise_name?: string }
  | { action: 'restore'; revisionId: number; set: 'previous' | 'result'; override_enterprise_name?: string };

/** A 409's body when it is the conflict the contract describes. */
export function conflictOf(error: unknown): IpAccessListConflict | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const r = IpAccessListConflict.safeParse(error.problem);
  return r.success ? r.data : null;
}

/** A 422's body when it is a lockout refusal. */
export function lockoutOf(error: unknown): IpAccessListLockout | null {
  if (!isApiError(error) || error.status !== 422) return null;
  const r = IpAccessListLockout.safeParse(error.problem);
  return r.success ? r.data : null;
}

function send(change: IpChange, base: IpChangeBase): Promise<ConsoleIpApplyResult> {
  const common = {
    base_version: base.version,
    base: [...base.ip_ranges],
    override_enterprise_name: change.override_enterprise_name || undefined,
  };
  return change.action === 'apply'
    ? apiCall('console.ipAccessList.apply', { body: { ...common, ip_ranges: change.ip_ranges } })
    : apiCall('console.ipAccessList.revisions.restore', {
        params: { revision_id: String(change.revisionId) },
        body: { ...common, set: change.set },
      });
}

/**
 * Applies a change (a new list, or a revision's list) with the version it was made on. Rejects with the
 * API error; `conflictOf` / `lockoutOf` read a 409 / lockout 422. Whatever happened, the list and its
 * history are read again.
 */
export function useIpAccessListChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ipAccessListKeys.change(),
    mutationFn: ({ change, base }: { change: IpChange; base: IpChangeBase }) => send(change, base),
    onSettled: () => qc.invalidateQueries({ queryKey: ipAccessListKeys.all }),
  });
}
