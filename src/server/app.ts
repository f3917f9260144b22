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
import { createPolicyGate, type PolicyGate } from './policy/gate';
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
import { createUpstreamClient, type UpstreamClient } from './console/upstream-client';
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

/** What serving a request needs, made once per server. */
interface ServerParts {
  opts: ConsoleServerOptions;
  startedAt: number;
  redactor: ReturnType<typeof createRedactor>;
  forwarder: ReturnType<typeof createForwarder>;
  store: ConsoleStore;
  readiness: ReturnType<typeof createReadiness>;
  reconciler: ReturnType<typeof createReconciler>;
  consoleListener: RequestListener;
  /** The Host headers answered: known once the port is (PORT=0 binds any free one). */
  hosts: { names: string[]; allowed: ReturnType<typeof allowedHostHeaders> };
  tls: { cert: Buffer; key: Buffer } | undefined;
  policy: PolicyHolder;
  access: ReturnType<typeof createAccessControl>;
  gate: PolicyGate;
}

/** The console's own store, redacting what it writes (the credential never reaches the disk). */
function openStore(opts: ConsoleServerOptions, redactor: ReturnType<typeof createRedactor>): ConsoleStore {
  if (!opts.store && opts.config.databaseUrl) {
    throw new Error(
      'DATABASE_URL is set: open the PostgreSQL store first (openConsoleStoreFor) and pass it as `store`',
    );
  }
  return redactingStore(
    opts.store ?? openSqliteConsoleStore(opts.config.dataDir, storeOptionsOf(opts.config)),
    redactor,
  );
}

/** The policy in force, and the access control that signs people in and gives them its roles. */
function createPolicyAndAccess(
  opts: ConsoleServerOptions,
  store: ConsoleStore,
  secure: boolean,
  upstream: UpstreamClient,
) {
  const { config } = opts;
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
    secure,
    now: opts.now,
    policy: () => policy.current(),
  });
  const gate = createPolicyGate({
    policy: () => policy.current(),
    activity: store.activity,
    now: opts.now ?? Date.now,
    // A role a person grants is checked against the API's roles, read with the console's credential.
    upstream,
  });
  return { policy, access, gate };
}

function createParts(opts: ConsoleServerOptions): ServerParts {
  const { config } = opts;
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
  const store = openStore(opts, redactor);
  const upstreamClient = createUpstreamClient({ ...opts.upstream, timeoutMs: config.upstreamTimeoutMs, redactor });
  const readiness = createReadiness({
    storeHealth: () => store.health(),
    upstream: opts.upstream,
    cacheMs: opts.readinessCacheMs,
  });
  const reconciler = createReconciler({ store, upstream: upstreamClient });
  const consoleApp = createConsoleApp({
    config,
    upstream: upstreamClient,
    upstreamUrl: opts.upstream.baseUrl,
    startedAt,
    store,
    redactor,
    apiKey: opts.upstream.apiKey,
  });
  const names = [
    ...config.allowedHosts,
    ...(config.host !== '0.0.0.0' && config.host !== '::'
      ? [config.host.includes(':') ? `[${config.host}]` : config.host]
      : []),
  ];
  const tls =
    config.tlsCertFile && config.tlsKeyFile
      ? { cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile) }
      : undefined;
  return {
    opts,
    startedAt,
    redactor,
    forwarder,
    store,
    readiness,
    reconciler,
    consoleListener: getRequestListener(consoleApp.fetch),
    hosts: { names, allowed: allowedHostHeaders(config.port, names) },
    tls,
    ...createPolicyAndAccess(opts, store, tls !== undefined, upstreamClient),
  };
}

