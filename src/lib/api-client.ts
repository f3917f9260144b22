/**
 * The browser's API client: calls operations of the contract by id through the console's same-origin proxy
 * (`/api/...`). The credential is added by the console server; the browser never holds it.
 *
 * Where the spec and the upstream name an operation's path differently, the client calls the spec's path
 * first; when that answers 404/405 it tries the operation's alternates and remembers, per upstream, the one
 * that answered (src/lib/path-chooser.ts; the alternates and the memory, src/lib/served-paths.ts, load only
 * then, so the first screen does not carry them).
 */
import { SIGN_IN_REQUIRED_TYPE } from '@/api/console/sign-in';
import { ENDPOINTS } from '@/api/endpoints.gen';
import type { AllOperations, AnyOperationId } from '@/api/operation-ids';
import { buildPath, type BodyOf, type ParamsOf, type QueryOf, type ResponseOf } from '@/api/operations/define';
import { problem, type ProblemDetail } from '@/api/problem';
import { ApiError } from './api-error';
import { takeFirstAnswer } from './first-answers';
import { offlineSignal, rateLimitSignal, unauthorizedSignal } from './api-events';
import { isUnreadableAnswer } from './unreadable-answer';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
/** How many times an idempotent call waits out a 429 before giving up. */
export const MAX_RATE_LIMIT_RETRIES = 4;

export interface CallOptions<I extends AnyOperationId> {
  params?: ParamsOf<AllOperations[I]>;
  query?: QueryOf<AllOperations[I]>;
  body?: BodyOf<AllOperations[I]>;
  signal?: AbortSignal;
  /** Extra request headers (a confirmation an endpoint reads from a header), sent on every retry too. */
  headers?: Record<string, string>;
}

export function toSearch(query: Record<string, unknown> | undefined): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => sp.append(k, String(x)));
    else sp.set(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export { SIGN_IN_REQUIRED_TYPE };
const SIGN_IN_PATH = '/console/sign-in';
let leavingForSignIn = false;

export function isSignInRequired(body: ProblemDetail): boolean {
  return body.type === SIGN_IN_REQUIRED_TYPE || (body as { sign_in?: unknown }).sign_in === SIGN_IN_PATH;
}

/** A full navigation to the sign-in page (always this fixed same-origin path, whatever the body says). */
function goToSignIn(): void {
  if (leavingForSignIn || typeof window === 'undefined') return;
  leavingForSignIn = true;
  window.location.assign(SIGN_IN_PATH);
}

/** Reads an error response into a problem body, whatever the server sent. */
export async function readProblem(res: Response): Promise<ProblemDetail> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<ProblemDetail> | null;
    // A structural check (not the zod schema), so the first screen does not load zod.
    if (body && typeof body === 'object' && typeof body.status === 'number' && typeof body.title === 'string') {
      return {
        ...body,
        type: typeof body.type === 'string' ? body.type : 'about:blank',
        detail: typeof body.detail === 'string' ? body.detail : null,
        errors: Array.isArray(body.errors)
          ? body.errors.filter((e) => e && Array.isArray(e.loc) && typeof e.msg === 'string')
          : null,
      } as ProblemDetail;
    }
    if (body && typeof body === 'object' && typeof body.detail === 'string') return problem(res.status, body.detail);
  } catch {
    // not JSON
  }
  return problem(res.status, `The server answered ${res.status} ${res.statusText || ''}`.trim());
}

/** Low-level: one request to a same-origin URL, errors turned into ApiError, 429 waited out when safe. */
export async function request<T>(
  method: string,
  url: string,
  opts: { body?: unknown; signal?: AbortSignal; operationId?: string; headers?: Record<string, string> } = {},
): Promise<T> {
  const operationId = opts.operationId ?? `${method} ${url}`;
  if (method === 'GET') {
    const embedded = takeFirstAnswer(url);
    if (embedded !== undefined) return embedded as T;
  }
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
        signal: opts.signal,
        credentials: 'same-origin',
      });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      offlineSignal.set(true);
      throw new ApiError(
        0,
        problem(0, 'The console server could not be reached. Check that it is running, then retry.', {
          title: 'Network error',
        }),
        undefined,
        operationId,
      );
    }
    if (offlineSignal.get() && res.status < 502) offlineSignal.set(false);
    if (res.ok) {
      if (unauthorizedSignal.get() !== null && url.startsWith('/api/')) unauthorizedSignal.set(null);
      if (res.status === 204) return undefined as T;
      const text = await res.text();
      if (!text) return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ApiError(502, problem(502, 'The API answered with a body that is not JSON'), undefined, operationId);
      }
    }
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    const body = await readProblem(res);
    if (res.status === 401) {
      if (isSignInRequired(body)) goToSignIn();
      else unauthorizedSignal.set(body.detail ?? body.title);
    }
    // An answer the console could not read comes from a reachable API: not an outage to probe for.
    if ((res.status === 502 || res.status === 503 || res.status === 504) && !isUnreadableAnswer(res.status, body))
      offlineSignal.set(true);
    if (res.status === 429 && IDEMPOTENT.has(method) && attempt < MAX_RATE_LIMIT_RETRIES) {
      const waitMs = Math.min((retryAfter ?? 2 ** attempt) * 1000, 120_000);
      const entry = { operationId, until: Date.now() + waitMs };
      rateLimitSignal.set([...rateLimitSignal.get(), entry]);
      try {
        await sleep(waitMs, opts.signal);
      } finally {
        rateLimitSignal.set(rateLimitSignal.get().filter((e) => e !== entry));
      }
      continue;
    }
    throw new ApiError(res.status, body, retryAfter, operationId);
  }
}

/** Where the path choices learned per upstream are kept (src/lib/served-paths.ts). */
export const SERVED_PATHS_KEY = 'console-served-paths';

/** Routes an API call to the path its upstream serves: src/lib/path-chooser.ts, installed by console-config.ts. */
export type PathChooser = (id: string, path: string, send: (template: string) => Promise<unknown>) => Promise<unknown>;
let choosePath: PathChooser | undefined;

/**
 * Installs the path chooser. It is installed from the first screen's own chunk rather than imported here, so
 * that its lazy import of the alternates stays there and this chunk carries no dynamic-import machinery.
 */
export function setPathChooser(chooser: PathChooser | undefined): void {
  choosePath = chooser;
}

/**
 * Calls one operation by id: an API operation through the console's proxy (`/api/v3/...`), or one of the
 * console server's own (`/console/...`), from the same generated id → method/path map.
 */
export function apiCall<I extends AnyOperationId>(
  id: I,
  opts: CallOptions<I> = {},
): Promise<ResponseOf<AllOperations[I]>> {
  const [method, path] = ENDPOINTS[id];
  const send = (template: string) =>
    request<ResponseOf<AllOperations[I]>>(
      method,
      `${template.startsWith('/console/') ? '' : '/api'}${buildPath(template, opts.params as Record<string, string> | undefined)}${toSearch(
        opts.query as Record<string, unknown> | undefined,
      )}`,
      { body: opts.body, signal: opts.signal, operationId: id, headers: opts.headers },
    );
  // The console's own endpoints have one path; an API operation may be served at one of its alternates.
  return (choosePath && !path.startsWith('/console/') ? choosePath(id, path, send) : send(path)) as Promise<
    ResponseOf<AllOperations[I]>
  >;
}
