/**
 * The credential-adding proxy. undici's `Pool.dispatch` to the upstream: measured here at about half the CPU per
 * call of `http.request` with a keep-alive agent (which is itself several times cheaper than fetch, see
 * TOOLCHAIN.md), with a whitelist of headers in each direction, a fair share of the upstream connections per
 * client, and the credential redacted from every answer whatever its encoding.
 *
 * Per request it does only what it must: header rules, the fair gate (no promise unless the call waits), the
 * answer streamed through the redactor's byte scanner (which keeps its length, so Content-Length passes
 * through, and clears a body without a copy in about a microsecond per 2 KB; nothing is parsed), and the log
 * line the server writes. An answer the upstream compressed keeps its coding: to be searched it is read whole
 * (bounded) and decoded, then passed on byte for byte, or re-encoded when a copy had to be masked.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
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
import { Agent, Pool, type Dispatcher } from 'undici';
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
  /** The slowest an upload may arrive (see MIN_UPLOAD_RATE); tests make it quick. */
  minUploadRate?: { bytesPerSecond: number; windowMs: number };
  redactor: Redactor;
}

/**
 * The slowest a multipart upload may arrive, over each window: an upload holds an upstream connection while it
 * streams, so one that trickles (a byte now and then, each refreshing the timeout) is cut with a 408 problem.
 * 16 KiB/s is a very slow line (about 130 kbit/s); a 10 MiB file at that rate still finishes in 11 minutes.
 */
export const MIN_UPLOAD_RATE = { bytesPerSecond: 16 * 1024, windowMs: 10_000 } as const;

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

/** What every call shares: the connection pool, the gate, the credential and the header rules. */
interface Shared {
  upstream: Upstream;
  base: URL;
  basePath: string;
  /** The upstream's connections (undici: about half the CPU per call of `http.request` with an agent). */
  pool: Pool;
  /** For a download's redirects to a storage host, made on first use; never sends the credential. */
  side: () => Agent;
  authorization: string;
  gate: ReturnType<typeof createFairGate>;
  maxBody: number;
  minUploadRate: { bytesPerSecond: number; windowMs: number };
}

/** What the proxy does with the answer it is receiving. */
const enum Mode {
  /** Nothing yet (or a 1xx). */
  None,
  /** Streamed to the browser through the scanner. */
  Stream,
  /** Compressed: read whole (bounded), decoded and searched at its end. */
  Whole,
  /** A download's redirect: read to its end, then followed. */
  Redirect,
  /** Dropped (the browser has its answer already). */
  Drop,
}

/**
 * One proxied call, from the browser's request to the end of the answer, and the handler undici reports the
 * upstream's answer to. A class with methods rather than a function of closures: one is made per request, and
 * the closures would each cost an allocation (and, under tsx, a `name` definition) every time.
 */
class ProxyCall implements Dispatcher.DispatchHandler {
  /** The browser has its answer (or its problem), or has gone. */
  private settled = false;
  private controller: Dispatcher.DispatchController | undefined;
  private release: (() => void) | undefined;
  private withdraw: (() => void) | false = false;
  private body: Buffer[] | undefined;
  private bodyDone = true;
  private readonly timer: NodeJS.Timeout;
  private readonly headers: Record<string, string>;
  /** A multipart upload: its body is streamed to the upstream (bounded while streaming), not read first. */
  private streamBody = false;
  /** The upload's rate check (see MIN_UPLOAD_RATE). */
  private trickle: NodeJS.Timeout | undefined = undefined;
  /** An attachment download: a redirect is followed here, without the credential, rather than passed on. */
  private readonly download: boolean;
  private hops = 0;
  /** The URL the last redirect came from (relative Locations resolve against it). */
  private from: URL | undefined;
  // The answer being received.
  private mode = Mode.None;
  private scanner: ReturnType<Redactor['scanBody']> | undefined;
  private expected = -1;
  private received = 0;
  private chunks: Buffer[] = [];
  private coding: Coding = 'gzip';
  private status = 0;
  private upHeaders: Record<string, string | string[] | undefined> = {};
  private location = '';

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
      this.abort();
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

