/**
 * The console server: one Node HTTP server that guards every request, proxies API paths with the
 * credential, answers the console's own endpoints and serves the app.
 */
import { getRequestListener } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config';
import { createConsoleApp } from './console';
import { createAccessControl } from './access';
import { openConsoleStore } from './console/store';
import { createUpstreamClient } from './console/upstream-client';
import { answerClientErrors, instanceOf, sendProblem } from './problem-reply';
import { createForwarder } from './proxy/forward';
import { allowedHostHeaders, bodyTypeProblem, crossSiteReason, isAllowedHost, toUpstreamPath } from './proxy/guards';

export interface ConsoleServerOptions {
  config: Config;
  /** The API the proxy talks to: the configured upstream, or the embedded sandbox. */
  upstream: { baseUrl: string; apiKey: string };
  /** Serves everything that is not `/api` or `/console` (the built app, or Vite in dev). */
  serveApp?: (req: IncomingMessage, res: ServerResponse, pathname: string) => void;
  /** One line per request; off in tests unless asked for. */
  log?: (line: string) => void;
}

export interface ConsoleServer {
  server: Server;
  listen(): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
}

export function createConsoleServer(opts: ConsoleServerOptions): ConsoleServer {
  const { config } = opts;
  const startedAt = Date.now();
  const forwarder = createForwarder({
    baseUrl: opts.upstream.baseUrl,
    apiKey: opts.upstream.apiKey,
    timeoutMs: config.upstreamTimeoutMs,
    maxConnections: config.maxUpstreamConnections,
  });
  const consoleDb = openConsoleStore(config.dataDir);
  const upstreamClient = createUpstreamClient({ ...opts.upstream, timeoutMs: config.upstreamTimeoutMs });
  const consoleApp = createConsoleApp({
    config,
    upstream: upstreamClient,
    upstreamUrl: opts.upstream.baseUrl,
    startedAt,
    db: consoleDb,
  });
  const consoleListener = getRequestListener(consoleApp.fetch);
  const hostNames = [
    ...config.allowedHosts,
    ...(config.host !== '0.0.0.0' && config.host !== '::'
      ? [config.host.includes(':') ? `[${config.host}]` : config.host]
      : []),
  ];
  let allowedHosts = allowedHostHeaders(config.port, hostNames);
  const access = createAccessControl(config.accessToken);

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    const instance = instanceOf(target);
    if (!isAllowedHost(req.headers, allowedHosts)) {
      sendProblem(res, 403, 'Unknown Host header: the console answers only to its configured host names', instance);
      return;
    }
    const isApi = target.startsWith('/api/') || target === '/api';
    const isConsole = target.startsWith('/console/') || target === '/console';
    if (isApi || isConsole) {
      const crossSite = crossSiteReason(req.headers, allowedHosts);
      if (crossSite) {
        sendProblem(res, 403, crossSite, instance);
        return;
      }
    }
    if (!access.check(req, res, instance)) return;
    if (isApi || isConsole) {
      if (req.method === 'OPTIONS') {
        // No CORS grant is ever sent: a preflight gets a problem body and no Access-Control-* headers.
        sendProblem(res, 403, 'Cross-origin requests are not allowed', instance);
        return;
      }
      const typeProblem = bodyTypeProblem(req.method ?? 'GET', req.headers);
      if (typeProblem) {
        sendProblem(res, 415, typeProblem, instance);
        return;
      }
    }
    if (isApi) {
      const upstreamPath = toUpstreamPath(target);
      if (!upstreamPath) {
        sendProblem(res, 404, `Not an API path the console forwards: ${instance}`, instance);
        return;
      }
      forwarder.forward(req, res, upstreamPath, instance);
      return;
    }
    if (isConsole) {
      void consoleListener(req, res);
      return;
    }
    if (opts.serveApp) {
      opts.serveApp(req, res, instance);
      return;
    }
    sendProblem(res, 404, `Nothing is served at ${instance}`, instance);
  };

  const server = createServer(
    { maxHeaderSize: 16 * 1024, requestTimeout: 60_000, headersTimeout: 20_000 },
    (req, res) => {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        if (!opts.log) return;
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        opts.log(`${req.method} ${instanceOf(req.url)} ${res.statusCode} ${ms.toFixed(1)}ms`);
      });
      try {
        handle(req, res);
      } catch (err) {
        console.error('[console] request failed:', err instanceof Error ? err.message : 'unknown error');
        sendProblem(res, 500, 'The console server failed while handling this request', instanceOf(req.url));
      }
    },
  );
  answerClientErrors(server);

  return {
    server,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          const port = (server.address() as AddressInfo).port;
          // With PORT=0 the served port is only known now.
          allowedHosts = allowedHostHeaders(port, hostNames);
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          resolve({ url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${port}`, port });
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        forwarder.close();
        server.close(() => {
          consoleDb.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
