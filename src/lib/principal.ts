/**
 * What this console user may do, as two checks together: whether the console's credential holds a permission,
 * when the API says (`GET /v3/self` answers the role's permissions in the sandbox), and whether the person's
 * console roles allow it in the organization on screen (`GET /console/session`, from the console's policy).
 * Unknown → undefined: the action stays available and the server decides. Every screen that hides or disables
 * what the credential cannot do does the same for the person, with the reason in text (`missingPermissionTitle`).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import { ANY_CREDENTIAL, type Permission, type RequiredPermission } from '@/api/permissions';
import type { ConsoleSession } from '@/api/console/session';
import { apiCall } from './api-client';
import { consoleSessionQueryOptions } from './console-session';

/** Who the console's credential is (`GET /v3/self`), when the API has it. */
export const selfQueryOptions = () =>
  queryOptions({
    queryKey: ['self'] as const,
    queryFn: ({ signal }) => apiCall('self.get', { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });

/**
 * Whether the person's console roles allow `permission` in `orgId` (null: enterprise-wide); undefined when the
 * console does not say (an older server, or the session not loaded yet).
 */
export function roleAllows(
  session: Pick<ConsoleSession, 'permissions' | 'roles'> | undefined,
  permission: RequiredPermission,
  orgId: string | null,
): boolean | undefined {
  const scope = session?.permissions;
  if (!scope) return undefined;
  if (permission === ANY_CREDENTIAL) return (session.roles?.length ?? 1) > 0;
  const where = scope[permission];
  if (where === undefined) return false;
  if (where === '*') return true;
  return orgId !== null && where.includes(orgId);
}

/** Why the person's console roles refuse `permission` where it is needed (`orgId` null: enterprise-wide). */
export function roleRefusalText(permission: RequiredPermission, orgId: string | null): string {
  return `Your console role does not allow ${permission} ${orgId ? 'in this organization' : 'across the enterprise'} (the console's policy refuses it)`;
}

/** Why the console's credential refuses `permission`. */
export const credentialRefusalText = (permission: RequiredPermission) =>
  `Requires the ${permission} permission, which the console's credential does not hold`;

/** Whether an action may be taken, and when not, who refuses it and why in words. */
export interface PermissionVerdict {
  /** undefined while neither the credential nor the person's roles are known: the server decides. */
  allowed: boolean | undefined;
  refusedBy?: 'role' | 'credential';
  reason?: string;
}

/**
 * Both checks together: the person's console roles first (a refusal there holds whatever the credential may do),
 * then the credential's permissions (`GET /v3/self`, when the API says).
 */
export function permissionVerdict(
  self: { permissions?: readonly string[] | null } | undefined,
  session: Pick<ConsoleSession, 'permissions' | 'roles'> | undefined,
  permission: RequiredPermission,
  orgId: string | null,
): PermissionVerdict {
  if (roleAllows(session, permission, orgId) === false) {
    return { allowed: false, refusedBy: 'role', reason: roleRefusalText(permission, orgId) };
  }
  // Any credential the API accepts may call an `AnyCredential` operation.
  if (permission === ANY_CREDENTIAL) return { allowed: self ? true : undefined };
  const list = self?.permissions;
  if (!list) return { allowed: undefined };
  return list.includes(permission)
    ? { allowed: true }
    : { allowed: false, refusedBy: 'credential', reason: credentialRefusalText(permission) };
}

/**
 * The check for many actions at once (a list of screens, a menu): `check(permission, orgId)` says whether the
 * person and the credential allow it there, and why not.
 */
export function usePermissionCheck(): (permission: RequiredPermission, orgId: string | null) => PermissionVerdict {
  const self = useQuery(selfQueryOptions());
  const session = useQuery(consoleSessionQueryOptions());
  return useCallback(
    (permission, orgId) => permissionVerdict(self.data, session.data, permission, orgId),
    [self.data, session.data],
  );
}

/**
 * Why the person's roles refused a permission, by permission, as the last check rendered found it: read by
 * `missingPermissionTitle`, which callers give only the permission and the answer.
 */
const refusedByRole = new Map<string, string | null>();

/**
 * True when both the credential and the person's console roles allow `permission` (in `orgId`, else the
 * organization of the page's URL); false when either refuses; undefined while neither is known.
 */
export function useHasPermission(permission: RequiredPermission, orgId?: string | null): boolean | undefined {
  const self = useQuery(selfQueryOptions());
  const session = useQuery(consoleSessionQueryOptions());
  const params = useParams({ strict: false }) as { orgId?: string };
  const org = orgId !== undefined ? orgId : (params.orgId ?? null);
  const verdict = permissionVerdict(self.data, session.data, permission, org);
  if (verdict.refusedBy === 'role') refusedByRole.set(permission, org);
  else refusedByRole.delete(permission);
  return verdict.allowed;
}

export function missingPermissionTitle(permission: Permission, has: boolean | undefined): string | undefined {
  if (has !== false) return undefined;
  if (refusedByRole.has(permission)) return roleRefusalText(permission, refusedByRole.get(permission) ?? null);
  return credentialRefusalText(permission);
}
