/**
 * The table-driven dispatcher: the API's operation table on the shared table mount (`src/node/table-mount.ts`,
 * the console's endpoints use it too: routing, 405, path, query and body validation, the handler call), with the
 * sandbox's own guards in front (IP access list and credential 401, rate limit 429, permission 403), the
 * organization's existence (404), the malformed cursor among the query errors, and its answers checked against
 * their schemas (tests) and cut to the vendor's shapes where served so. Handlers only do the operation's own work.
 */
import { Hono, type Context } from 'hono';
import { buildOpenApiDocument } from '../api/openapi';
import { operationList, type OperationId } from '../api/operations';
import type { OperationDef } from '../api/operations/define';
import { mountTable, type MountedHandler } from '../node/table-mount';
import { authenticate } from './credentials';
import { CURSOR_ERROR, readCursor } from './cursor';
import type { HandlerMap, Principal, SandboxContext, SandboxReply } from './context';
import { heldAt, isReply } from './context';
import type { RateLimiter } from './rate-limit';
import { servedPaths, vendorAnswer, type SandboxShape, type VendorOperation } from './vendor-shape';
import { HttpProblem, httpProblemResponse, problemResponse, type ProblemExtra } from '../node/problem-writer';

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

function orgExists(ctx: SandboxContext, orgId: string): boolean {
  return !!ctx.db.prepare('SELECT 1 FROM organizations WHERE org_id = ?').get(orgId);
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

/**
 * The sandbox's own guards, before the table's validation: the IP access list, the credential (401), the rate limit
 * (429) and the permission at the operation's level (403). Answers the principal, or the refusal.
 */
function guard(opts: DispatcherOptions, c: Context, op: OperationDef): Response | { guarded: Principal } {
  const { ctx, rateLimiter } = opts;
  const remote = opts.addressRefusal ? remoteAddressOf(c) : undefined;
  const refused = remote === undefined ? null : opts.addressRefusal!(remote);
  if (refused) return reply(c, 401, refused, { reason: 'ip_not_allowed' });
  const auth = authenticate(ctx.db, c.req.header('authorization'), ctx.now());
  if (!auth.ok) return reply(c, 401, auth.detail, {}, { 'www-authenticate': 'Bearer' });
  const principal = auth.principal;
  const wait = rateLimiter.take(principal.credential);
  if (wait > 0) {
    return reply(
      c,
      429,
      `Rate limit exceeded for this credential; retry after ${wait} s`,
      {},
      { 'retry-after': String(wait) },
    );
  }
  if (op.permission !== 'AnyCredential') {
    const refusal = permissionRefusal(op, principal, c.req.param('org_id'));
    if (refusal) return reply(c, 403, refusal.detail, refusal.extra);
  }
  return { guarded: principal };
}

/** Any sandbox handler, as the mount calls it with the input its operation's schemas produced. */
type WideSandboxHandler = (
  input: { params: unknown; query: unknown; body: unknown; principal: Principal; path: string; request: Request },
  ctx: SandboxContext,
) => unknown;

/** The handler of `op`, called with the sandbox's input (its parsed parts, the principal, the raw request). */
function sandboxHandlerOf(opts: DispatcherOptions, op: OperationDef): MountedHandler<Principal> | undefined {
  // Typed per operation from the same schemas the mount validates with: widening it here is sound.
  const handler = opts.handlers[op.id as OperationId] as WideSandboxHandler | undefined;
  if (!handler) return undefined;
  return ({ params, query, body, url, guarded, c }) =>
    handler({ params, query, body, principal: guarded, path: url.pathname, request: c.req.raw }, opts.ctx);
}

/** Writes a handler's answer: checked against its schema (tests), cut to the vendor's shape where served so. */
function answer(opts: DispatcherOptions, op: OperationDef, result: unknown, vendor: VendorOperation | undefined) {
  let out: SandboxReply = isReply(result) ? result : { status: op.status ?? 200, body: result };
  if (opts.validateResponses && op.response && out.status < 300 && out.status !== 204 && out.body !== undefined) {
    const check = op.response.safeParse(out.body);
    if (!check.success) {
      throw new Error(`response of ${op.id} does not match its schema: ${check.error.message}`);
    }
  }
  // The contract's answer, checked above, as the vendor gives it.
  if (vendor && out.status < 300) out = { ...out, ...vendorAnswer(vendor, out.status, out.body) };
  if (out.status === 204 || out.body === undefined) {
    return new Response(null, { status: out.status === 200 ? 204 : out.status, headers: out.headers });
  }
  return new Response(JSON.stringify(out.body), {
    status: out.status,
    headers: { 'content-type': 'application/json', ...out.headers },
  });
}

export function createDispatcher(opts: DispatcherOptions): Hono {
  const app = new Hono();
  const { ctx } = opts;
  mountTable<OperationDef, Principal, VendorOperation | undefined>(app, {
    operations: opts.operations ?? operationList,
    server: 'the sandbox',
    handlerOf: (op) => sandboxHandlerOf(opts, op),
    servedAt: (op) =>
      servedPaths(op.method, [op.path, ...(op.alternates ?? [])], opts.shape ?? 'spec').map(({ path, vendor }) => ({
        path,
        at: vendor,
      })),
    maxBodyBytes: opts.maxBodyBytes ?? 1_048_576,
    guard: (c, op) => guard(opts, c, op),
    checkParams: (_op, params) => {
      const orgId = (params as { org_id?: string }).org_id;
      if (orgId !== undefined && !orgExists(ctx, orgId))
        throw new HttpProblem(404, `Organization ${orgId} was not found`);
    },
    // A malformed cursor is reported together with the other query errors.
    queryErrors: (op, raw) =>
      op.paginated && typeof raw.after === 'string' && raw.after !== '' && !readCursor(raw.after) ? [CURSOR_ERROR] : [],
    answer: (_c, op, result, vendor) => answer(opts, op, result, vendor),
    onError: (c, op, err) => {
      if (err instanceof HttpProblem) return httpProblemResponse(err, new URL(c.req.url).pathname);
      console.error(`[sandbox] ${op.id} failed:`, err);
      return reply(c, 500, `The sandbox failed while handling ${op.id}`);
    },
    problem: (c, status, detail, headers) => reply(c, status, detail, {}, headers),
  });
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
