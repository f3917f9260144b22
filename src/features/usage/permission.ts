/**
 * Missing permissions on the usage screens. Several cards read operations under one permission (every compute-unit
 * figure needs `ManageBilling`): the screen states each missing permission once, at the top, and each card then
 * says in one line what it does not show, instead of repeating the same panel.
 */
import { isApiError } from '@/lib/api-error';

/** The permission a 403 names (or a generic name), or undefined for any other error. */
export function missingPermissionOf(error: unknown): string | undefined {
  if (!isApiError(error) || error.status !== 403) return undefined;
  return error.missingPermission ?? 'a permission';
}

/** The distinct missing permissions among `errors`, in order. */
export function missingPermissions(errors: readonly unknown[]): string[] {
  return [...new Set(errors.map(missingPermissionOf).filter((p): p is string => p !== undefined))];
}
