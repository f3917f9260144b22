/**
 * Console replicas for tests: several console servers (the real server, in process) on one PostgreSQL database,
 * in front of one upstream, each with its own pool — as two machines behind a load balancer would be. Plus a
 * small upstream proxy that can slow chosen calls, to widen the window in which replicas race.
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConsoleServer, type ConsoleServer, type ConsoleServerOptions } from '../server/app';
import type { Config } from '../server/config';
import { openPostgresConsoleStore } from '../server/console/storage/console-store';
import { rawRequest, testConfig } from './harness';

export const REPLICA_TOKEN = 'replica-test-access-token-0123456789';

export interface Replica {
  server: ConsoleServer;
  port: number;
  origin: string;
  /** A request as a browser of this replica sends it (same-origin headers), with an optional session cookie. */
  call(
    method: string,
    path: string,
    opts?: { cookie?: string; json?: unknown; form?: string },
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string; body: any }>;
  /** Opens a session with a one-time link minted by `minter` (this replica by default): the cookie. */
  signIn(minter?: Replica): Promise<string>;
  close(): Promise<void>;
}

export async function startReplica(
  databaseUrl: string,
  upstream: { baseUrl: string; apiKey: string },
  config: Partial<Config> = {},
  /** The store's options (lease lifetime, write budget, pool size, guarded-change limits). */
  storeOpts: Parameters<typeof openPostgresConsoleStore>[1] = {},
  serverOpts: Pick<ConsoleServerOptions, 'readinessCacheMs'> = {},
): Promise<Replica> {
  const store = await openPostgresConsoleStore(databaseUrl, { log: () => undefined, ...storeOpts });
  const server = createConsoleServer({
    config: testConfig({ consoleAuth: 'on', accessToken: REPLICA_TOKEN, databaseUrl, ...config }),
    upstream,
    store,
    ...serverOpts,
  });
  const { port } = await server.listen();
  const origin = `http://localhost:${port}`;
  const replica: Replica = {
    server,
    port,
    origin,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = {};
      if (opts.cookie) headers.cookie = opts.cookie;
      let body: string | undefined;
      if (opts.json !== undefined) {
        body = JSON.stringify(opts.json);
        headers['content-type'] = 'application/json';
      } else if (opts.form !== undefined) {
        body = opts.form;
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      if (method !== 'GET' && method !== 'HEAD') headers.origin = origin;
      const res = await rawRequest(port, method, path, headers, body);
      let parsed: unknown;
      try {
        parsed = res.text ? JSON.parse(res.text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, text: res.text, body: parsed };
    },
    async signIn(minter = replica) {
      const link = await minter.server.newSignInLink();
      const res = await rawRequest(port, 'GET', link);
      const cookie = res.headers['set-cookie']?.[0];
      if (res.status !== 303 || !cookie) throw new Error(`sign-in link answered ${res.status}`);
      return cookie.split(';')[0]!;
    },
    close: () => server.close(),
  };
  return replica;
}

/**
 * A pass-through proxy to `target` that holds the requests `slow` picks for `delayMs` before forwarding them.
 * `hits` counts the requests it forwarded per method and path (`seen`: as they arrived). `setDown(true)` makes it cut every request (the
 * API unreachable) until `setDown(false)`.
 */
export async function startDelayingProxy(target: string, delayMs: number, slow: (req: IncomingMessage) => boolean) {
  const base = new URL(target);
  const hits: string[] = [];
  /** Requests as they arrive (before any delay). */
  const seen: string[] = [];
  let down = false;
  const server = createServer((req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    seen.push(`${req.method} ${req.url}`);
    const forward = () => {
      hits.push(`${req.method} ${req.url}`);
      const up = httpRequest(
        {
          host: base.hostname,
          port: base.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: base.host },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    };
    if (slow(req)) setTimeout(forward, delayMs);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    seen,
    setDown: (value: boolean) => void (down = value),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A git permission as a replace request carries it. */
export const permissionInput = (p: any) => ({
  git_connection_id: p.git_connection_id,
  repo_path: p.repo_path,
  prefix_path: p.prefix_path,
  group_prefix: p.group_prefix,
  read_only: p.read_only,
});