  /** The upload's body for undici: the browser's bytes as they arrive, counted, with backpressure both ways. */
  private uploadBody(): PassThrough {
    const { req } = this;
    const out = new PassThrough();
    let sent = 0;
    // Each window must bring its share of bytes; a window that does not cuts the upload.
    const { bytesPerSecond, windowMs } = this.s.minUploadRate;
    let windowStart = 0;
    this.trickle = setInterval(() => {
      if (sent - windowStart >= (bytesPerSecond * windowMs) / 1000) {
        windowStart = sent;
        return;
      }
      req.removeAllListeners('data');
      req.resume();
      this.fail(
        408,
        `The upload arrived too slowly (under ${Math.round(bytesPerSecond / 1024)} KiB/s over ${windowMs / 1000} s) and was cut off; try again on a faster connection`,
        { connection: 'close' },
      );
    }, windowMs).unref();
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
      if (!out.write(chunk)) {
        req.pause();
        out.once('drain', () => req.resume());
      }
    });
    req.on('end', () => {
      clearInterval(this.trickle);
      if (!this.settled) out.end();
    });
    req.on('error', () => this.fail(400, 'The request body could not be read'));
    // A cut-off upload ends undici's read of it with an error; the call has failed already.
    out.on('error', () => undefined);
    return out;
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

  /** Gives the gate's slot back (the upstream's connection is free) and stops the clock. */
  private finish(): void {
    clearTimeout(this.timer);
    clearInterval(this.trickle);
    if (this.withdraw) this.withdraw();
    this.withdraw = false;
    this.release?.();
    this.release = undefined;
  }

  /** Stops the upstream call, if one is under way; undici then frees (or closes) its connection. */
  private abort(): void {
    const { controller } = this;
    if (controller && !controller.aborted) controller.abort(new Error('The proxied call was stopped'));
  }

  private fail(status: number, detail: string, extra: Record<string, string> = {}): void {
    if (this.settled) return;
    this.settled = true;
    this.finish();
    this.abort();
    // Once the answer has begun, sendProblem cuts the connection: the browser sees it fail, not end.
    sendProblem(this.res, status, detail, this.instance, { ...PROXIED_ANSWER_HEADERS, ...extra });
  }

  private start(): void {
    const { s, body, headers } = this;
    const payload = body && body.length > 0 ? Buffer.concat(body) : undefined;
    if (payload) headers['content-length'] = String(payload.length);
    s.pool.dispatch(
      {
        method: this.req.method as Dispatcher.HttpMethod,
        path: s.basePath + this.path,
        headers,
        body: this.streamBody ? this.uploadBody() : (payload ?? null),
      },
      this,
    );
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
    this.mode = Mode.None;
    this.controller = undefined;
    // Only these two headers: no Authorization, no cookie, nothing of the browser's.
    const headers = { accept: '*/*', 'accept-encoding': this.headers['accept-encoding']! };
    this.s
      .side()
      .dispatch({ origin: target.origin, path: target.pathname + target.search, method: 'GET', headers }, this);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('The proxied call was stopped'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return;
    this.status = statusCode;
    this.upHeaders = headers;
    if (this.settled) {
      this.mode = Mode.Drop;
      return;
    }
    const location = headers.location;
    if (this.download && REDIRECT_STATUSES.has(statusCode) && typeof location === 'string' && location) {
      if (this.hops >= MAX_DOWNLOAD_HOPS) {
        this.mode = Mode.Drop;
        this.fail(502, 'The download was redirected too many times');
        return;
      }
      this.mode = Mode.Redirect;
      this.location = location;
      return;
    }
    const header = headers['content-encoding'];
    const encoding = typeof header === 'string' ? header.trim().toLowerCase() : undefined;
    const coding = encoding === undefined ? undefined : CODINGS.get(encoding);
    if (encoding === undefined || encoding === '' || encoding === 'identity') {
      this.mode = Mode.Stream;
      this.scanner = this.s.upstream.redactor.scanBody();
      const length = headers['content-length'];
      this.expected = typeof length === 'string' ? Number(length) : -1;
      this.res.writeHead(statusCode, this.headersOf());
    } else if (coding) {
      this.mode = Mode.Whole;
      this.coding = coding;
    } else {
      this.mode = Mode.Drop;
      this.fail(502, 'The Agent Platform API answered in a content encoding the console cannot read');
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    if (this.mode === Mode.Stream) {
      const { res } = this;
      this.received += chunk.length;
      if (this.received === this.expected) {
        // The whole answer is in: nothing is held back, and the browser has it now.
        this.settled = true;
        clearTimeout(this.timer);
        res.end(this.scanner!.push(chunk, true));
        return;
      }
      const pass = this.scanner!.push(chunk);
      if (pass.length > 0 && !res.write(pass)) {
        controller.pause();
        res.once('drain', () => controller.resume());
      }
    } else if (this.mode === Mode.Whole) {
      this.received += chunk.length;
      if (this.received > MAX_DECODED_BYTES) {
        this.fail(502, 'The Agent Platform API answered with a body too large to pass on');
        return;
      }
      this.chunks.push(chunk);
    }
  }

  onResponseEnd(): void {
    // The connection is the upstream's again: only now is the gate's slot given to the next call, which then
    // finds the connection free in the pool.
    if (this.mode === Mode.Redirect && !this.settled) {
      this.release?.();
      this.release = undefined;
      this.follow(this.location);
      return;
    }
    if (this.mode === Mode.Whole && !this.settled) this.whole();
    else if (!this.settled) {
      this.settled = true;
      this.res.end(this.scanner?.end());
    }
    this.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.settled) {
      this.finish();
      return;
    }
    if (this.mode !== Mode.None) {
      this.fail(502, 'The Agent Platform API closed the connection mid-answer');
      return;
    }
    if (this.hops > 0) {
      this.fail(502, `The download's signed URL at ${this.from!.host} could not be reached`);
      return;
    }
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ECONNREFUSED'
        ? 'it refused the connection'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'its host was not found'
          : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
            ? 'it reset the connection'
            : `the connection failed (${code ?? 'error'})`;
    this.fail(502, `The Agent Platform API at ${this.s.base.host} could not be reached: ${why}`);
  }

  /** The upstream's headers the browser may see, redacted, with the proxy's own. */
  private headersOf(): Record<string, string | string[]> {
    const { redactor } = this.s.upstream;
    const from = this.upHeaders;
    const out: Record<string, string | string[]> = {};
    for (const name in from) {
      const value = from[name];
      if (value === undefined || !RESPONSE_HEADERS.has(name)) continue;
      out[name] = Array.isArray(value) ? value.map(redactor.redact) : redactor.redact(value);
    }
    out['cache-control'] ??= 'no-store';
    if (this.download && this.status < 300) {
      // A file is always saved, never shown on the console's origin.
      out['content-disposition'] = downloadDisposition(this.path);
      out['cache-control'] = 'no-store';
    }
    out['x-content-type-options'] = PROXIED_ANSWER_HEADERS['x-content-type-options'];
    out['content-security-policy'] = PROXIED_ANSWER_HEADERS['content-security-policy'];
    return out;
  }

  /** A compressed answer, all in: decoded to be searched; passed on unchanged when clean. */
  private whole(): void {
    const { chunks, coding } = this;
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.received);
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
    const out = this.headersOf();
    if (!offered) delete out['content-encoding'];
    out['content-length'] = String(answer.length);
    this.res.writeHead(this.status, out);
    this.res.end(answer);
  }
}

/** A multipart body to the attachment upload path: the one body the proxy streams. */
function isMultipartUpload(req: IncomingMessage, upstreamPath: string): boolean {
  return /^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '') && isAttachmentUploadPath(upstreamPath);
}

export function createForwarder(upstream: Upstream): Forwarder {
  const base = new URL(upstream.baseUrl);
  // The call's own timer bounds it (504); undici's per-call timers are off.
  const timeouts = { headersTimeout: 0, bodyTimeout: 0 };
  const pool = new Pool(base.origin, { ...timeouts, connections: upstream.maxConnections, pipelining: 1 });
  let side: Agent | undefined;
  const shared: Shared = {
    upstream,
    base,
    basePath: base.pathname.replace(/\/+$/, ''),
    pool,
    side: () => (side ??= new Agent({ ...timeouts, connections: 4 })),
    authorization: `Bearer ${upstream.apiKey}`,
    gate: createFairGate({
      total: upstream.maxConnections,
      perClient: upstream.maxPerClient ?? Math.max(1, Math.floor(upstream.maxConnections / 4)),
    }),
    minUploadRate: upstream.minUploadRate ?? MIN_UPLOAD_RATE,
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
      void pool.destroy();
      void side?.destroy();
    },
  };
}
