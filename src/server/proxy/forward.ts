/**
 * The credential-adding proxy. Node's `http.request` with a keep-alive agent (several times cheaper than
 * fetch per request, see TOOLCHAIN.md), with a whitelist of headers in each direction, a fair share of the
 * upstream connections per client, and the credential redacted from every answer whatever its encoding.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { sendProblem } from '../../node/problem-writer';
import type { Redactor } from '../redact';
import { createFairGate, GateFull } from './fair-gate';

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

/**
 * Set on every proxied answer: the browser never sniffs a type, and whatever the upstream sends (say, a
 * `text/html` page) cannot run script or reach the console's origin if opened.
 */
export const PROXIED_ANSWER_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
} as const;

export interface Upstream {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxConnections: number;
  /** Most connections one client may hold; the rest of its calls wait their turn. */
  maxPerClient?: number;
  /** Largest request body forwarded (413 beyond). */
  maxBodyBytes?: number;
  redactor: Redactor;
}

/** Largest request body the proxy forwards. */
export const MAX_REQUEST_BODY_BYTES = 1_048_576;
/** API answers are small JSON pages; anything larger is refused rather than held in memory. */
const MAX_RESPONSE_BYTES = 16 * 1_048_576;

export interface Forwarder {
  forward(req: IncomingMessage, res: ServerResponse, upstreamPath: string, instance: string, client: string): void;
  close(): void;
}

/** The answer as bytes the browser can read and the redactor can search: decoded from its content encoding. */
function decode(body: Buffer, encoding: string | undefined): Buffer | null {
  const enc = (encoding ?? 'identity').trim().toLowerCase();
  const opts = { maxOutputLength: MAX_RESPONSE_BYTES };
  try {
    if (enc === '' || enc === 'identity') return body;
    if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(body, opts);
    if (enc === 'deflate') return inflateSync(body, opts);
    if (enc === 'br') return brotliDecompressSync(body, opts);
  } catch {
    return null;
  }
  return null;
}

export function createForwarder(upstream: Upstream): Forwarder {
  const base = new URL(upstream.baseUrl);
  const isHttps = base.protocol === 'https:';
  const basePath = base.pathname.replace(/\/+$/, '');
  const agentOpts = { keepAlive: true, maxSockets: upstream.maxConnections, maxFreeSockets: 16, timeout: 60_000 };
  const agent = isHttps ? new https.Agent(agentOpts) : new http.Agent(agentOpts);
  const request = isHttps ? https.request : http.request;
  const authorization = `Bearer ${upstream.apiKey}`;
  const { redactor } = upstream;
  const gate = createFairGate({
    total: upstream.maxConnections,
    perClient: upstream.maxPerClient ?? Math.max(1, Math.floor(upstream.maxConnections / 4)),
  });

  return {
    forward(req, res, upstreamPath, instance, client) {
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
      let upReq: http.ClientRequest | undefined;
      let release: (() => void) | undefined;
      const waiting = new AbortController();
      const finish = () => {
        clearTimeout(timer);
        release?.();
        release = undefined;
      };
      const fail = (status: number, detail: string, extra: Record<string, string> = {}) => {
        if (settled) return;
        settled = true;
        finish();
        waiting.abort();
        upReq?.destroy();
        sendProblem(res, status, detail, instance, { ...PROXIED_ANSWER_HEADERS, ...extra });
      };
      const timer = setTimeout(
        () => fail(504, `The Agent Platform API did not answer within ${upstream.timeoutMs} ms`),
        upstream.timeoutMs,
      );
      res.on('close', () => {
        if (res.writableFinished) return;
        // The browser went away: stop waiting, free the connection.
        settled = true;
        finish();
        waiting.abort();
        upReq?.destroy();
      });

      // Buffer the request body while waiting for a connection (bounded by maxBody), so a slow sender never
      // holds an upstream connection.
      const bodyChunks: Buffer[] = [];
      let sent = 0;
      let bodyDone = false;
      let onBodyDone: (() => void) | undefined;
      req.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        if (sent > maxBody) {
          req.removeAllListeners('data');
          req.resume();
          fail(413, `The request body is larger than ${maxBody} bytes`, { connection: 'close' });
          return;
        }
        bodyChunks.push(chunk);
      });
      req.on('end', () => {
        bodyDone = true;
        onBodyDone?.();
      });
      req.on('error', () => fail(400, 'The request body could not be read'));

      gate.acquire(client, waiting.signal).then(
        (rel) => {
          if (settled) {
            rel();
            return;
          }
          release = rel;
          const send = () => {
            if (!settled) start(Buffer.concat(bodyChunks));
          };
          if (bodyDone) send();
          else onBodyDone = send;
        },
        (err: unknown) => {
          if (err instanceof GateFull) {
            fail(429, 'Too many of your calls are waiting for the Agent Platform API; retry shortly', {
              'retry-after': '1',
            });
          }
        },
      );

      function start(body: Buffer) {
        if (body.length > 0) headers['content-length'] = String(body.length);
        upReq = request(
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
            // Buffer the answer: it is small JSON, and buffering lets the credential be redacted from it,
            // whatever its encoding, should an upstream ever echo it.
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
              const decoded = decode(Buffer.concat(chunks), upRes.headers['content-encoding']);
              if (!decoded) {
                fail(502, 'The Agent Platform API answered in a content encoding the console cannot read');
                return;
              }
              settled = true;
              finish();
              const out: Record<string, string | string[]> = {};
              for (const [name, value] of Object.entries(upRes.headers)) {
                if (!RESPONSE_HEADERS.has(name) || value === undefined || name === 'content-length') continue;
                out[name] = Array.isArray(value) ? value.map(redactor.redact) : redactor.redact(value);
              }
              const answer = redactor.redactBuffer(decoded);
              out['cache-control'] ??= 'no-store';
              out['content-length'] = String(answer.length);
              Object.assign(out, PROXIED_ANSWER_HEADERS);
              res.writeHead(upRes.statusCode ?? 502, out);
              res.end(answer);
            });
          },
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
        upReq.end(body.length > 0 ? body : undefined);
      }
    },
    close() {
      agent.destroy();
    },
  };
}
