/**
 * The console server: one Node HTTP server that guards every request, proxies API paths with the
 * credential, answers the console's own endpoints and serves the app.
 */
import { getRequestListener } from '@hono/node-server';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Config } from './config';
import { createConsoleApp } from './console';
import { createAccessControl, OIDC_CALLBACK_PATH } from './access';
import { principalOfRequest } from './console/actor';
import { isWrite, recordRefused, recordWhenAnswered } from './console/activity/record';
import { decide, POLICY_REFUSED_TYPE } from './policy/enforce';
import { createPolicyHolder, type PolicyHolder } from './policy/holder';
import {
  openSqliteConsoleStore,
  redactingStore,
  storeOptionsOf,
  type ConsoleStore,
} from './console/storage/console-store';
import { createReadiness } from './console/readiness';
import { createReconciler, type ReconcileReport } from './console/reconcile';
import { databasePassword, StoreUnavailable } from './console/storage/postgres';
import { CONSOLE_MAX_BODY_BYTES, STORE_RETRY_AFTER_S, storeUnavailableDetail } from './console/problems';
import { createUpstreamClient } from './console/upstream-client';
import { answerClientErrors, instanceOf, sendProblem } from '../node/problem-writer';
import { createForwarder } from './proxy/forward';
import { createRedactor } from './redact';
import {
  allowedHostHeaders,
  bodyRefusal,
  crossSiteReason,
  GUARDED_IP_ACCESS_LIST,
  guardedSetOf,
  isAllowedHost,
  toUpstreamPath,
} from './proxy/guards';

/**
 * Sent on every answer over HTTPS: browsers then use HTTPS only for this host for a year, so the token and the
 * session cookie never cross the network in clear after the first visit. Not over plain HTTP (ignored there).
 */
export const HSTS = 'max-age=31536000';

/** The `type` of the problem a proxied write to a guarded set gets: use the console's endpoint for it. */
export const GUARDED_SET_TYPE = 'urn:agent-platform-console:use-guarded-endpoint';

export interface ConsoleServerOptions {
  config: Config;
  /** The API the proxy talks to: the configured upstream, or the embedded sandbox. */
  upstream: { baseUrl: string; apiKey: string };
  /** Serves everything that is not `/api` or `/console` (the built app, or Vite in dev). */
  serveApp?: (req: IncomingMessage, res: ServerResponse, pathname: string) => void;
  /** One line per request; off in tests unless asked for. */
  log?: (line: string) => void;
  /** The slowest an upload may arrive before it is cut (the proxy's MIN_UPLOAD_RATE unless given; tests). */
  minUploadRate?: { bytesPerSecond: number; windowMs: number };
  /** The clock of sign-in sessions and backoff, in epoch milliseconds (tests move it). */
  now?: () => number;
  /**
   * The console's own store, opened (`openConsoleStoreFor(config)`): required with DATABASE_URL, since opening
   * PostgreSQL is asynchronous; without it, SQLite in DATA_DIR is opened here. The server closes it.
   */
  store?: ConsoleStore;
  /** How long one probe of the API answers for on `/console/readyz` (default 2 s; tests shorten it). */
  readinessCacheMs?: number;
  /** Watch CONSOLE_POLICY_FILE and reload on SIGHUP (default true; tests that start many servers turn it off). */
  watchPolicy?: boolean;
}

export interface ConsoleServer {
  server: Server | HttpsServer;
  store: ConsoleStore;
  /** The console's policy in force (CONSOLE_POLICY_FILE), reloadable. */
  policy: PolicyHolder;
  /**
   * A new one-time sign-in link (path and query), as `npm start` prints; stored in the background. With
   * `name` (checked with SignInName), the session it opens is that person's.
   */
  signInLink(name?: string | null): string;
  /** The same, once stored: every replica sharing the store accepts it. */
  newSignInLink(name?: string | null): Promise<string>;
  listen(): Promise<{ url: string; port: number }>;
  /** One reconciliation round now (it also runs at start and every CONSOLE_RECONCILE_INTERVAL_S). */
  reconcile(): Promise<ReconcileReport>;
  close(): Promise<void>;
}

/** The paths of liveness and readiness: open without a session, answered before anything needs the store. */
export const LIVEZ_PATH = '/console/livez';
export const READYZ_PATH = '/console/readyz';

