/**
 * The console server's own client of the API, for console endpoints that compose several calls (e.g. the
 * safe git-permission replace). Calls operations by id from the contract, with the configured credential.
 */
import { buildPath, type OperationId, type Operations, getOperation } from '../../api/operations';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf } from '../../api/operations/define';
import { nextCursor, type Page } from '../../api/page';
import { ProblemDetail, problem } from '../../api/problem';

export interface UpstreamTarget {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** A problem the upstream answered (or a 502/504 standing in for one that could not be reached). */
export class UpstreamProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: ProblemDetail,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.detail ?? body.title);
  }
}

export interface CallArgs<I extends OperationId> {
  params?: ParamsOf<Operations[I]>;
  query?: QueryOf<Operations[I]>;
  body?: BodyOf<Operations[I]>;
  signal?: AbortSignal;
}

export interface UpstreamClient {
  call<I extends OperationId>(id: I, args?: CallArgs<I>): Promise<ResponseOf<Operations[I]>>;
  /** Reads every page of a paginated list. */
  all<I extends OperationId>(id: I, args?: CallArgs<I>): Promise<unknown[]>;
}

export function createUpstreamClient(target: UpstreamTarget): UpstreamClient {
  const base = target.baseUrl.replace(/\/+$/, '');
  async function call<I extends OperationId>(id: I, args: CallArgs<I> = {}) {
    const op = getOperation(id);
    const url = new URL(base + buildPath(op.path, args.params as Record<string, string> | undefined));
    for (const [k, v] of Object.entries((args.query ?? {}) as Record<string, unknown>)) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) v.forEach((x) => url.searchParams.append(k, String(x)));
      else url.searchParams.set(k, String(v));
    }
    const signal = args.signal
      ? AbortSignal.any([args.signal, AbortSignal.timeout(target.timeoutMs)])
      : AbortSignal.timeout(target.timeoutMs);
    let res: Response;
    try {
      res = await fetch(url, {
        method: op.method,
        headers: {
          authorization: `Bearer ${target.apiKey}`,
          accept: 'application/json',
          ...(args.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: args.body !== undefined ? JSON.stringify(args.body) : undefined,
        signal,
      });
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      const status = timedOut ? 504 : 502;
      throw new UpstreamProblem(
        status,
        problem(
          status,
          timedOut ? 'The Agent Platform API did not answer in time' : 'The Agent Platform API could not be reached',
        ),
      );
    }
    const text = await res.text();
    if (!res.ok) {
      let body: ProblemDetail;
      try {
        body = ProblemDetail.parse(JSON.parse(text));
      } catch {
        body = problem(res.status, `The Agent Platform API answered ${res.status} without a problem body`);
      }
      const headers: Record<string, string> = {};
      const retryAfter = res.headers.get('retry-after');
      if (retryAfter) headers['retry-after'] = retryAfter;
      throw new UpstreamProblem(res.status, body, headers);
    }
    if (res.status === 204 || text.length === 0) return undefined as ResponseOf<Operations[I]>;
    const json: unknown = JSON.parse(text);
    return (op.response ? op.response.parse(json) : json) as ResponseOf<Operations[I]>;
  }
  return {
    call,
    async all(id, args = {}) {
      const items: unknown[] = [];
      let after: string | undefined;
      for (;;) {
        const query = { ...(args.query as object), first: 200, ...(after ? { after } : {}) };
        const page = (await call(id, { ...args, query } as never)) as unknown as Page<unknown>;
        items.push(...page.items);
        after = nextCursor(page);
        if (!after) return items;
      }
    },
  };
}
