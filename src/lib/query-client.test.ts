/** Which failures the app's queries retry: the rule every screen shares. */
import { describe, expect, it } from 'vitest';
import { problem, UNREADABLE_ANSWER_TYPE } from '@/api/problem';
import { ApiError } from './api-error';
import { shouldRetry } from './query-client';

describe('shouldRetry', () => {
  it('retries network failures and 5xx up to three times, never a 4xx', () => {
    expect(shouldRetry(0, new ApiError(0, problem(0, 'down')))).toBe(true);
    expect(shouldRetry(0, new ApiError(503, problem(503, 'down')))).toBe(true);
    expect(shouldRetry(3, new ApiError(503, problem(503, 'down')))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, problem(404, 'gone')))).toBe(false);
  });

  it('never retries an answer the console could not read: the API is up and would answer the same', () => {
    const typed = new ApiError(502, problem(502, 'unreadable', { type: UNREADABLE_ANSWER_TYPE }));
    expect(shouldRetry(0, typed)).toBe(false);
    expect(shouldRetry(0, new ApiError(502, problem(502, 'The upstream reset the connection')))).toBe(true);
  });
});
