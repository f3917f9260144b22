/**
 * A small HTTP/1.1 load generator in the spirit of wrk: N keep-alive connections on raw sockets, each with one
 * request in flight, a request written from prebuilt bytes and the answer framed by Content-Length or chunked
 * encoding without building any objects per request. Node's own `http` client costs several times more per
 * request than the servers it would measure, which would hide the differences between them.
 */
import { connect, type Socket } from 'node:net';

export interface LoadOptions {
  port: number;
  host?: string;
  path: string;
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  /** Run first for this long and forget the figures (JIT, sockets, agents). */
  warmupMs?: number;
}

export interface LoadResult {
  requests: number;
  /** Answers other than 200, and broken connections. */
  errors: number;
  seconds: number;
  rps: number;
  /** Latency of each answered request in ms, sorted. */
  latencies: Float64Array;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** One connection's parser state: the answer is framed without decoding the body. */
interface Conn {
  socket: Socket;
  buf: Buffer | null;
  sentAt: number;
  /** -1 while reading the head; bytes of body left (content-length), or -2 in chunked mode. */
  left: number;
  status: number;
}

function run(opts: LoadOptions, durationMs: number): Promise<LoadResult> {
  const host = opts.host ?? '127.0.0.1';
  const head = [`GET ${opts.path} HTTP/1.1`, `host: ${host}:${opts.port}`];
  for (const [k, v] of Object.entries(opts.headers ?? {})) head.push(`${k}: ${v}`);
  const request = Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1');
  const latencies = new Float64Array(4_000_000);
  let count = 0;
  let errors = 0;
  let open = opts.connections;
  const started = performance.now();
  const endAt = started + durationMs;

  return new Promise((resolve) => {
    const done = () => {
      if (--open > 0) return;
      const seconds = (performance.now() - started) / 1000;
      const sorted = latencies.slice(0, count).sort();
      resolve({ requests: count, errors, seconds, rps: count / seconds, latencies: sorted });
    };

    const send = (c: Conn) => {
      c.left = -1;
      c.sentAt = performance.now();
      c.socket.write(request);
    };

    const answered = (c: Conn) => {
      const now = performance.now();
      if (count < latencies.length) latencies[count++] = now - c.sentAt;
      if (c.status !== 200) errors++;
      if (now < endAt) send(c);
      else c.socket.end();
    };

    /** Whether `buf` (the body so far) holds a whole chunked body: the chunks, then the last, empty one. */
    const chunkedComplete = (buf: Buffer): boolean => {
      let pos = 0;
      for (;;) {
        const eol = buf.indexOf('\r\n', pos, 'latin1');
        if (eol === -1) return false;
        const size = parseInt(buf.toString('latin1', pos, eol), 16);
        // The last chunk carries no trailers here, only the final CRLF.
        if (size === 0) return buf.length >= eol + 4;
        pos = eol + 2 + size + 2;
        if (pos > buf.length) return false;
      }
    };

    const onData = (c: Conn, data: Buffer) => {
      let buf = c.buf && c.buf.length > 0 ? Buffer.concat([c.buf, data]) : data;
      c.buf = null;
      if (c.left === -1) {
        const end = buf.indexOf(CRLF2);
        if (end === -1) {
          c.buf = buf;
          return;
        }
        const text = buf.toString('latin1', 0, end).toLowerCase();
        c.status = Number(text.slice(9, 12));
        const m = /\r\ncontent-length:\s*(\d+)/.exec(text);
        buf = buf.subarray(end + 4);
        if (m) c.left = Number(m[1]);
        else if (text.includes('\r\ntransfer-encoding: chunked')) c.left = -2;
        else c.left = 0;
      }
      if (c.left === -2) {
        if (!chunkedComplete(buf)) {
          c.buf = buf;
          return;
        }
        answered(c);
        return;
      }
      if (buf.length < c.left) {
        c.left -= buf.length;
        return;
      }
      answered(c);
    };

    for (let i = 0; i < opts.connections; i++) {
      const socket = connect({ port: opts.port, host, noDelay: true });
      const c: Conn = { socket, buf: null, sentAt: 0, left: -1, status: 0 };
      socket.on('connect', () => send(c));
      socket.on('data', (d: Buffer) => onData(c, d));
      socket.on('error', () => {
        errors++;
      });
      socket.on('close', done);
    }
  });
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  if (opts.warmupMs) await run(opts, opts.warmupMs);
  return run(opts, opts.durationMs);
}

export function percentileOf(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
