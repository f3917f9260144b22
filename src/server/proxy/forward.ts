/**
 * The credential-adding proxy. Node's `http.request` with a keep-alive agent (several times cheaper than
 * fetch per request, see TOOLCHAIN.md), with a whitelist of headers in each direction, a fair share of the
 * upstream connections per client, and the credential redacted from every answer whatever its encoding.
 *
 * Per request it does only what it must: header rules, the fair gate (no promise unless the call waits), the
 * answer streamed through the redactor's byte scanner (which keeps its length, so Content-Length passes
 * through, and clears a body without a copy in about a microsecond per 2 KB; nothing is parsed), and the log
 * line the server writes. An answer the upstream compressed keeps its coding: to be searched it is read whole
 * (bounded) and decoded, then passed on byte for byte, or re-encoded when a copy had to be masked.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import {
  brotliCompressSync,
  brotliDecompressSync,
  deflateSync,
  gunzipSync,
  gzipSync,
  inflateSync,
  constants as zlib,
} from 'node:zlib';
import {
  ATTACHMENT_LIMITS,
  isAttachmentDownloadPath,
  isAttachmentUploadPath,
  parseAttachmentUrl,
} from '../../api/operations/attachments';
import { sendProblem } from '../../node/problem-writer';
import type { Redactor } from '../redact';
import { createFairGate } from './fair-gate';

/** Request headers passed to the upstream; everything else (cookies, proxy-*, hop-by-hop, forwarding) is dropped. */
const REQUEST_HEADERS = [
  'accept',
  'accept-language',
  'content-type',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'x-request-id',
] as const;

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
/** Largest multipart upload the proxy streams to the attachment path: the file limit and its envelope. */
export const MAX_UPLOAD_BYTES = ATTACHMENT_LIMITS.maxBytes + ATTACHMENT_LIMITS.envelopeBytes;
/** Redirects of a download the proxy follows (API → signed URL → a storage host's own redirect). */
const MAX_DOWNLOAD_HOPS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Where a download's redirect may lead: http(s) only, no user info, and never from https down to http (http only
 * when the API itself is plain http: the sandbox, a local test). Answers the URL, or a reason to refuse it.
 */
export function downloadTarget(location: string, from: URL, base: URL): URL | string {
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    return 'its Location is not a URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && base.protocol === 'http:')) {
    return `it leads to a ${url.protocol} URL`;
  }
  if (url.username || url.password) return 'its URL carries user information';
  return url;
}

