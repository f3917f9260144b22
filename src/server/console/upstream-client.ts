/**
 * The console server's own client of the API, for console endpoints that compose several calls (e.g. the
 * safe git-permission replace). Calls operations by id from the contract, with the configured credential.
 *
 * Bounded in every way a hostile or broken upstream could exploit: each answer's size, the pages and items of
 * a list read whole, a cursor that repeats, the time a call and a whole read may take, and the browser going
 * away (the caller's signal). It never follows a redirect: the credential goes to the configured origin only.
 * What the upstream says in a problem body is redacted before it travels on.
 */
import { buildPath, type OperationId, type Operations, getOperation } from '../../api/operations';
import type { BodyOf, OperationDef, ParamsOf, QueryOf, ResponseOf } from '../../api/operations/define';
import { PAGE_SIZE } from '../../api/conventions';
import { PagingLimitError, readAllPages, type Page } from '../../api/page';
import { ProblemDetail, problem, UNREADABLE_ANSWER_TYPE } from '../../api/problem';
import { BodyTooLarge, readTextCapped } from '../../node/read-body';
import type { Redactor } from '../redact';

export interface UpstreamTarget {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  redactor: Redactor;
  limits?: Partial<UpstreamLimits>;
}

export interface UpstreamLimits {
  /** Largest answer read, in bytes. */
  maxAnswerBytes: number;
  /** Most pages one `all` reads. */
  maxPages: number;
  /** Most items one `all` collects. */
  maxItems: number;
  /** Longest one `all` may take, in milliseconds, whatever the number of pages. */
  allDeadlineMs: number;
}

export const DEFAULT_UPSTREAM_LIMITS: UpstreamLimits = {
  maxAnswerBytes: 8 * 1_048_576,
  maxPages: 100,
  maxItems: 20_000,
  allDeadlineMs: 60_000,
};

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

export interface AllArgs<I extends OperationId> extends CallArgs<I> {
  /** Most items wanted; more is an error (a set larger than the console handles). */
  maxItems?: number;
}

export interface UpstreamClient {
  call<I extends OperationId>(id: I, args?: CallArgs<I>): Promise<ResponseOf<Operations[I]>>;
  /** Reads every page of a paginated list, within the limits. */
  all<I extends OperationId>(id: I, args?: AllArgs<I>): Promise<unknown[]>;
}

const badGateway = (detail: string) => new UpstreamProblem(502, problem(502, detail));
/** An answer the console could not read: typed, so the browser neither takes it for an outage nor retries it. */
const unreadable = (detail: string) =>
  new UpstreamProblem(502, problem(502, detail, { type: UNREADABLE_ANSWER_TYPE, title: 'Unreadable answer' }));

/** Reads an answer up to `max` bytes; past it, stops reading and answers 502. */
async function readCapped(res: Response, max: number): Promise<string> {
  try {
    return await readTextCapped(res, max);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      throw badGateway(`The Agent Platform API answered with more than ${max} bytes; the console reads at most that`);
    }
    throw err;
  }
}

