/**
 * The one mount of an operation table on a Hono app, shared by the sandbox (the API's table) and the console's
 * own endpoints (`src/api/console`): routing at every path an operation is served at, 405 with `Allow` for a
 * method a path does not serve, path (404), query and body validation (422 with bounded `errors`), the single
 * typed call of the operation's handler, and problem bodies from the one problem writer. Each product keeps only
 * its own guards (the sandbox's credential, rate limit and permission; the console's sign-in is in front of it)
 * and its own way of writing an answer.
 *
 * An empty body is an absent body, for both: validated as `undefined`, so an operation whose body is required
 * answers 422 "the request body is missing" (loc `body`, type `missing`, as the API's validation reports a
 * missing field) rather than reading nothing as `{}` and applying defaults the caller never sent.
 */
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { checkJsonBounds, DEFAULT_JSON_BOUNDS, type JsonBounds } from '../api/bounds';
import { capFieldErrors, issuesToFieldErrors, type FieldError } from '../api/problem';
import { HttpProblem, summarizeFieldErrors } from './problem-writer';
import { BodyTooLarge, readTextCapped } from './read-body';

/** What the mount reads of an operation: the API's table and the console's share it. */
export interface MountedOperation {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
}

/** A request that passed the product's guards and the table's validation. */
export interface ValidRequest<Guarded> {
  params: unknown;
  query: unknown;
  body: unknown;
  url: URL;
  /** What the product's guard answered (the sandbox's principal). */
  guarded: Guarded;
  c: Context;
}

/**
 * An operation's handler as the mount calls it. Each product's handler map is typed per operation from the very
 * zod schemas the mount validates with, so the input it is called with is the one its type names.
 */
export type MountedHandler<Guarded> = (request: ValidRequest<Guarded>) => unknown;

export interface TableMountOptions<Op extends MountedOperation, Guarded, At> {
  operations: readonly Op[];
  /** Who serves the table, for the start-up error of a missing handler ("the sandbox"). */
  server: string;
  /** Each operation's handler, called with the validated request; undefined when the product has none. */
  handlerOf(op: Op): MountedHandler<Guarded> | undefined;
  /** The paths an operation is served at, with what the product needs to know there. */
  servedAt(op: Op): ReadonlyArray<{ path: string; at: At }>;
  /** Largest accepted JSON body, in bytes (413 beyond). */
  maxBodyBytes: number;
  jsonBounds?: JsonBounds;
  /** The product's own guards, before any validation: a Response ends the request there (401, 403, 429). */
  guard(c: Context, op: Op): Response | { guarded: Guarded };
  /** Further query errors, reported together with the schema's (the sandbox's malformed cursor). */
  queryErrors?(op: Op, raw: Record<string, string | string[]>): FieldError[];
  /** A check of the product's on valid path parameters (the sandbox: the organization exists); throws a problem. */
  checkParams?(op: Op, params: unknown): void;
  /** Writes what the handler answered. */
  answer(c: Context, op: Op, result: unknown, at: At): Response;
  /** Writes what was thrown on the way (an HttpProblem, or the handler's own error). */
  onError(c: Context, op: Op, err: unknown): Response | Promise<Response>;
  /** A problem answer at this request's path (the 405). */
  problem(c: Context, status: number, detail: string, headers: Record<string, string>): Response;
}