/** `attachment; filename="…"; filename*=UTF-8''…` for the name of a download path. */
function downloadDisposition(upstreamPath: string): string {
  const name = parseAttachmentUrl(upstreamPath.split('?')[0]!)?.name ?? 'download';
  const plain = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
/** Largest compressed answer read whole to be searched, and largest it may decode to (502 beyond). */
const MAX_DECODED_BYTES = 16 * 1_048_576;

export interface Forwarder {
  forward(req: IncomingMessage, res: ServerResponse, upstreamPath: string, instance: string, client: string): void;
  close(): void;
}

type Coding = 'gzip' | 'deflate' | 'br';

/** The content codings the proxy can decode (to search an answer), by the names a Content-Encoding may use. */
const CODINGS = new Map<string, Coding>([
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['deflate', 'deflate'],
  ['br', 'br'],
]);

function decode(body: Buffer, coding: Coding): Buffer | null {
  const opts = { maxOutputLength: MAX_DECODED_BYTES };
  try {
    if (coding === 'gzip') return gunzipSync(body, opts);
    if (coding === 'deflate') return inflateSync(body, opts);
    return brotliDecompressSync(body, opts);
  } catch {
    return null;
  }
}

function encode(body: Buffer, coding: Coding): Buffer {
  if (coding === 'gzip') return gzipSync(body);
  if (coding === 'deflate') return deflateSync(body);
  return brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
}

/**
 * The Accept-Encoding sent upstream: the codings of the browser's header the proxy can decode, so the
 * upstream may compress and the browser still receives its choice unchanged. Memoized: a browser sends the
 * same header on every call.
 */
const upstreamAcceptEncoding = (() => {
  const memo = new Map<string, string>();
  return (header: string | undefined): string => {
    if (header === undefined) return 'identity';
    let value = memo.get(header);
    if (value === undefined) {
      const accepted = header
        .split(',')
        .map((part) => part.trim().toLowerCase().split(';'))
        .filter(([name, ...params]) => {
          const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
          return CODINGS.has(name!) && (q === undefined || Number(q) > 0);
        })
        .map(([name]) => name!);
      value = accepted.length > 0 ? [...new Set(accepted)].join(', ') : 'identity';
      if (memo.size < 64) memo.set(header, value);
    }
    return value;
  };
})();

/** What every call shares: the agent, the gate, the credential and the header rules. */
interface Shared {
  upstream: Upstream;
  base: URL;
  basePath: string;
  port: string | number;
  agent: http.Agent;
  request: typeof http.request;
  authorization: string;
  gate: ReturnType<typeof createFairGate>;
  maxBody: number;
}

/**
 * One proxied call, from the browser's request to the end of the answer. A class with methods rather than a
 * function of closures: one is made per request, and the closures would each cost an allocation (and, under
 * tsx, a `name` definition) every time.
 */
class ProxyCall {
  /** The browser has its answer (or its problem), or has gone. */
  private settled = false;
  private upReq: http.ClientRequest | undefined;
  private release: (() => void) | undefined;
  private withdraw: (() => void) | false = false;
  private body: Buffer[] | undefined;
  private bodyDone = true;
  private readonly timer: NodeJS.Timeout;
  private readonly headers: Record<string, string>;
  /** A multipart upload: its body is streamed to the upstream (bounded while streaming), not read first. */
  private streamBody = false;
  /** An attachment download: a redirect is followed here, without the credential, rather than passed on. */
  private readonly download: boolean;
  private hops = 0;
  /** The URL the last redirect came from (relative Locations resolve against it). */
  private from: URL | undefined;

  constructor(
    private readonly s: Shared,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly path: string,
    private readonly instance: string,
  ) {
    const headers: Record<string, string> = {};
    for (const name of REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    headers.authorization = s.authorization;
    headers['accept-encoding'] = upstreamAcceptEncoding(req.headers['accept-encoding']);
    this.headers = headers;
    this.download = req.method === 'GET' && isAttachmentDownloadPath(path);
    this.timer = setTimeout(
      () => this.fail(504, `The Agent Platform API did not answer within ${s.upstream.timeoutMs} ms`),
      s.upstream.timeoutMs,
    );
    res.on('close', () => {
      if (res.writableFinished) return;
      // The browser went away: stop waiting, free the connection.
      this.settled = true;
      this.finish();
      this.upReq?.destroy();
    });
  }

  /**
   * A multipart upload (the attachment path only): the body goes to the upstream as it arrives, never held whole,
   * and is cut off with a 413 once it passes MAX_UPLOAD_BYTES. Unlike other calls it takes its connection before
   * the body is in; the timeout counts from the last byte received, so a slow upload that keeps moving finishes.
   */
  runUpload(client: string, declared: number): void {
    this.streamBody = true;
    if (declared > 0) this.headers['content-length'] = String(declared);
    this.run(client, false);
  }

  private pumpBody(upReq: http.ClientRequest): void {
    const { req } = this;
    let sent = 0;
    req.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      sent += chunk.length;
      if (sent > MAX_UPLOAD_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        this.fail(
          413,
          `The file is larger than the attachment limit (${ATTACHMENT_LIMITS.maxBytes.toLocaleString('en-US')} bytes)`,
          { connection: 'close' },
        );
        return;
      }
      this.timer.refresh();
      if (!upReq.write(chunk)) {
        req.pause();
        upReq.once('drain', () => req.resume());
      }
    });
    req.on('end', () => {
      if (!this.settled) upReq.end();
    });
    req.on('error', () => this.fail(400, 'The request body could not be read'));
  }

  run(client: string, hasBody: boolean): void {
    const { req } = this;
    // A request body is read whole (bounded by maxBody) before a connection is taken, so a slow sender
    // never holds an upstream connection; a call without one goes straight on.
    if (hasBody) {
      this.body = [];
      this.bodyDone = false;
      let sent = 0;
      req.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        if (sent > this.s.maxBody) {
          req.removeAllListeners('data');
          req.resume();
          this.fail(413, `The request body is larger than ${this.s.maxBody} bytes`, { connection: 'close' });
          return;
        }
        this.body!.push(chunk);
      });
      req.on('end', () => {
        this.bodyDone = true;
        if (this.release && !this.settled) this.start();
      });
      req.on('error', () => this.fail(400, 'The request body could not be read'));
    }
    this.withdraw = this.s.gate.enter(client, (release) => {
      this.withdraw = false;
      if (this.settled) {
        release();
        return;
      }
      this.release = release;
      if (this.bodyDone) this.start();
    });
    if (this.withdraw === false && !this.release && !this.settled) {
      this.fail(429, 'Too many of your calls are waiting for the Agent Platform API; retry shortly', {
        'retry-after': '1',
      });
    }
  }

  private finish(): void {
    clearTimeout(this.timer);
    if (this.withdraw) this.withdraw();
    this.withdraw = false;
    this.release?.();
    this.release = undefined;
  }

  private fail(status: number, detail: string, extra: Record<string, string> = {}): void {
    if (this.settled) return;
    this.settled = true;
    this.finish();
    this.upReq?.destroy();
    // Once the answer has begun, sendProblem cuts the connection: the browser sees it fail, not end.
    sendProblem(this.res, status, detail, this.instance, { ...PROXIED_ANSWER_HEADERS, ...extra });
  }

  private start(): void {
    const { s, body, headers } = this;
    const payload = body && body.length > 0 ? Buffer.concat(body) : undefined;
    if (payload) headers['content-length'] = String(payload.length);
    const upReq = s.request(
      {
        protocol: s.base.protocol,
        hostname: s.base.hostname,
        port: s.port,
        method: this.req.method,
        path: s.basePath + this.path,
        headers,
        agent: s.agent,
      },
      (upRes) => this.answer(upRes),
    );
    this.upReq = upReq;
    if (this.streamBody) {
      upReq.on('error', () => undefined);
      this.pumpBody(upReq);
    }
    upReq.on('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'ECONNREFUSED'
          ? 'it refused the connection'
          : err.code === 'ENOTFOUND'
            ? 'its host was not found'
            : err.code === 'ECONNRESET'
              ? 'it reset the connection'
              : `the connection failed (${err.code ?? 'error'})`;
      this.fail(502, `The Agent Platform API at ${s.base.host} could not be reached: ${why}`);
    });
    if (!this.streamBody) upReq.end(payload);
  }

  /**
   * A download's redirect, followed here: the signed URL is fetched without the credential and without any of
   * the browser's headers, so the credential never reaches its host; the browser gets the file from the console.
   */
  private follow(location: string): void {
    const target = downloadTarget(
      location,
      this.from ?? new URL(this.s.basePath + this.path, this.s.base),
      this.s.base,
    );
    if (typeof target === 'string') {
      this.fail(502, `The Agent Platform API redirected the download, but ${target}; the console does not follow it`);
      return;
    }
    this.hops += 1;
    this.from = target;
    const isHttps = target.protocol === 'https:';
    const request = isHttps ? https.request : http.request;
    // Only these two headers: no Authorization, no cookie, nothing of the browser's.
    const headers = { accept: '*/*', 'accept-encoding': this.headers['accept-encoding']! };
    const sideReq = request(target, { method: 'GET', headers }, (res) => this.answer(res));
    this.upReq = sideReq;
    sideReq.on('error', () => this.fail(502, `The download's signed URL at ${target.host} could not be reached`));
    sideReq.end();
  }

  private answer(upRes: IncomingMessage): void {
    if (this.settled) {
      upRes.resume();
      return;
    }
    const location = upRes.headers.location;
    if (this.download && REDIRECT_STATUSES.has(upRes.statusCode ?? 0) && location) {
      if (this.hops >= MAX_DOWNLOAD_HOPS) {
        upRes.resume();
        this.fail(502, 'The download was redirected too many times');
        return;
      }
      // The upstream's connection is free once this answer is read: give the slot back, keep the timer.
      upRes.on('close', () => {
        this.release?.();
        this.release = undefined;
      });
      upRes.resume();
      this.follow(location);
      return;
    }
    upRes.on('error', () => this.fail(502, 'The Agent Platform API closed the connection mid-answer'));
    // The connection is the upstream's again once its answer is read to the end (or broken off): only then
    // is the gate's slot given to the next call, which then finds the socket free in the agent.
    upRes.on('close', () => this.finish());
    const encoding = upRes.headers['content-encoding']?.trim().toLowerCase();
    const coding = encoding === undefined ? undefined : CODINGS.get(encoding);
    if (encoding === undefined || encoding === '' || encoding === 'identity') this.stream(upRes);
    else if (coding) this.whole(upRes, coding);
    else {
      upRes.resume();
      this.fail(502, 'The Agent Platform API answered in a content encoding the console cannot read');
    }
  }

  /** The upstream's headers the browser may see, redacted, with the proxy's own. */
  private headersOf(upRes: IncomingMessage): Record<string, string | string[]> {
    const { redactor } = this.s.upstream;
    const from = upRes.headers;
    const out: Record<string, string | string[]> = {};
    for (const name in from) {
      const value = from[name];
      if (value === undefined || !RESPONSE_HEADERS.has(name)) continue;
      out[name] = Array.isArray(value) ? value.map(redactor.redact) : redactor.redact(value);
    }
    out['cache-control'] ??= 'no-store';
    if (this.download && (upRes.statusCode ?? 0) < 300) {
      // A file is always saved, never shown on the console's origin.
      out['content-disposition'] = downloadDisposition(this.path);
      out['cache-control'] = 'no-store';
    }
    out['x-content-type-options'] = PROXIED_ANSWER_HEADERS['x-content-type-options'];
    out['content-security-policy'] = PROXIED_ANSWER_HEADERS['content-security-policy'];
    return out;
  }

  /** An answer as it is: streamed through the scanner, which keeps its length and so its Content-Length. */
  private stream(upRes: IncomingMessage): void {
    const { res } = this;
    const scanner = this.s.upstream.redactor.scanBody();
    const lengthHeader = upRes.headers['content-length'];
    const expected = lengthHeader === undefined ? -1 : Number(lengthHeader);
    let received = 0;
    res.writeHead(upRes.statusCode ?? 502, this.headersOf(upRes));
    upRes.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      received += chunk.length;
      if (received === expected) {
        // The whole answer is in: nothing is held back, and the browser has it now.
        this.settled = true;
        clearTimeout(this.timer);
        res.end(scanner.push(chunk, true));
        return;
      }
      const pass = scanner.push(chunk);
      if (pass.length > 0 && !res.write(pass)) {
        upRes.pause();
        res.once('drain', () => upRes.resume());
      }
    });
    upRes.on('end', () => {
      if (this.settled) return;
      this.settled = true;
      clearTimeout(this.timer);
      res.end(scanner.end());
    });
  }

  /** A compressed answer: read whole (bounded) and decoded to be searched; passed on unchanged when clean. */
  private whole(upRes: IncomingMessage, coding: Coding): void {
    const chunks: Buffer[] = [];
    let size = 0;
    upRes.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DECODED_BYTES) {
        this.fail(502, 'The Agent Platform API answered with a body too large to pass on');
        upRes.destroy();
        return;
      }
      chunks.push(chunk);
    });
    upRes.on('end', () => {
      if (this.settled) return;
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      const decoded = raw.length === 0 ? raw : decode(raw, coding);
      if (!decoded) {
        this.fail(502, 'The Agent Platform API answered in a content encoding the console cannot read');
        return;
      }
      const scanner = this.s.upstream.redactor.scanBody();
      const searched = scanner.push(decoded, true);
      // An upstream that answers in a coding the browser did not offer gets its answer decoded for it.
      const offered = this.headers['accept-encoding']!.split(', ').includes(coding);
      const answer = !offered ? searched : scanner.masked === 0 ? raw : encode(searched, coding);
      this.settled = true;
      this.finish();
      const out = this.headersOf(upRes);
      if (!offered) delete out['content-encoding'];
      out['content-length'] = String(answer.length);
      this.res.writeHead(upRes.statusCode ?? 502, out);
      this.res.end(answer);
    });
  }
}

