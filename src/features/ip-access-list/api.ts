/**
 * IP access list: query keys, query options and the one mutation. Everything goes through the console's safe
 * endpoints (`console.ipAccessList.*`): the list with its version token and the console's own addresses, the
 * checked apply (409 on a concurrent change, 422 on a lockout, or on a list no typed range confirms when the
 * console cannot tell its own address), the history and restore.
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

/**
 * The header carrying the range the admin typed as the one admitting the console (the console server's
 * `CONFIRMED_RANGE_HEADER`; a 422 `egress_unknown` names it again in `confirm_header`).
 */
export const CONFIRMED_RANGE_HEADER = 'console-confirmed-range';

interface ChangeCommon {
  override_enterprise_name?: string;
  /** The list's range the admin typed as admitting the console: sent in `CONFIRMED_RANGE_HEADER`. */
  confirmed_range?: string;
}

export type IpChange =
  | ({ action: 'apply'; ip_ranges: string[] } & ChangeCommon)
  | ({ action: 'restore'; revisionId: number; set: 'previous' | 'result' } & ChangeCommon);

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

/**
 * A 422 refusing a list because the console cannot tell the address it reaches the API from (no
 * CONSOLE_EGRESS_IPS with a real API or a shared store): the admin must type the list's range that admits it.
 * The detail also says when a range typed was not one of the list's.
 */
export interface EgressUnknownRefusal {
  detail: string;
  /** What the server says at the field (its `errors[]` entry for the header), if anything. */
  message: string | null;
}

/** A 422's body when it is an `egress_unknown` refusal. */
export function egressUnknownOf(error: unknown): EgressUnknownRefusal | null {
  if (!isApiError(error) || error.status !== 422) return null;
  if ((error.problem as { reason?: unknown }).reason !== 'egress_unknown') return null;
  const atHeader = error.fieldErrors.find((e) => e.loc[0] === 'header');
  return { detail: error.problem.detail ?? error.message, message: atHeader?.msg ?? null };
}

function send(change: IpChange, base: IpChangeBase): Promise<ConsoleIpApplyResult> {
  const common = {
    base_version: base.version,
    base: [...base.ip_ranges],
    override_enterprise_name: change.override_enterprise_name || undefined,
  };
  const confirmed = change.confirmed_range?.trim();
  const headers = confirmed ? { [CONFIRMED_RANGE_HEADER]: confirmed } : undefined;
  return change.action === 'apply'
    ? apiCall('console.ipAccessList.apply', { body: { ...common, ip_ranges: change.ip_ranges }, headers })
    : apiCall('console.ipAccessList.revisions.restore', {
        params: { revision_id: String(change.revisionId) },
        body: { ...common, set: change.set },
        headers,
      });
}

/**
 * Applies a change (a new list, or a revision's list) with the version it was made on. Rejects with the
 * API error; `conflictOf` / `lockoutOf` / `egressUnknownOf` read a 409 / lockout 422 / `egress_unknown` 422. Whatever happened, the list and its
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
