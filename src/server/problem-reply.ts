/** Writes RFC 9457 problem bodies on raw Node responses. */
import type { ServerResponse } from 'node:http';
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