/** A multipart body to the attachment upload path: the one body the proxy streams. */
function isMultipartUpload(req: IncomingMessage, upstreamPath: string): boolean {
  return /^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '') && isAttachmentUploadPath(upstreamPath);
}

export function createForwarder(upstream: Upstream): Forwarder {
  const base = new URL(upstream.baseUrl);
  const isHttps = base.protocol === 'https:';
  const agentOpts = { keepAlive: true, maxSockets: upstream.maxConnections, maxFreeSockets: 16, timeout: 60_000 };
  const agent = isHttps ? new https.Agent(agentOpts) : new http.Agent(agentOpts);
  const shared: Shared = {
    upstream,
    base,
    basePath: base.pathname.replace(/\/+$/, ''),
    port: base.port || (isHttps ? 443 : 80),
    agent,
    request: isHttps ? https.request : http.request,
    authorization: `Bearer ${upstream.apiKey}`,
    gate: createFairGate({
      total: upstream.maxConnections,
      perClient: upstream.maxPerClient ?? Math.max(1, Math.floor(upstream.maxConnections / 4)),
    }),
    maxBody: upstream.maxBodyBytes ?? MAX_REQUEST_BODY_BYTES,
  };

  return {
    forward(req, res, upstreamPath, instance, client) {
      const { maxBody } = shared;
      const lengthHeader = req.headers['content-length'];
      const declared = lengthHeader === undefined ? 0 : Number(lengthHeader);
      const hasBody = declared > 0 || req.headers['transfer-encoding'] !== undefined;
      const upload = hasBody && req.method === 'POST' && isMultipartUpload(req, upstreamPath);
      const limit = upload ? MAX_UPLOAD_BYTES : maxBody;
      if (declared > limit) {
        req.resume();
        sendProblem(
          res,
          413,
          upload
            ? `The file is larger than the attachment limit (${ATTACHMENT_LIMITS.maxBytes.toLocaleString('en-US')} bytes)`
            : `The request body is larger than ${maxBody} bytes`,
          instance,
          { connection: 'close' },
        );
        return;
      }
      const call = new ProxyCall(shared, req, res, upstreamPath, instance);
      if (upload) call.runUpload(client, declared);
      else call.run(client, hasBody);
    },
    close() {
      agent.destroy();
    },
  };
}
