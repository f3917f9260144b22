/** TanStack Query defaults: which failures are retried, and how. */
import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';
import { isUnreadableAnswer } from './unreadable-answer';

/**
 * Retry only what may succeed on its own: network failures and 5xx. 4xx answers are final (429 is waited out in
 * the client), and so is a 502 for an answer the console could not read: the API is up and would answer the same.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 3) return false;
  if (!isApiError(error)) return false;
  if (isUnreadableAnswer(error.status, error.problem)) return false;
  return error.isNetwork || error.status >= 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: shouldRetry,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 15_000),
        refetchOnWindowFocus: true,
      },
      mutations: {
        // A mutation the upstream may already have applied is never repeated automatically.
        retry: false,
      },
    },
  });
}
