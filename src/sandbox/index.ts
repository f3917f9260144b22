/**
 * The embedded sandbox: a complete, stateful stand-in of the API on SQLite, served over real HTTP on its own
 * loopback port.
 */
import { serve, type ServerType } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrors, problemResponse } from '../node/problem-writer';
import type { AuditInput, SandboxContext, HandlerMap, SeedContext } from './context';
import { migrate, openDb, openDbFrom, type Db } from '../node/db';
import { createDispatcher } from './dispatcher';
import { sandboxModules } from './modules';
import { ipAccessRefusal, readIpAccessList, resetIpAccessList } from './modules/ip-access-list';
import { listOrgIds } from './modules/organizations';
import { createRng, seedFor } from './random';
import { createRateLimiter } from './rate-limit';
import type { SandboxShape } from './vendor-shape';

export { SANDBOX_CREDENTIALS, describeCredentials } from './credentials';
export { SANDBOX_SHAPES, type SandboxShape } from './vendor-shape';

/** Requests per minute per credential when `SANDBOX_RATE_LIMIT` is not set: more than normal use ever makes. */
export const DEFAULT_RATE_LIMIT = 20_000;
/** Simulation step when `SANDBOX_TICK_MS` is not set. */
export const DEFAULT_TICK_MS = 1_000;

export interface SandboxOptions {
  /** SQLite file path, or `:memory:`. */
  dbPath: string;
  rateLimitPerMinute?: number;
  tickMs?: number;
  validateResponses?: boolean;
  /** `vendor`: the vendor's paths and shapes only (`SANDBOX_SHAPE`); `spec` by default. */
  shape?: SandboxShape;
  /** Clock override for tests (milliseconds). */
  nowMs?: () => number;
}

export interface Sandbox {
  db: Db;
  ctx: SandboxContext;
  /** `env` is @hono/node-server's (the socket, for the IP access list); absent in-process. */
  fetch: (req: Request, env?: unknown) => Response | Promise<Response>;
  /** Stops background simulation and closes the store. */
  close(): void;
}

/**
 * A freshly seeded in-memory store, kept for a short while so that the next in-memory sandbox of this process
 * (the API tests start many) starts from a copy of it instead of seeding again (seeding writes some 50,000
 * rows). Only for a short while: the seed's times are relative to when it ran, and a copy must read as fresh.
 */
const TEMPLATE_MAX_AGE_MS = 20_000;
/** The copy, with the tick it was seeded for: the seed plans the live sessions' next steps in ticks. */
let template: { image: Buffer; at: number; tickMs: number } | undefined;

function openStore(opts: SandboxOptions): { db: Db; fromTemplate: boolean } {
  const cacheable = opts.dbPath === ':memory:' && !opts.nowMs;
  if (
    cacheable &&
    template &&
    template.tickMs === (opts.tickMs ?? DEFAULT_TICK_MS) &&
    Date.now() - template.at < TEMPLATE_MAX_AGE_MS
  ) {
    return { db: openDbFrom(template.image), fromTemplate: true };
  }
  return { db: openDb(opts.dbPath), fromTemplate: false };
}

