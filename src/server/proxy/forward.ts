/**
 * The credential-adding proxy. Node's `http.request` with a keep-alive agent (several times cheaper than
 * fetch per request, see TOOLCHAIN.md), streaming both ways, with a whitelist of headers in each direction.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { sendProblem } from '../problem-reply';

/** Request headers passed to the upstream; everything else (cookies, proxy-*, hop-by-hop, forwarding) is dropped. */
const REQUEST_HEADERS = new Set([
  'accept',
  'accept-language',
  'content-type',
  'content-length',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'x-request-id',
]);

/** Response headers passed back to the browser; `set-cookie` and hop-by-hop headers never are. */
const RESPONSE_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'retry-after',
  'location',
  'etag',
  'last-modified',
  'cache-control',
  'vary',
  'www-authenticate',
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);

export interface Upstream {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxConnections: number;
}

export interface Forwarder {
  forward(req: IncomingMessage, res: ServerResponse, upstreamPath: string, instance: string): void;
  close(): void;
}

export function createForwarder(upstream: Upstream): Forwarder {
  const base = new URL(upstream.baseUrl);
  const isHttps = base.protocol === 'https:';
  const basePath = base.pathname.replace(/\/+$/, '');
  const agentOpts = { keepAlive: true, maxSockets: upstream.maxConnections, maxFreeSockets: 16, timeout: 60_000 };
  const agent = isHttps ? new https.Agent(agentOpts) : new http.Agent(agentOpts);
  const request = isHttps ? https.request : http.request;
  const authorization = `Bearer ${upstream.apiKey}`;

  return {
    forward(req, res, upstreamPath, instance) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (REQUEST_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
      }
      headers.authorization = authorization;
      headers['accept-encoding'] = 'identity';

      let settled = false;
      const fail = (status: number, detail: string) => {
        if (settled) return;
        settled = true;
        upReq.destroy();
        sendProblem(res, status, detail, instance);
      };

      const upReq = request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port || (isHttps ? 443 : 80),
          method: req.method,
          path: basePath + upstreamPath,
          headers,
          agent,
        },
        (upRes) => {
          if (settled) {
            upRes.resume();
            return;
          }
          settled = true;
          clearTimeout(timer);
          const out: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(upRes.headers)) {
            if (RESPONSE_HEADERS.has(name) && value !== undefined) out[name] = value;
          }
          out['cache-control'] ??= 'no-store';
          res.writeHead(upRes.statusCode ?? 502, out);
          upRes.pipe(res);
          upRes.on('error', () => res.destroy());
          upRes.on('aborted', () => res.destroy());
        },
      );
      const timer = setTimeout(
        () => fail(504, `The Agent Platform API did not answer within ${upstream.timeoutMs} ms`),
        upstream.timeoutMs,
      );
      upReq.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const why = err.code === 'ECONNREFUSED' ? 'refused the connection' : err.code === 'ENOTFOUND' ? 'host was not found' : `failed (${err.code ?? 'connection error'})`;
        fail(502, `The Agent Platform API at ${base.host} could not be reached: ${why}`);
      });
      res.on('close', () => {
        clearTimeout(timer);
        if (!res.writableFinished) upReq.destroy();
      });
      req.pipe(upReq);
    },
    close() {
      agent.destroy();
    },
  };
}