/** The store is down while checking who is signed in: nobody is let in, and a browser gets a page it can read. */
function answerStoreOutage(
  p: ServerParts,
  req: IncomingMessage,
  res: ServerResponse,
  err: StoreUnavailable,
  instance: string,
  isEndpoint: boolean,
) {
  req.resume();
  if (!isEndpoint && wantsHtml(req)) {
    res.writeHead(503, {
      'content-type': 'text/html; charset=utf-8',
      'retry-after': String(STORE_RETRY_AFTER_S),
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : storeOutagePage(p.redactor.redact(storeUnavailableDetail(err))));
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
}

/**
 * The client the request belongs to (its sign-in session, or address: for the fair share of the pool), or false
 * when it was answered here (sign-in pages, not signed in, the store down).
 */
async function admitClient(
  p: ServerParts,
  req: IncomingMessage,
  res: ServerResponse,
  instance: string,
  isEndpoint: boolean,
): Promise<string | false> {
  try {
    return await p.access.check(req, res, instance);
  } catch (err) {
    if (!(err instanceof StoreUnavailable) || res.headersSent) throw err;
    // Sessions live in the store: without it nobody can be let in, and nobody is let in by mistake.
    answerStoreOutage(p, req, res, err, instance, isEndpoint);
    return false;
  }
}

/** Why an `/api` or `/console` request is refused as cross-site, if it is. */
function crossSiteRefusal(p: ServerParts, req: IncomingMessage, instance: string): string | null {
  // The provider sends the browser back to the callback from its own site (a top-level GET): that request
  // is cross-site by nature, and its single-use state is what ties it to a sign-in started here.
  const oidcReturn = instance === OIDC_CALLBACK_PATH && (req.method === 'GET' || req.method === 'HEAD');
  return oidcReturn ? null : crossSiteReason(req.headers, p.hosts.allowed);
}

/** An API path: forwarded with the credential, except what must go through the console's guarded endpoints. */
function forwardApi(
  p: ServerParts,
  req: IncomingMessage,
  res: ServerResponse,
  target: string,
  instance: string,
  client: string,
) {
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
    p.store.locks
      .run(
        'git-permissions',
        guarded.orgId,
        () =>
          new Promise<void>((resolve) => {
            res.once('close', resolve);
            p.forwarder.forward(req, res, upstreamPath, instance, client);
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
  p.forwarder.forward(req, res, upstreamPath, instance, client);
}

/** A console endpoint: its body bounded before anything is read, then the console's own app. */
function answerConsole(p: ServerParts, req: IncomingMessage, res: ServerResponse, instance: string) {
  // Refused before anything is read; a chunked body is cut off at the same limit while it is read.
  if (Number(req.headers['content-length'] ?? 0) > CONSOLE_MAX_BODY_BYTES) {
    req.resume();
    sendProblem(res, 413, `The request body is larger than ${CONSOLE_MAX_BODY_BYTES} bytes`, instance, {
      connection: 'close',
    });
    return;
  }
  void p.consoleListener(req, res);
}

/**
 * What an `/api` or `/console` request must pass once its person is known: the console's policy (and the
 * record of a write), no CORS preflight, a body the console accepts. False when it was answered here.
 */
async function passesEndpointChecks(
  p: ServerParts,
  req: IncomingMessage,
  res: ServerResponse,
  target: string,
  instance: string,
): Promise<boolean> {
  // The console's policy, before anything is forwarded or answered: the person's roles against the
  // operation's permission and organization; every write is recorded with who made it.
  if (!(await p.gate.admit(req, res, instance))) return false;
  if (req.method === 'OPTIONS') {
    // No CORS grant is ever sent: a preflight gets a problem body and no Access-Control-* headers.
    sendProblem(res, 403, 'Cross-origin requests are not allowed', instance);
    return false;
  }
  // JSON only, except a multipart upload to the attachment path (see bodyRefusal).
  const refusal = bodyRefusal(req.method ?? 'GET', target, req.headers);
  if (refusal) {
    sendProblem(res, refusal.status, refusal.detail, instance);
    return false;
  }
  return true;
}

/** One request, step by step: arrival checks, probes, sign-in, policy, then the proxy, the console or the app. */
function createHandler(p: ServerParts, answerProbe: ReturnType<typeof createProbeAnswer>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    const instance = instanceOf(target);
    const isApi = target.startsWith('/api/') || target === '/api';
    const isConsole = target.startsWith('/console/') || target === '/console';
    if (!isAllowedHost(req.headers, p.hosts.allowed)) {
      sendProblem(res, 403, 'Unknown Host header: the console answers only to its configured host names', instance);
      return;
    }
    if ((instance === LIVEZ_PATH || instance === READYZ_PATH) && (req.method === 'GET' || req.method === 'HEAD')) {
      req.resume();
      await answerProbe(req, res, instance);
      return;
    }
    const refused = isApi || isConsole ? crossSiteRefusal(p, req, instance) : null;
    if (refused) {
      sendProblem(res, 403, refused, instance);
      return;
    }
    const client = await admitClient(p, req, res, instance, isApi || isConsole);
    if (client === false) return;
    if ((isApi || isConsole) && !(await passesEndpointChecks(p, req, res, target, instance))) return;
    if (isApi) return forwardApi(p, req, res, target, instance, client);
    if (isConsole) return answerConsole(p, req, res, instance);
    if (p.opts.serveApp) return p.opts.serveApp(req, res, instance);
    sendProblem(res, 404, `Nothing is served at ${instance}`, instance);
  };
}

/** `/console/livez` (200 while the process answers) and `/console/readyz` (store and API, each with since when). */
function createProbeAnswer(p: Pick<ServerParts, 'readiness' | 'redactor' | 'startedAt'>) {
  return async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const uptime_s = Math.round((Date.now() - p.startedAt) / 1000);
    const send = (status: number, type: string, body: object, headers: Record<string, string> = {}) => {
      const text = p.redactor.redact(JSON.stringify(body));
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (path === LIVEZ_PATH) {
      send(200, 'application/json', { status: 'alive', uptime_s });
      return;
    }
    const r = await p.readiness.check();
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
  };
}

/** The Node server around the handler: HSTS over TLS, the request log line, a failed handler's 500. */
function createServing(p: ServerParts, log: ((line: string) => void) | undefined): Server | HttpsServer {
  const handle = createHandler(p, createProbeAnswer(p));
  const server = createNodeServer(
    p.tls,
    { maxHeaderSize: 16 * 1024, requestTimeout: 60_000, headersTimeout: 20_000 },
    (req, res) => {
      if (p.tls) res.setHeader('strict-transport-security', HSTS);
      if (log) {
        const started = performance.now();
        res.on('finish', () => {
          const ms = performance.now() - started;
          // One line per request: method, path (no query), status, duration; nothing from bodies or headers.
          log(p.redactor.redact(`${req.method} ${instanceOf(req.url)} ${res.statusCode} ${ms.toFixed(1)}ms`));
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
  return server;
}

export function createConsoleServer(opts: ConsoleServerOptions): ConsoleServer {
  const { config } = opts;
  const p = createParts(opts);
  const { store, access, policy, reconciler, tls } = p;
  const reconcileEveryMs = (config.reconcileIntervalS ?? 15) * 1000;
  const server = createServing(p, opts.log);
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
          p.hosts.allowed = allowedHostHeaders(port, p.hosts.names);
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
        p.forwarder.close();
        server.close(() => {
          void store.close().then(resolve, resolve);
        });
        server.closeAllConnections();
      }),
  };
}
