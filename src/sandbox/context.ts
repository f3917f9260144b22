/** What every sandbox module and handler works with. */
import type { Hono } from 'hono';
import type { z } from 'zod';
import type { OperationId, Operations } from '../api/operations';
import type { ParsedBodyOf, ParsedQueryOf, ResponseOf } from '../api/operations/define';
import type { RoleAssignment } from '../api/operations/members';
import type { Permission } from '../api/permissions';
import type { Db, Migration } from '../node/db';
import type { Rng } from './random';

/** The caller: a service user, as its credential's store rows say at the time of the request. */
export interface Principal {
  credential: string;
  principal_type: 'service_user';
  service_user_id: string;
  service_user_name: string;
  /** The organization the service user was created in (its organization's route), or null for the enterprise's. */
  org_id: string | null;
  /** Every permission the credential holds, at any level (see `enterprisePermissions` and `orgPermissions`). */
  permissions: ReadonlySet<Permission>;
  /** Permissions of enterprise-wide role assignments: they hold on every path. */
  enterprisePermissions: ReadonlySet<Permission>;
  /** Permissions of organization-level role assignments, by organization: they hold on that organization's paths. */
  orgPermissions: ReadonlyMap<string, ReadonlySet<Permission>>;
  /** The credential's role assignments, each role with its permission names. */
  role_assignments: readonly RoleAssignment[];
}

/**
 * What the principal holds at one level: enterprise-wide permissions, plus — for an organization (`orgId`) — its
 * assignments in that organization. `orgId` null asks for the enterprise level.
 */
export function heldAt(principal: Principal, orgId: string | null): ReadonlySet<Permission> {
  const inOrg = orgId === null ? undefined : principal.orgPermissions.get(orgId);
  if (!inOrg || inOrg.size === 0) return principal.enterprisePermissions;
  return new Set([...principal.enterprisePermissions, ...inOrg]);
}

export interface AuditInput {
  action: string;
  org_id?: string | null;
  principal?: Pick<Principal, 'service_user_id' | 'service_user_name'> | null;
  user?: { user_id: string; user_email: string } | null;
  data?: Record<string, unknown>;
  created_at?: number;
}

export interface SandboxContext {
  db: Db;
  /** Current time in Unix seconds. */
  now(): number;
  /** Current time in milliseconds (simulation pace). */
  nowMs(): number;
  /** Milliseconds per simulation step (`SANDBOX_TICK_MS`). */
  tickMs: number;
  /** Appends an audit-log entry; every mutation calls it. */
  audit(entry: AuditInput): void;
  /** Mints an id with a prefix, unique in this store. */
  newId(prefix: string): string;
}

type ParamsOut<O> = O extends { params: z.ZodType } ? z.output<O['params']> : Record<string, never>;

export interface HandlerInput<O extends Operations[OperationId]> {
  params: ParamsOut<O>;
  query: ParsedQueryOf<O>;
  body: ParsedBodyOf<O>;
  principal: Principal;
  /** The request path, for `instance`. */
  path: string;
  /** The raw request: multipart operations stream their body from it; redirects build absolute URLs with it. */
  request: Request;
}

/** A handler may answer with a value (JSON, the operation's status) or a full reply. */
export interface SandboxReply<T = unknown> {
  status: number;
  body?: T;
  headers?: Record<string, string>;
}

export type Handler<I extends OperationId> = (
  input: HandlerInput<Operations[I]>,
  ctx: SandboxContext,
) =>
  | ResponseOf<Operations[I]>
  | SandboxReply<ResponseOf<Operations[I]>>
  // Async only where a handler must read a stream (multipart uploads).
  | Promise<ResponseOf<Operations[I]> | SandboxReply<ResponseOf<Operations[I]>>>;

export type HandlerMap = { [I in OperationId]?: Handler<I> };

export interface SeedContext extends SandboxContext {
  rng: Rng;
  /** The organizations seeded by the organizations module, in order. */
  orgIds(): string[];
}

/** One area of the API in the sandbox: its tables, its seed, its handlers and any background simulation. */
export interface SandboxModule {
  name: string;
  migrations: Migration[];
  /** Runs once, on an empty store, after every module's migrations; modules seed in registry order. */
  seed?(ctx: SeedContext): void;
  /**
   * Runs at every start, after seeding: brings a store seeded by an earlier version up to what this module needs
   * (say, its tables were added since), and keeps what must follow the code (built-in roles) in step with it.
   */
  ensure?(ctx: SeedContext): void;
  handlers: HandlerMap;
  /**
   * Paths of its own outside the operation table (no credential, no dispatcher rules), e.g. the signed
   * download URLs of attachments.
   */
  routes?(app: Hono, ctx: SandboxContext): void;
  /** Starts background work (e.g. the session simulation); returns a stop function. */
  start?(ctx: SandboxContext): () => void;
}

export function isReply(v: unknown): v is SandboxReply {
  return (
    typeof v === 'object' &&
    v !== null &&
    'status' in v &&
    typeof (v as { status: unknown }).status === 'number' &&
    Object.keys(v).every((k) => k === 'status' || k === 'body' || k === 'headers')
  );
}
