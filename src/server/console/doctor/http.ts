/**
 * The doctor's HTTP client: GET only (there is no way to ask it for anything else), never follows a redirect,
 * reads at most a bounded answer, times out, and names network and TLS problems in plain words. Built on
 * node:http(s) rather than fetch so the reach check can read the TLS protocol and the server's certificate.
 */
import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';

/** Largest answer the doctor reads: its requests ask for one item (`first=1`). */
export const DOCTOR_MAX_ANSWER_BYTES = 2 * 1_048_576;

export interface GetResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Request sent to answer read, in milliseconds. */
  ms: number;
  tls: TlsInfo | null;
}

export interface TlsInfo {
  protocol: string | null;
  subject: string | null;
  issuer: string | null;
  /** Unix seconds. */
  valid_to: number | null;
}

/** A request that got no HTTP answer: the code (`ECONNREFUSED`, `CERT_HAS_EXPIRED`…) and what it means. */
export class DoctorNetworkError extends Error {
  constructor(
    readonly code: string,
    readonly plain: string,
    readonly tls: boolean,
  ) {
    super(plain);
    this.name = 'DoctorNetworkError';
  }
}

const TLS_PROBLEMS: Record<string, string> = {
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  CERT_NOT_YET_VALID: "the server's TLS certificate is not valid yet (check this machine's clock)",
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server presents a self-signed TLS certificate, which this machine does not trust',
  SELF_SIGNED_CERT_IN_CHAIN:
    "the server's TLS certificate chain ends in a self-signed certificate this machine does not trust (a TLS-inspecting proxy? set NODE_EXTRA_CA_CERTS to its CA)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    "the server's TLS certificate was issued by an authority this machine does not trust, or the server sends an incomplete chain (set NODE_EXTRA_CA_CERTS if a proxy re-signs traffic)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    "the server's TLS certificate was issued by an authority this machine does not trust (set NODE_EXTRA_CA_CERTS if a proxy re-signs traffic)",
  UNABLE_TO_GET_ISSUER_CERT: "the issuer of the server's TLS certificate cannot be found",
  CERT_REVOKED: "the server's TLS certificate has been revoked",
  CERT_SIGNATURE_FAILURE: "the server's TLS certificate signature does not verify",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another host name",
  ERR_SSL_WRONG_VERSION_NUMBER:
    'the server does not speak TLS on this port (is the URL http:// rather than https://, or the port wrong?)',
  EPROTO: 'the TLS handshake failed (the server does not speak TLS on this port, or no common protocol version)',
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'the server and this machine share no TLS protocol version',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'the TLS handshake failed (no common cipher or protocol)',
};

const NETWORK_PROBLEMS: Record<string, string> = {
  ENOTFOUND: 'the host name does not resolve (DNS found no address)',
  EAI_AGAIN: 'the host name could not be resolved right now (DNS did not answer)',
  ECONNREFUSED: 'the connection was refused (nothing listens on that port)',
  ECONNRESET: 'the connection was reset by the server or a proxy in between',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable from this machine',
  ENETUNREACH: 'the network is unreachable from this machine',
  EPIPE: 'the connection was closed while sending',
  UND_ERR_SOCKET: 'the connection failed',
};

/** A network error, named plainly. */
export function describeNetworkError(err: unknown): DoctorNetworkError {
  if (err instanceof DoctorNetworkError) return err;
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const code = e?.code ?? 'UNKNOWN';
  if (TLS_PROBLEMS[code]) {
    const extra = code === 'ERR_TLS_CERT_ALTNAME_INVALID' && e.reason ? ` (${e.reason})` : '';
    return new DoctorNetworkError(code, `TLS problem: ${TLS_PROBLEMS[code]}${extra}`, true);
  }
  if (/^ERR_SSL_|^ERR_TLS_|CERT/.test(code)) {
    return new DoctorNetworkError(code, `TLS problem: the secure connection failed (${code})`, true);
  }
  const plain = NETWORK_PROBLEMS[code];
  return new DoctorNetworkError(
    code,
    plain ? `${plain} (${code})` : `the request failed: ${e?.message ?? String(err)} (${code})`,
    false,
  );
}

function tlsInfo(socket: TLSSocket): TlsInfo {
  const cert = socket.getPeerCertificate?.();
  const name = (o: Record<string, unknown> | undefined) =>
    o ? ((o.CN as string | undefined) ?? (o.O as string | undefined) ?? null) : null;
  const validTo = cert?.valid_to ? Date.parse(cert.valid_to) : NaN;
  return {
    protocol: socket.getProtocol?.() ?? null,
    subject: name(cert?.subject as unknown as Record<string, unknown> | undefined),
    issuer: name(cert?.issuer as unknown as Record<string, unknown> | undefined),
    valid_to: Number.isNaN(validTo) ? null : Math.floor(validTo / 1000),
  };
}

export interface GetOptions {
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  timeoutMs: number;
  /** A keep-alive agent for the walk; none (a fresh connection) for the reach check. */
  agent?: http.Agent | https.Agent | false;
  signal?: AbortSignal;
  maxBytes?: number;
}

/** One GET. Resolves with any HTTP answer (errors included); rejects with a DoctorNetworkError when none came. */
export function doctorGet(url: URL, opts: GetOptions): Promise<GetResult> {
  const maxBytes = opts.maxBytes ?? DOCTOR_MAX_ANSWER_BYTES;
  const lib = url.protocol === 'https:' ? https : http;
  const started = performance.now();
  return new Promise<GetResult>((resolve, reject) => {
    let settled = false;
    const onAbort = () => {
      req.destroy();
      fail(new DoctorNetworkError('ABORTED', 'the doctor run was stopped', false));
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      reject(describeNetworkError(err));
    };
    const req = lib.request(
      url,
      {
        // The only method this client sends.
        method: 'GET',
        agent: opts.agent,
        headers: {
          accept: 'application/json',
          'accept-encoding': 'identity',
          'user-agent': 'agent-platform-console-doctor',
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
        },
      },
      (res) => {
        const tls = url.protocol === 'https:' ? tlsInfo(res.socket as TLSSocket) : null;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            fail(new DoctorNetworkError('TOO_LARGE', `the answer is larger than ${maxBytes} bytes`, false));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('end', () => {
          if (settled) return;
          settled = true;
          opts.signal?.removeEventListener('abort', onAbort);
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (typeof v === 'string') headers[k] = v;
            else if (Array.isArray(v)) headers[k] = v.join(', ');
          }
          resolve({
            status: res.statusCode ?? 0,
            headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: Math.round((performance.now() - started) * 10) / 10,
            tls,
          });
        });
      },
    );
    req.setTimeout(opts.timeoutMs, () => {
      req.destroy();
      fail(new DoctorNetworkError('TIMEOUT', `no answer within ${opts.timeoutMs} ms`, false));
    });
    req.on('error', fail);
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.end();
  });
}

/** `Retry-After` in seconds (delta or HTTP date), or undefined. */
export function retryAfterSeconds(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d{1,7}$/.test(v)) return Number(v);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** True for a loopback host: the only place the doctor sends the credential over plain HTTP. */
export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK.has(h) || /^127\.\d+\.\d+\.\d+$/.test(h);
}