export const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Query parameters as zod sees them: one value → string, repeated keys → array. */
export function readQuery(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

/** Validates a value against its schema: 404 for the path, 422 with bounded `errors` for the query and body. */
export function validate(
  where: 'query' | 'body' | 'path',
  schema: z.ZodType,
  value: unknown,
  extraErrors: FieldError[] = [],
): unknown {
  const r = schema.safeParse(value);
  if (r.success && extraErrors.length === 0) return r.data;
  const errors = capFieldErrors(
    [...(r.success ? [] : issuesToFieldErrors(where, r.error.issues)), ...extraErrors],
    where,
  );
  throw new HttpProblem(where === 'path' ? 404 : 422, summarizeFieldErrors(errors), where === 'path' ? {} : { errors });
}

export const MISSING_BODY_ERROR: FieldError = {
  loc: ['body'],
  msg: 'The request body is missing: send the JSON object this operation takes',
  type: 'missing',
};

/**
 * Reads a JSON body within its bounds: at most `maxBytes` (413), `application/json` when not empty (415), valid
 * JSON (422) within the JSON bounds (depth, size, array length). Empty: undefined.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  bounds: JsonBounds = DEFAULT_JSON_BOUNDS,
): Promise<unknown> {
  let text: string;
  try {
    text = await readTextCapped(request, maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new HttpProblem(413, err.message);
    throw err;
  }
  if (text.length === 0) return undefined;
  if (!/^application\/(.+\+)?json\b/i.test(request.headers.get('content-type') ?? '')) {
    throw new HttpProblem(415, 'Request bodies must be sent as Content-Type: application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpProblem(422, 'The request body is not valid JSON', {
      errors: [{ loc: ['body'], msg: 'The request body is not valid JSON', type: 'json_invalid' }],
    });
  }
  const outOfBounds = checkJsonBounds(value, 'body', bounds);
  if (outOfBounds) throw new HttpProblem(422, outOfBounds.msg, { errors: [outOfBounds] });
  return value;
}

/** The body an operation takes, validated; an absent one is refused unless the schema allows none. */
async function readValidBody(op: MountedOperation, request: Request, maxBytes: number, bounds?: JsonBounds) {
  if (!op.body) return undefined;
  const raw = await readJsonBody(request, maxBytes, bounds);
  if (raw === undefined && !op.body.safeParse(undefined).success) {
    throw new HttpProblem(422, MISSING_BODY_ERROR.msg, { errors: [MISSING_BODY_ERROR] });
  }
  return validate('body', op.body, raw);
}

/** The route of one operation at one path: guards, validation, the handler call, the answer. */
function route<Op extends MountedOperation, Guarded, At>(
  opts: TableMountOptions<Op, Guarded, At>,
  op: Op,
  handler: MountedHandler<Guarded>,
  at: At,
) {
  return async (c: Context): Promise<Response> => {
    const gate = opts.guard(c, op);
    if (gate instanceof Response) return gate;
    try {
      const params = op.params ? validate('path', op.params, c.req.param()) : {};
      opts.checkParams?.(op, params);
      const url = new URL(c.req.url);
      const rawQuery = readQuery(url);
      const extra = opts.queryErrors?.(op, rawQuery) ?? [];
      const query = op.query ? validate('query', op.query, rawQuery, extra) : {};
      const body = await readValidBody(op, c.req.raw, opts.maxBodyBytes, opts.jsonBounds);
      const result = await handler({ params, query, body, url, guarded: gate.guarded, c });
      return opts.answer(c, op, result, at);
    } catch (err) {
      return opts.onError(c, op, err);
    }
  };
}

/** Mounts every operation of the table on `app`, and a 405 with `Allow` for every other method on its paths. */
export function mountTable<Op extends MountedOperation, Guarded, At>(
  app: Hono,
  opts: TableMountOptions<Op, Guarded, At>,
): void {
  const methodsByPath = new Map<string, string[]>();
  for (const op of opts.operations) {
    const handler = opts.handlerOf(op);
    if (!handler) throw new Error(`${opts.server} has no handler for operation ${op.id}`);
    for (const { path, at } of opts.servedAt(op)) {
      app.on(op.method, honoPath(path), route(opts, op, handler, at));
      methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), op.method]);
    }
  }
  for (const [path, methods] of methodsByPath) {
    const allow = methods.join(', ');
    app.all(honoPath(path), (c) =>
      opts.problem(c, 405, `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`, { allow }),
    );
  }
}
