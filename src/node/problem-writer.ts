/**
 * The one writer of RFC 9457 problem bodies, for the console server (proxy, access control, its own
 * endpoints) and the sandbox alike: one error class handlers throw, one renderer, and two ways out — a web
 * `Response` (Hono) or a raw Node response. A `redact` function, when given, runs over the whole body.
 */
import type { Server, ServerResponse } from 'node:http';
import { problem, PROBLEM_CONTENT_TYPE, type FieldError } from '../api/problem';

/** Members of a problem body beyond status, title and detail: `errors`, `type`, `title` or an extension. */
export type ProblemExtra = { errors?: FieldError[]; type?: string; title?: string; [member: string]: unknown };

/** What a handler throws to answer a problem; whoever catches it writes it with `problemResponse`. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: ProblemExtra = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function notFound(what: string, id: string): HttpProblem {
  return new HttpProblem(404, `${what} ${id} was not found`);
}

export function unprocessable(errors: FieldError[], detail?: string): HttpProblem {
  return new HttpProblem(422, detail ?? summarizeFieldErrors(errors), { errors });
}

/** "permissions.17.repo_path: … (and 3 more)": the first error, for `detail`. */
export function summarizeFieldErrors(errors: readonly FieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request failed validation';
  const where = first.loc.filter((p) => p !== 'body' && p !== 'query' && p !== 'path').join('.');
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${where ? `${where}: ` : ''}${first.msg}${more}`;
}

export interface ProblemOptions {
  instance?: string;
  extra?: ProblemExtra;
  headers?: Record<string, string>;
  redact?: (text: string) => string;
}

function render(status: number, detail: string, opts: ProblemOptions) {
  const text = JSON.stringify(problem(status, detail, { instance: opts.instance, ...opts.extra }));
  const body = opts.redact ? opts.redact(text) : text;
  const headers: Record<string, string> = {
    'content-type': PROBLEM_CONTENT_TYPE,
    'cache-control': 'no-store',
    // A body cut off mid-way leaves the connection unusable.
    ...(status === 413 ? { connection: 'close' } : {}),
    ...opts.headers,
  };
  return { body, headers };
}

/** A problem as a web `Response`. */
export function problemResponse(status: number, detail: string, opts: ProblemOptions = {}): Response {
  const { body, headers } = render(status, detail, opts);
  return new Response(body, { status, headers });
}

/** A thrown HttpProblem as a web `Response`. */
export function httpProblemResponse(err: HttpProblem, instance: string, redact?: (text: string) => string): Response {
  return problemResponse(err.status, err.detail, { instance, extra: err.extra, headers: err.headers, redact });
}

/** A problem on a raw Node response (the proxy and access control, before any framework). */
export function sendProblem(
  res: ServerResponse,
  status: number,
  detail: string,
  instance: string,
  headers: Record<string, string> = {},
  extra: ProblemExtra = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const r = render(status, detail, { instance, headers, extra });
  res.writeHead(status, { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) });
  res.end(r.body);
}

/** The path part of a raw request target, safe to echo (no query, bounded length). */
export function instanceOf(rawUrl: string | undefined): string {
  const url = rawUrl ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path.length > 512 ? `${path.slice(0, 512)}…` : path;
}

/** Answers requests Node cannot parse (bad framing, oversized headers) with a problem body, then closes. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const r = render(
      status,
      tooLarge ? 'The request headers are too large' : 'The request could not be parsed as HTTP',
      {},
    );
    const title = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\ncontent-type: ${r.headers['content-type']}\r\ncontent-length: ${Buffer.byteLength(r.body)}\r\nconnection: close\r\n\r\n${r.body}`,
    );
  });
}
