/**
 * The table-driven dispatcher: routing, credential (401), rate limit (429), permission (403), organization
 * existence (404), query and body validation (422) and problem bodies all come from the operation table;
 * handlers only do the operation's own work.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { buildOpenApiDocument } from '../api/openapi';
import { operationList, type OperationId } from '../api/operations';
import type { OperationDef } from '../api/operations/define';
import { capFieldErrors, issuesToFieldErrors, type FieldError } from '../api/problem';
import { checkJsonBounds } from '../api/bounds';
import { BodyTooLarge, readTextCapped } from '../node/read-body';
import { authenticate } from './credentials';
import { CURSOR_ERROR, readCursor } from './cursor';
import type { Handler, HandlerMap, Principal, SandboxContext, SandboxReply } from './context';
import { heldAt, isReply } from './context';
import type { RateLimiter } from './rate-limit';
import { servedPaths, vendorAnswer, type SandboxShape, type VendorOperation } from './vendor-shape';
import {
  HttpProblem,
  summarizeFieldErrors,
  httpProblemResponse,
  problemResponse,
  type ProblemExtra,
} from '../node/problem-writer';

export interface DispatcherOptions {
  ctx: SandboxContext;
  handlers: HandlerMap;
  rateLimiter: RateLimiter;
  /** Parse every response with its schema and fail loudly on drift (tests). */
  validateResponses?: boolean;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes?: number;
  /** The operation table to serve; the contract's by default (tests pass their own). */
  operations?: readonly OperationDef[];
  /**
   * The IP access list check, before authentication: why a request from this socket address is refused, or null.
   * Requests without a socket (in-process `fetch`) are not checked.
   */
  addressRefusal?: (remoteAddress: string) => string | null;
  /**
   * `vendor`: serve each operation the vendor's document covers only at the vendor's path(s), and cut its success
   * answers down to the vendor's shapes (`vendor-shape.ts`); `spec` (the default): every path, the contract's shapes.
   */
  shape?: SandboxShape;
}

