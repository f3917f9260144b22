/**
 * The shape of one row of the operation table. The browser client calls operations by id, the sandbox
 * dispatches on them, the tests walk them.
 */
import type { z } from 'zod';
import type { RequiredPermission } from '../permissions';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperationDef {
  /** `area.verb`, e.g. `organizations.list`. */
  readonly id: string;
  readonly method: HttpMethod;
  /** The API path with `{name}` placeholders, starting at the version segment: `/v3/...` or `/v3beta1/...`. */
  readonly path: string;
  /**
   * Further paths that serve the same operation, in order of preference after `path`: where the spec and the
   * vendor's real service (`reference/vendor-openapi.json`) name it differently (`acu-limits/agent` vs
   * `acu-limits/devin`, a `/v3beta1/` path promoted to `/v3/`, service users under `members/`). Same method,
   * same parameters. The sandbox answers at every one; the console's client calls `path` first and, on a 404 on
   * the path itself, tries these in turn and remembers per upstream which one answered (`src/api/path-choice.ts`);
   * the doctor reports which it found; the OpenAPI document lists them as `x-alternates`.
   */
  readonly alternates?: readonly string[];
  readonly permission: RequiredPermission;
  readonly scope: 'enterprise' | 'organization';
  readonly summary: string;
  /** Path parameters (strings). */
  readonly params?: z.ZodObject;
  /** Query parameters. Repeated keys arrive as arrays; see `queryArray`. */
  readonly query?: z.ZodObject;
  /** JSON request body; strict, with the documented limits. */
  readonly body?: z.ZodType;
  /** Response body; tolerant of unknown fields. Absent for 204. */
  readonly response?: z.ZodType;
  /** True for cursor-paginated lists (`first`/`after`, page envelope). */
  readonly paginated?: boolean;
  /**
   * The request body is `multipart/form-data` with one file part named `field`, at most `maxBytes` (413 beyond),
   * instead of JSON: the sandbox hands the raw request to the handler, which streams it; the console's proxy
   * admits multipart on this operation's path only and streams it.
   */
  readonly multipart?: { readonly field: string; readonly maxBytes: number };
  /** The operation answers a redirect (302 with `Location`) instead of a body. */
  readonly redirect?: boolean;
  /** Success status; 200 unless stated. */
  readonly status?: 200 | 201 | 202 | 204;
  /** Not in the spec or the vendor reference: answered by the sandbox; the console falls back without it. */
  readonly extension?: boolean;
  /** Where a permission or shape is the console's own choice rather than the spec's. */
  readonly note?: string;
}

/** Keeps literal types of each operation while checking it against `OperationDef`. */
export function defineOperations<const T extends Record<string, OperationDef>>(ops: T): T {
  for (const [key, op] of Object.entries(ops)) {
    if (key !== op.id) throw new Error(`operation key ${key} does not match its id ${op.id}`);
  }
  return ops;
}

/**
 * What the typed helpers below read of an operation: the API's table and the console's share it. `path` is there
 * so an operation with none of the four (a 204 without parameters) still has a property in common with it.
 */
export type OperationShape = Pick<OperationDef, 'path' | 'params' | 'query' | 'body' | 'response'>;

type Infer<T> = T extends z.ZodType ? z.input<T> : undefined;
type Out<T> = T extends z.ZodType ? z.output<T> : void;

export type ParamsOf<O extends OperationShape> = O['params'] extends z.ZodType ? z.input<O['params']> : undefined;
export type QueryOf<O extends OperationShape> = Infer<O['query']>;
export type BodyOf<O extends OperationShape> = Infer<O['body']>;
/** The body after parsing (defaults applied): what a sandbox handler receives. */
export type ParsedBodyOf<O extends OperationShape> = Out<O['body']>;
export type ParsedQueryOf<O extends OperationShape> = Out<O['query']>;
export type ResponseOf<O extends OperationShape> = Out<O['response']>;

/** Fills `{name}` placeholders of an operation path. */
export function buildPath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}
