/**
 * Whether the console's credential holds a permission, when the API says (`GET /v3/self` answers the role's
 * permissions in the sandbox). Unknown → undefined: the action stays available and the API decides.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ANY_CREDENTIAL, type Permission, type RequiredPermission } from '@/api/permissions';
import { apiCall } from './api-client';

/** Who the console's credential is (`GET /v3/self`), when the API has it. */
export const selfQueryOptions = () =>
  queryOptions({
    queryKey: ['self'] as const,
    queryFn: ({ signal }) => apiCall('self.get', { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useHasPermission(permission: RequiredPermission): boolean | undefined {
  const self = useQuery(selfQueryOptions());
  const list = self.data?.permissions;
  // Any credential the API accepts may call an `AnyCredential` operation.
  if (permission === ANY_CREDENTIAL) return self.data ? true : undefined;
  return list ? list.includes(permission) : undefined;
}

export function missingPermissionTitle(permission: Permission, has: boolean | undefined): string | undefined {
  return has === false
    ? `Requires the ${permission} permission, which the console's credential does not hold`
    : undefined;
}
