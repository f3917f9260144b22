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
  /** Largest request body forwarded (413 beyond). */
  maxBodyBytes?: number;
}

/** Largest request body the proxy forwards. */
export const MAX_REQUEST_BODY_BYTES = 1_048_576;
/** API answers are small JSON pages; anything larger is refused rather than held in memory. */
const MAX_RESPONSE_BYTES = 16 * 1_048_576;
const REDACTED = '[redacted]';

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
      const maxBody = upstream.maxBodyBytes ?? MAX_REQUEST_BODY_BYTES;
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > maxBody) {
        req.resume();
        sendProblem(res, 413, `The request body is larger than ${maxBody} bytes`, instance, { connection: 'close' });
        return;
      }
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
        clearTimeout(timer);
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
          // Buffer the answer: it is small JSON, and buffering lets the credential be redacted from it
          // should an upstream ever echo it.
          const chunks: Buffer[] = [];
          let size = 0;
          upRes.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) {
              fail(502, 'The Agent Platform API answered with a body too large to pass on');
              upRes.destroy();
              return;
            }
            chunks.push(chunk);
          });
          upRes.on('error', () => fail(502, 'The Agent Platform API closed the connection mid-answer'));
          upRes.on('aborted', () => fail(502, 'The Agent Platform API closed the connection mid-answer'));
          upRes.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            let body = Buffer.concat(chunks);
            if (body.includes(upstream.apiKey)) {
              body = Buffer.from(body.toString('utf8').split(upstream.apiKey).join(REDACTED));
            }
            const out: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(upRes.headers)) {
              if (!RESPONSE_HEADERS.has(name) || value === undefined || name === 'content-length') continue;
              out[name] = Array.isArray(value)
                ? value.map((v) => v.split(upstream.apiKey).join(REDACTED))
                : value.split(upstream.apiKey).join(REDACTED);
            }
            out['cache-control'] ??= 'no-store';
            out['content-length'] = String(body.length);
            res.writeHead(upRes.statusCode ?? 502, out);
            res.end(body);
          });
        },
      );
      const timer = setTimeout(
        () => fail(504, `The Agent Platform API did not answer within ${upstream.timeoutMs} ms`),
        upstream.timeoutMs,
      );
      upReq.on('error', (err: NodeJS.ErrnoException) => {
        const why =
          err.code === 'ECONNREFUSED'
            ? 'it refused the connection'
            : err.code === 'ENOTFOUND'
              ? 'its host was not found'
              : err.code === 'ECONNRESET'
                ? 'it reset the connection'
                : `the connection failed (${err.code ?? 'error'})`;
        fail(502, `The Agent Platform API at ${base.host} could not be reached: ${why}`);
      });
      res.on('close', () => {
        clearTimeout(timer);
        if (!res.writableFinished) upReq.destroy();
      });
      let sent = 0;
      req.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        if (sent > maxBody) {
          req.unpipe(upReq);
          fail(413, `The request body is larger than ${maxBody} bytes`);
        }
      });
      req.pipe(upReq);
    },
    close() {
      agent.destroy();
    },
  };
}