export function createUpstreamClient(target: UpstreamTarget): UpstreamClient {
  const base = target.baseUrl.replace(/\/+$/, '');
  const limits = { ...DEFAULT_UPSTREAM_LIMITS, ...target.limits };
  const { redactor } = target;

  /** The upstream's problem body with every copy of the credential removed. */
  function cleanProblem(body: ProblemDetail): ProblemDetail {
    return JSON.parse(redactor.redact(JSON.stringify(body))) as ProblemDetail;
  }

  async function call<I extends OperationId>(id: I, args: CallArgs<I> = {}) {
    const op = getOperation(id);
    const url = new URL(base + buildPath(op.path, args.params as Record<string, string> | undefined));
    for (const [k, v] of Object.entries((args.query ?? {}) as Record<string, unknown>)) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) v.forEach((x) => url.searchParams.append(k, String(x)));
      else url.searchParams.set(k, String(v));
    }
    const timeout = AbortSignal.timeout(target.timeoutMs);
    const signal = args.signal ? AbortSignal.any([args.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(url, {
        method: op.method,
        headers: {
          authorization: `Bearer ${target.apiKey}`,
          accept: 'application/json',
          'accept-encoding': 'identity',
          ...(args.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: args.body !== undefined ? JSON.stringify(args.body) : undefined,
        signal,
        // Never follow: a redirect elsewhere would carry the credential, or bring back another site's answer.
        redirect: 'manual',
      });
    } catch (err) {
      if (args.signal?.aborted) throw args.signal.reason ?? err;
      const timedOut = timeout.aborted;
      const status = timedOut ? 504 : 502;
      throw new UpstreamProblem(
        status,
        problem(
          status,
          timedOut ? 'The Agent Platform API did not answer in time' : 'The Agent Platform API could not be reached',
        ),
      );
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      let where = 'elsewhere';
      try {
        const to = new URL(res.headers.get('location') ?? '', url);
        where = to.origin === url.origin ? 'another path' : `another origin (${to.origin.slice(0, 100)})`;
      } catch {
        // no usable Location
      }
      throw badGateway(
        `The Agent Platform API answered ${res.status}, a redirect to ${redactor.redact(where)}; the console does not follow redirects`,
      );
    }
    let text: string;
    try {
      text = await readCapped(res, limits.maxAnswerBytes);
    } catch (err) {
      if (err instanceof UpstreamProblem) throw err;
      if (args.signal?.aborted) throw args.signal.reason ?? err;
      throw timeout.aborted
        ? new UpstreamProblem(504, problem(504, 'The Agent Platform API did not finish its answer in time'))
        : badGateway('The Agent Platform API closed the connection mid-answer');
    }
    if (!res.ok) {
      let body: ProblemDetail;
      try {
        body = cleanProblem(ProblemDetail.parse(JSON.parse(text)));
      } catch {
        body = problem(res.status, `The Agent Platform API answered ${res.status} without a problem body`);
      }
      const headers: Record<string, string> = {};
      const retryAfter = res.headers.get('retry-after');
      if (retryAfter && /^\d{1,6}$/.test(retryAfter.trim())) headers['retry-after'] = retryAfter.trim();
      throw new UpstreamProblem(res.status, body, headers);
    }
    if (res.status === 204 || text.length === 0) return undefined as ResponseOf<Operations[I]>;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // Never echo the body: it may hold anything.
      throw unreadable(`The Agent Platform API answered ${op.id} with a body that is not JSON`);
    }
    // Widened: operations answering 204 have no response schema.
    const schema = (op as OperationDef).response;
    if (!schema) return json as ResponseOf<Operations[I]>;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const where = parsed.error.issues
        .slice(0, 3)
        .map((i) => i.path.map(String).join('.') || '(root)')
        .join(', ');
      throw unreadable(
        `The Agent Platform API answered ${op.id} with a body that does not match the contract (${where})`,
      );
    }
    return parsed.data as ResponseOf<Operations[I]>;
  }

  return {
    call,
    async all(id, args = {}) {
      const maxItems = Math.min(args.maxItems ?? limits.maxItems, limits.maxItems);
      const deadline = AbortSignal.timeout(limits.allDeadlineMs);
      const signal = args.signal ? AbortSignal.any([args.signal, deadline]) : deadline;
      // The list's own query, with the page size and cursor every paginated operation takes.
      const pageQuery = (after: string | undefined): CallArgs<typeof id>['query'] =>
        Object.assign({}, args.query, { first: PAGE_SIZE.max }, after ? { after } : {});
      const fetchPage = async (after: string | undefined) =>
        (await call(id, { ...args, query: pageQuery(after), signal })) as Page<unknown>;
      try {
        return await readAllPages(fetchPage, { maxPages: limits.maxPages, maxItems, signal, what: `The API's ${id}` });
      } catch (err) {
        if (err instanceof PagingLimitError) {
          const why = {
            pages: `The Agent Platform API still had more pages of ${id} after ${limits.maxPages}; the console reads at most that many`,
            items: `The Agent Platform API answered more than ${maxItems} items for ${id}; the console handles at most that many`,
            repeated_cursor: `The Agent Platform API repeated a cursor while paging ${id}; stopped reading`,
          }[err.reason];
          throw badGateway(why);
        }
        if (deadline.aborted && !args.signal?.aborted) {
          throw new UpstreamProblem(
            504,
            problem(504, `Reading every page of ${id} took longer than ${limits.allDeadlineMs} ms`),
          );
        }
        throw err;
      }
    },
  };
}