/** The socket address of a request served by @hono/node-server (its `env.incoming`); undefined in-process. */
function remoteAddressOf(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/** A problem answer at this request's path, from the one problem writer. */
function reply(
  c: Context,
  status: number,
  detail: string,
  extra: ProblemExtra = {},
  headers: Record<string, string> = {},
) {
  return problemResponse(status, detail, { instance: new URL(c.req.url).pathname, extra, headers });
}

function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Query parameters as zod sees them: one value → string, repeated keys → array. */
function readQuery(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

function orgExists(ctx: SandboxContext, orgId: string): boolean {
  return !!ctx.db.prepare('SELECT 1 FROM organizations WHERE org_id = ?').get(orgId);
}

function validate(
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

async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  let text: string;
  try {
    text = await readTextCapped(c.req.raw, maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new HttpProblem(413, err.message);
    throw err;
  }
  if (text.length === 0) return undefined;
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
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
  const outOfBounds = checkJsonBounds(value, 'body');
  if (outOfBounds) throw new HttpProblem(422, outOfBounds.msg, { errors: [outOfBounds] });
  return value;
}

/**
 * The level-aware permission check. An enterprise-scope operation needs the permission enterprise-wide; an
 * organization-scope one needs it enterprise-wide or through an assignment in the organization of its path. The
 * refusal names the permission, the level and, for an organization, where the credential does hold it.
 */
function permissionRefusal(
  op: OperationDef,
  principal: Principal,
  orgId: string | undefined,
): { detail: string; extra: ProblemExtra } | null {
  const permission = op.permission as Exclude<OperationDef['permission'], 'AnyCredential'>;
  const atOrg = op.scope === 'organization' && orgId !== undefined ? orgId : null;
  if (heldAt(principal, atOrg).has(permission)) return null;
  const heldIn = [...principal.orgPermissions].filter(([, perms]) => perms.has(permission)).map(([org]) => org);
  const where = atOrg === null ? '' : ` on organization ${atOrg}`;
  const elsewhere =
    heldIn.length > 0
      ? `; the credential holds it only on organization${heldIn.length > 1 ? 's' : ''} ${heldIn.join(', ')}`
      : '';
  return {
    detail: `This operation requires the ${permission} permission (${op.scope} level)${where}, which the credential's role does not hold${atOrg === null ? '' : ' there'}${elsewhere}`,
    extra: { permission, level: op.scope, ...(atOrg === null ? {} : { org_id: atOrg }) },
  };
}

function runOperation(
  op: OperationDef,
  handler: Handler<OperationId>,
  opts: DispatcherOptions,
  vendor: VendorOperation | undefined,
) {
  const { ctx, rateLimiter } = opts;
  return async (c: Context): Promise<Response> => {
    const remote = opts.addressRefusal ? remoteAddressOf(c) : undefined;
    const refused = remote === undefined ? null : opts.addressRefusal!(remote);
    if (refused) return reply(c, 401, refused, { reason: 'ip_not_allowed' });
    const auth = authenticate(ctx.db, c.req.header('authorization'), ctx.now());
    if (!auth.ok) {
      return reply(c, 401, auth.detail, {}, { 'www-authenticate': 'Bearer' });
    }
    const principal = auth.principal;
    const wait = rateLimiter.take(principal.credential);
    if (wait > 0) {
      return reply(
        c,
        429,
        `Rate limit exceeded for this credential; retry after ${wait} s`,
        {},
        {
          'retry-after': String(wait),
        },
      );
    }
    if (op.permission !== 'AnyCredential') {
      const refusal = permissionRefusal(op, principal, c.req.param('org_id'));
      if (refusal) return reply(c, 403, refusal.detail, refusal.extra);
    }
    try {
      const rawParams = c.req.param() as Record<string, string>;
      const params = op.params ? validate('path', op.params, rawParams) : {};
      const orgId = (params as { org_id?: string }).org_id;
      if (orgId !== undefined && !orgExists(ctx, orgId)) {
        throw new HttpProblem(404, `Organization ${orgId} was not found`);
      }
      const url = new URL(c.req.url);
      const rawQuery = readQuery(url);
      // A malformed cursor is reported together with the other query errors.
      const after = rawQuery.after;
      const cursorErrors =
        op.paginated && typeof after === 'string' && after !== '' && !readCursor(after) ? [CURSOR_ERROR] : [];
      const query = op.query ? validate('query', op.query, rawQuery, cursorErrors) : {};
      let body: unknown;
      if (op.body) {
        const raw = await readJsonBody(c, opts.maxBodyBytes ?? 1_048_576);
        body = validate('body', op.body, raw);
      }
      const result = await handler(
        { params, query, body, principal, path: url.pathname, request: c.req.raw } as never,
        ctx,
      );
      let reply: SandboxReply = isReply(result) ? result : { status: op.status ?? 200, body: result };
      if (
        opts.validateResponses &&
        op.response &&
        reply.status < 300 &&
        reply.status !== 204 &&
        reply.body !== undefined
      ) {
        const check = op.response.safeParse(reply.body);
        if (!check.success) {
          throw new Error(`response of ${op.id} does not match its schema: ${check.error.message}`);
        }
      }
      // The contract's answer, checked above, as the vendor gives it.
      if (vendor && reply.status < 300) reply = { ...reply, ...vendorAnswer(vendor, reply.status, reply.body) };
      if (reply.status === 204 || reply.body === undefined) {
        return new Response(null, { status: reply.status === 200 ? 204 : reply.status, headers: reply.headers });
      }
      return new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json', ...reply.headers },
      });
    } catch (err) {
      if (err instanceof HttpProblem) {
        return httpProblemResponse(err, new URL(c.req.url).pathname);
      }
      console.error(`[sandbox] ${op.id} failed:`, err);
      return reply(c, 500, `The sandbox failed while handling ${op.id}`);
    }
  };
}

export function createDispatcher(opts: DispatcherOptions): Hono {
  const app = new Hono();
  const methodsByPath = new Map<string, string[]>();
  for (const op of opts.operations ?? operationList) {
    const handler = opts.handlers[op.id as OperationId] as Handler<OperationId> | undefined;
    if (!handler) throw new Error(`the sandbox has no handler for operation ${op.id}`);
    const paths = servedPaths(op.method, [op.path, ...(op.alternates ?? [])], opts.shape ?? 'spec');
    for (const { path, vendor } of paths) {
      app.on(op.method, honoPath(path), runOperation(op, handler, opts, vendor));
      const list = methodsByPath.get(path) ?? [];
      list.push(op.method);
      methodsByPath.set(path, list);
    }
  }
  for (const [path, methods] of methodsByPath) {
    app.all(honoPath(path), (c) =>
      reply(
        c,
        405,
        `${c.req.method} is not allowed on ${new URL(c.req.url).pathname}; allowed: ${methods.join(', ')}`,
        {},
        { allow: methods.join(', ') },
      ),
    );
  }
  // The contract as an OpenAPI document, generated once from the operation table.
  let openApi: string | undefined;
  app.get('/openapi.json', (c) => {
    openApi ??= JSON.stringify(buildOpenApiDocument());
    return c.body(openApi, 200, { 'content-type': 'application/json' });
  });
  app.notFound((c) => reply(c, 404, `No operation at ${c.req.method} ${new URL(c.req.url).pathname}`));
  app.onError((err, c) => {
    console.error('[sandbox] unhandled error:', err);
    return reply(c, 500, 'The sandbox failed while handling this request');
  });
  return app;
}
