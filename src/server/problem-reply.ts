/** Writes RFC 9457 problem bodies on raw Node responses. */
import type { Server, ServerResponse } from 'node:http';
import { problem, PROBLEM_CONTENT_TYPE } from '../api/problem';

export function sendProblem(
  res: ServerResponse,
  status: number,
  detail: string,
  instance: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(problem(status, detail, { instance }));
  res.writeHead(status, {
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** The path part of a raw request target, safe to echo (no query, bounded length). */
export function instanceOf(rawUrl: string | undefined): string {
  const path = (rawUrl ?? '/').split('?')[0] ?? '/';
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
    const title = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    const body = JSON.stringify({
      type: 'about:blank',
      status,
      title,
      detail: tooLarge ? 'The request headers are too large' : 'The request could not be parsed as HTTP',
    });
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
