/** The typed error of every API call the browser makes: a problem body, or a network failure. */
import type { FieldError, ProblemDetail } from '@/api/problem';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemDetail,
    /** Seconds to wait, from `Retry-After` (429, 503). */
    readonly retryAfter?: number,
    readonly operationId?: string,
  ) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
  }

  /** 0 when the request never got an answer (network down, console server unreachable). */
  get isNetwork(): boolean {
    return this.status === 0;
  }

  get fieldErrors(): FieldError[] {
    return this.problem.errors ?? [];
  }

  /** The permission a 403 names, when the body says which. */
  get missingPermission(): string | undefined {
    const p = (this.problem as { permission?: unknown }).permission;
    if (typeof p === 'string') return p;
    return /\b((?:Manage|View|Use|Index)[A-Z]\w+)\b/.exec(this.problem.detail ?? '')?.[1];
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** A one-line, human message for any thrown value; never `[object Object]`. */
export function errorMessage(e: unknown): string {
  if (e instanceof ApiError) return e.problem.detail || e.problem.title;
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'string') return e;
  return 'Something went wrong';
}