export function createSandbox(opts: SandboxOptions): Sandbox {
  const { db, fromTemplate } = openStore(opts);
  migrate(
    db,
    sandboxModules.flatMap((m) => m.migrations),
  );
  const nowMs = opts.nowMs ?? Date.now;
  const insertAudit = db.prepare(
    `INSERT INTO audit_logs (audit_log_id, created_at, action, org_id, service_user_id, service_user_name, user_id, user_email, data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ctx: SandboxContext = {
    db,
    nowMs,
    now: () => Math.floor(nowMs() / 1000),
    tickMs: opts.tickMs ?? DEFAULT_TICK_MS,
    newId: (prefix) => `${prefix}${randomBytes(8).toString('hex')}`,
    audit(e: AuditInput) {
      insertAudit.run(
        ctx.newId('audit-'),
        e.created_at ?? ctx.now(),
        e.action,
        e.org_id ?? null,
        e.principal?.service_user_id ?? null,
        e.principal?.service_user_name ?? null,
        e.user?.user_id ?? null,
        e.user?.user_email ?? null,
        JSON.stringify(e.data ?? {}),
      );
    },
  };

  const seeded = db.prepare(`SELECT value FROM sandbox_meta WHERE key = 'seeded_at'`).get();
  if (!seeded) {
    db.transaction(() => {
      for (const m of sandboxModules) {
        if (!m.seed) continue;
        const seedCtx: SeedContext = { ...ctx, rng: createRng(seedFor(m.name)), orgIds: () => listOrgIds(db) };
        m.seed(seedCtx);
      }
      db.prepare(`INSERT INTO sandbox_meta (key, value) VALUES ('seeded_at', ?)`).run(String(ctx.now()));
    })();
    if (opts.dbPath === ':memory:' && !opts.nowMs && !fromTemplate) {
      template = { image: db.serialize(), at: Date.now(), tickMs: ctx.tickMs };
    }
  }
  db.transaction(() => {
    for (const m of sandboxModules) {
      m.ensure?.({ ...ctx, rng: createRng(seedFor(m.name)), orgIds: () => listOrgIds(db) });
    }
  })();

  const handlers: HandlerMap = Object.assign({}, ...sandboxModules.map((m) => m.handlers));
  const app = createDispatcher({
    ctx,
    handlers,
    rateLimiter: createRateLimiter(opts.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT, nowMs),
    validateResponses: opts.validateResponses,
    shape: opts.shape,
    addressRefusal: (address) => ipAccessRefusal(db, address),
  });
  for (const m of sandboxModules) m.routes?.(app, ctx);
  const stops = sandboxModules.flatMap((m) => (m.start ? [m.start(ctx)] : []));
  let closed = false;
  return {
    db,
    ctx,
    fetch: app.fetch,
    close() {
      if (closed) return;
      closed = true;
      for (const stop of stops) stop();
      db.close();
    },
  };
}

/**
 * `--reset-ip-access-list`: clears the IP access list of the store at `dbPath` (creating the store if it does not
 * exist yet) and writes an audit entry; answers the entries that were removed. For an admin locked out by a list
 * that leaves out their own address.
 */
export function resetIpAccessListAt(dbPath: string): string[] {
  const sandbox = createSandbox({ dbPath });
  try {
    const removed = readIpAccessList(sandbox.db);
    sandbox.db.transaction(() => {
      resetIpAccessList(sandbox.db);
      sandbox.ctx.audit({
        action: 'clear_ip_access_list',
        data: { ip_ranges: [], previous_ip_ranges: removed, reason: 'reset from the command line' },
      });
    })();
    return removed;
  } finally {
    sandbox.close();
  }
}

export interface RunningSandbox extends Sandbox {
  url: string;
  port: number;
  server: ServerType;
  stop(): Promise<void>;
}

/** Serves a sandbox on loopback; port 0 picks a free port. */
export async function startSandbox(opts: SandboxOptions & { port?: number; host?: string }): Promise<RunningSandbox> {
  const sandbox = createSandbox(opts);
  const host = opts.host ?? '127.0.0.1';
  // DNS rebinding: a page on another site that resolves its name to 127.0.0.1 could drive the sandbox with
  // the documented admin key. Only the sandbox's own loopback names on its port are answered.
  let allowedHosts = new Set<string>();
  const guarded = (req: Request, env?: unknown) => {
    const hostHeader = req.headers.get('host')?.toLowerCase() ?? '';
    if (!allowedHosts.has(hostHeader)) {
      return problemResponse(403, 'Unknown Host header: the sandbox answers only to its loopback names on its port', {
        instance: new URL(req.url).pathname,
      });
    }
    return sandbox.fetch(req, env);
  };
  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: guarded, port: opts.port ?? 0, hostname: host }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    sandbox.close();
    throw err;
  }
  answerClientErrors(server as Server);
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set(
    ['localhost', '127.0.0.1', '[::1]', host.includes(':') ? `[${host}]` : host].map((n) => `${n}:${port}`),
  );
  return {
    ...sandbox,
    server,
    port,
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          sandbox.close();
          resolve();
        });
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