/** A readable page for a browser that loads the console while its store is down (never raw problem JSON). */
export function storeOutagePage(detail: string): string {
  const esc = (t: string) =>
    t.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${STORE_RETRY_AFTER_S * 2}">
<title>Console temporarily unavailable</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2328;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}}
h1{font-size:1.5rem}
p.detail{color:#59636e}
@media (prefers-color-scheme:dark){p.detail{color:#9198a1}}
</style>
</head>
<body>
<main>
<h1>The console is temporarily unavailable</h1>
<p>This console server cannot reach its own database right now, so it cannot check who is signed in. Nothing you
were doing is lost: sessions and history are kept in the database and are there again once it is back.</p>
<p>This page reloads by itself every ${STORE_RETRY_AFTER_S * 2} seconds.</p>
<p class="detail">${esc(detail)}</p>
</main>
</body>
</html>
`;
}

/** A browser's page load: a GET or HEAD whose Accept names HTML. */
const wantsHtml = (req: IncomingMessage) =>
  (req.method === 'GET' || req.method === 'HEAD') && /\btext\/html\b/i.test(String(req.headers.accept ?? ''));

/** HTTP, or HTTPS when TLS_CERT_FILE and TLS_KEY_FILE are configured: the same options and handler. */
function createNodeServer(
  tls: { cert: Buffer; key: Buffer } | undefined,
  options: ServerOptions,
  listener: RequestListener,
): Server | HttpsServer {
  return tls ? createHttpsServer({ ...options, ...tls }, listener) : createServer(options, listener);
}

export function createConsoleServer(opts: ConsoleServerOptions): ConsoleServer {
  const { config, log } = opts;
  const startedAt = Date.now();
  // The credential, the console's own access token and the database's password never leave the server.
  const redactor = createRedactor([opts.upstream.apiKey, config.accessToken, databasePassword(config.databaseUrl)]);
  const forwarder = createForwarder({
    redactor,
    maxPerClient: config.maxUpstreamPerClient,
    baseUrl: opts.upstream.baseUrl,
    apiKey: opts.upstream.apiKey,
    timeoutMs: config.upstreamTimeoutMs,
    maxConnections: config.maxUpstreamConnections,
    minUploadRate: opts.minUploadRate,
  });
  if (!opts.store && config.databaseUrl) {
    throw new Error(
      'DATABASE_URL is set: open the PostgreSQL store first (openConsoleStoreFor) and pass it as `store`',
    );
  }
  // History and settings are redacted before they are written (the credential never reaches the disk).
  const store = redactingStore(opts.store ?? openSqliteConsoleStore(config.dataDir, storeOptionsOf(config)), redactor);
  const upstreamClient = createUpstreamClient({ ...opts.upstream, timeoutMs: config.upstreamTimeoutMs, redactor });
  const readiness = createReadiness({
    storeHealth: () => store.health(),
    upstream: opts.upstream,
    cacheMs: opts.readinessCacheMs,
  });
  const reconciler = createReconciler({ store, upstream: upstreamClient });
  const reconcileEveryMs = (config.reconcileIntervalS ?? 15) * 1000;
  const consoleApp = createConsoleApp({
    config,
    upstream: upstreamClient,
    upstreamUrl: opts.upstream.baseUrl,
    startedAt,
    store,
    redactor,
    apiKey: opts.upstream.apiKey,
  });
  const consoleListener = getRequestListener(consoleApp.fetch);
  const hostNames = [
    ...config.allowedHosts,
    ...(config.host !== '0.0.0.0' && config.host !== '::'
      ? [config.host.includes(':') ? `[${config.host}]` : config.host]
      : []),
  ];
  let allowedHosts = allowedHostHeaders(config.port, hostNames);
  const tls =
    config.tlsCertFile && config.tlsKeyFile
      ? { cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile) }
      : undefined;
  // Checked at start by the configuration already; a file broken since then stops the start here.
  const policy = createPolicyHolder(config.policyFile, undefined, { watch: opts.watchPolicy });
  if (config.oidc && !config.policyFile) {
    console.error(
      '[console] CONSOLE_OIDC_ISSUER is set without CONSOLE_POLICY_FILE: nobody who signs in with single sign-on has a role, so every such sign-in is refused (deny by default). See README, "Single sign-on and console roles".',
    );
  }
  const access = createAccessControl({
    config,
    store,
    sharedStore: store.kind === 'postgres',
    secure: tls !== undefined,
    now: opts.now,
    policy: () => policy.current(),
  });
  const clock = opts.now ?? Date.now;
  const activityFailed = (err: unknown) =>
    console.error(
      `[console] recording console activity failed: ${err instanceof Error ? err.message : 'unknown error'}`,
    );

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    const instance = instanceOf(target);
    if (!isAllowedHost(req.headers, allowedHosts)) {
      sendProblem(res, 403, 'Unknown Host header: the console answers only to its configured host names', instance);
      return;
    }
    if ((instance === LIVEZ_PATH || instance === READYZ_PATH) && (req.method === 'GET' || req.method === 'HEAD')) {
      req.resume();
      await answerProbe(req, res, instance);
      return;
    }
    const isApi = target.startsWith('/api/') || target === '/api';
    const isConsole = target.startsWith('/console/') || target === '/console';
    // The provider sends the browser back to the callback from its own site (a top-level GET): that request
    // is cross-site by nature, and its single-use state is what ties it to a sign-in started here.
    const oidcReturn = instance === OIDC_CALLBACK_PATH && (req.method === 'GET' || req.method === 'HEAD');
    if ((isApi || isConsole) && !oidcReturn) {
      const crossSite = crossSiteReason(req.headers, allowedHosts);
      if (crossSite) {
        sendProblem(res, 403, crossSite, instance);
        return;
      }
    }
    // The client the request belongs to: its sign-in session (or address), for the fair share of the pool.
    let client: string | false;
    try {
      client = await access.check(req, res, instance);
    } catch (err) {
      if (!(err instanceof StoreUnavailable) || res.headersSent) throw err;
      // Sessions live in the store: without it nobody can be let in, and nobody is let in by mistake.
      req.resume();
      if (!isApi && !isConsole && wantsHtml(req)) {
        // A browser loading a page gets a page it can read (and that reloads by itself), not problem JSON.
        res.writeHead(503, {
          'content-type': 'text/html; charset=utf-8',
          'retry-after': String(STORE_RETRY_AFTER_S),
          'cache-control': 'no-store',
          'content-security-policy':
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
          'x-content-type-options': 'nosniff',
        });
        res.end(req.method === 'HEAD' ? undefined : storeOutagePage(redactor.redact(storeUnavailableDetail(err))));
        return;
      }
      sendProblem(
        res,
        503,
        storeUnavailableDetail(err),
        instance,
        { 'retry-after': String(STORE_RETRY_AFTER_S) },
        { title: 'Service Unavailable', store: err.store },
      );
      return;
    }
    if (client === false) return;
    if (isApi || isConsole) {
      // The console's policy, before anything is forwarded or answered: the person's roles against the
      // operation's permission and organization; every write is recorded with who made it.
      const principal = principalOfRequest(req);
      if (principal && req.method !== 'OPTIONS') {
        const decision = decide(policy.current(), principal, req.method ?? 'GET', instance);
        if (!decision.allowed) {
          req.resume();
          if (isWrite(req.method)) {
            await recordRefused(
              store.activity,
              { principal, op: decision.op, grant: null, path: instance },
              req.method ?? 'POST',
              clock(),
            ).catch(activityFailed);
          }
          sendProblem(
            res,
            403,
            decision.detail,
            instance,
            {},
            {
              type: POLICY_REFUSED_TYPE,
              title: "Refused by the console's policy",
              permission: decision.permission,
              organization: decision.org,
              operation_id: decision.op?.id ?? null,
              roles: principal.roles.map((r) => r.role),
            },
          );
          return;
        }
        if (isWrite(req.method)) {
          recordWhenAnswered(
            store.activity,
            req,
            res,
            { principal, op: decision.op, grant: decision.grant?.grant ?? null, path: instance },
            clock,
            activityFailed,
          );
        }
      }
      if (req.method === 'OPTIONS') {
        // No CORS grant is ever sent: a preflight gets a problem body and no Access-Control-* headers.
        sendProblem(res, 403, 'Cross-origin requests are not allowed', instance);
        return;
      }
      // JSON only, except a multipart upload to the attachment path (see bodyRefusal).
      const refusal = bodyRefusal(req.method ?? 'GET', target, req.headers);
      if (refusal) {
        sendProblem(res, refusal.status, refusal.detail, instance);
        return;
      }
    }
    if (isApi) {
      const upstreamPath = toUpstreamPath(target);
      if (!upstreamPath) {
        sendProblem(res, 404, `Not an API path the console forwards: ${instance}`, instance);
        return;
      }
      const guarded = guardedSetOf(req.method ?? 'GET', upstreamPath);
      if (guarded?.kind === 'ip-access-list') {
        // A list written here could lock the console out: only the guarded endpoint checks that.
        req.resume();
        sendProblem(
          res,
          403,
          `The IP access list is changed through the console's guarded endpoint (${GUARDED_IP_ACCESS_LIST}), which refuses a list that would lock the console out. Nothing was sent to the API.`,
          instance,
          {},
          { type: GUARDED_SET_TYPE, title: 'Use the guarded endpoint', guarded_endpoint: GUARDED_IP_ACCESS_LIST },
        );
        return;
      }
      if (guarded?.kind === 'git-permissions') {
        // Under the organization's lock, as the console's own changes: a bulk change never silently undoes it.
        store.locks
          .run(
            'git-permissions',
            guarded.orgId,
            () =>
              new Promise<void>((resolve) => {
                res.once('close', resolve);
                forwarder.forward(req, res, upstreamPath, instance, client);
              }),
          )
          .catch(() => {
            if (res.headersSent) return res.destroy();
            req.resume();
            sendProblem(res, 503, 'Another change to these git permissions is still running: try again', instance, {
              'retry-after': '5',
            });
          });
        return;
      }
      forwarder.forward(req, res, upstreamPath, instance, client);
      return;
    }
    if (isConsole) {
      // Refused before anything is read; a chunked body is cut off at the same limit while it is read.
      if (Number(req.headers['content-length'] ?? 0) > CONSOLE_MAX_BODY_BYTES) {
        req.resume();
        sendProblem(res, 413, `The request body is larger than ${CONSOLE_MAX_BODY_BYTES} bytes`, instance, {
          connection: 'close',
        });
        return;
      }
      void consoleListener(req, res);
      return;
    }
    if (opts.serveApp) {
      opts.serveApp(req, res, instance);
      return;
    }
    sendProblem(res, 404, `Nothing is served at ${instance}`, instance);
  };

  /** `/console/livez` (200 while the process answers) and `/console/readyz` (store and API, each with since when). */
  async function answerProbe(req: IncomingMessage, res: ServerResponse, path: string) {
    const uptime_s = Math.round((Date.now() - startedAt) / 1000);
    const send = (status: number, type: string, body: object, headers: Record<string, string> = {}) => {
      const text = redactor.redact(JSON.stringify(body));
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (path === LIVEZ_PATH) {
      send(200, 'application/json', { status: 'alive', uptime_s });
      return;
    }
    const r = await readiness.check();
    if (r.ready) {
      send(200, 'application/json', { status: 'ready', uptime_s, store: r.store, upstream: r.upstream });
      return;
    }
    const down = [
      r.store.state !== 'ok'
        ? `its store (${r.store.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}: ${r.store.error ?? 'unavailable'})`
        : null,
      r.upstream.state !== 'ok' ? `the API (${r.upstream.error ?? 'unavailable'})` : null,
    ].filter(Boolean);
    send(
      503,
      'application/problem+json',
      {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: `This console replica is not ready: it cannot reach ${down.join(' nor ')}. It answers 200 here again by itself once ${down.length > 1 ? 'both are' : 'it is'} back.`,
        instance: path,
        status_text: 'not_ready',
        uptime_s,
        store: r.store,
        upstream: r.upstream,
      },
      { 'retry-after': String(STORE_RETRY_AFTER_S) },
    );
  }

  const server = createNodeServer(
    tls,
    { maxHeaderSize: 16 * 1024, requestTimeout: 60_000, headersTimeout: 20_000 },
    (req, res) => {
      if (tls) res.setHeader('strict-transport-security', HSTS);
      if (log) {
        const started = performance.now();
        res.on('finish', () => {
          const ms = performance.now() - started;
          // One line per request: method, path (no query), status, duration; nothing from bodies or headers.
          log(redactor.redact(`${req.method} ${instanceOf(req.url)} ${res.statusCode} ${ms.toFixed(1)}ms`));
        });
      }
      handle(req, res).catch((err: unknown) => {
        console.error('[console] request failed:', err instanceof Error ? err.message : 'unknown error');
        if (res.headersSent) res.destroy();
        else sendProblem(res, 500, 'The console server failed while handling this request', instanceOf(req.url));
      });
    },
  );
  answerClientErrors(server as Server);

  return {
    server,
    store,
    policy,
    signInLink: (name) => access.issueLink(name),
    newSignInLink: (name) => access.newLink(name),
    listen: async () => {
      // The start's sign-in housekeeping first (a failure there is logged; requests then answer for the store).
      await access.ready.catch(() => undefined);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          const port = (server.address() as AddressInfo).port;
          // With PORT=0 the served port is only known now.
          allowedHosts = allowedHostHeaders(port, hostNames);
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          // From now on a lost database is an outage worth a log line, and orphans are looked for.
          store.markServing();
          reconciler.start(reconcileEveryMs);
          resolve({ url: `${tls ? 'https' : 'http'}://${host === '127.0.0.1' ? 'localhost' : host}:${port}`, port });
        });
      });
    },
    reconcile: () => reconciler.runOnce(),
    close: () =>
      new Promise<void>((resolve) => {
        reconciler.stop();
        policy.close();
        forwarder.close();
        server.close(() => {
          void store.close().then(resolve, resolve);
        });
        server.closeAllConnections();
      }),
  };
}
