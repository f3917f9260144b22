/**
 * Organization secrets: query keys, the cursor list and the mutations. A value travels once, in the create
 * body, and is never cached: the answer (a record without value) only makes the list read again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSecretBody } from '@/api/operations/secrets';
import { problem } from '@/api/problem';
import { apiCall } from '@/lib/api-client';
import { ApiError, isApiError } from '@/lib/api-error';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

/** Rows per page (the API's maximum). */
export const SECRETS_PAGE_SIZE = 200;

export const secretKeys = {
  all: ['secrets'] as const,
  lists: () => [...secretKeys.all, 'list'] as const,
  list: (orgId: string) => [...secretKeys.lists(), orgId] as const,
};

export const secretsInfiniteQueryOptions = (orgId: string) =>
  cursorInfiniteQueryOptions({
    queryKey: secretKeys.list(orgId),
    page: (after, signal) =>
      apiCall('secrets.list', { params: { org_id: orgId }, query: { first: SECRETS_PAGE_SIZE, after }, signal }),
    staleTime: 30_000,
  });

/**
 * A 409 (the key is taken) as a field error on `key`, where the admin fixes it: the API's 409 names no field,
 * so it is re-read here as a 422 on `body.key` for the form kit to place.
 */
export function duplicateKeyOnField(error: unknown): unknown {
  if (!isApiError(error) || error.status !== 409) return error;
  const msg = error.problem.detail ?? 'A secret with this key already exists';
  return new ApiError(
    422,
    problem(422, msg, { errors: [{ loc: ['body', 'key'], msg, type: 'duplicate' }] }),
    undefined,
    error.operationId,
  );
}

export function useCreateSecret(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateSecretBody) => {
      try {
        return await apiCall('secrets.create', { params: { org_id: orgId }, body });
      } catch (err) {
        throw duplicateKeyOnField(err);
      }
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: secretKeys.list(orgId) }),
  });
}

export function useDeleteSecret(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (secretId: string) => apiCall('secrets.delete', { params: { org_id: orgId, secret_id: secretId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: secretKeys.list(orgId) }),
  });
}
