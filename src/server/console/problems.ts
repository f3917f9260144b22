/**
 * Problems of the console's own endpoints: one error class, one body reader with every bound (size, shape,
 * error count), and one writer that redacts the credential from whatever it answers, including a detail the
 * upstream wrote.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { checkJsonBounds, DEFAULT_JSON_BOUNDS, type JsonBounds } from '../../api/bounds';
import { capFieldErrors, issuesToFieldErrors, problem, PROBLEM_CONTENT_TYPE, type FieldError } from '../../api/problem';
import { BodyTooLarge, readTextCapped } from '../read-body';
import type { Redactor } from '../redact';
import { UpstreamProblem } from './upstream-client';

/** Largest body a `/console` endpoint accepts: a git-permission set at its limit, with its base, fits. */
export const CONSOLE_MAX_BODY_BYTES = 2 * 1_048_576;

export class ConsoleProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function summarizeErrors(errors: readonly FieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request failed validation';
  const where = first.loc.filter((p) => p !== 'body' && p !== 'query').join('.');
  return `${where ? `${where}: ` : ''}${first.msg}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`;
}

/** Reads and validates a JSON body: at most CONSOLE_MAX_BODY_BYTES, within the JSON bounds, then the schema. */
export async function readConsoleBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  bounds?: Partial<JsonBounds>,
): Promise<z.output<S>> {
  let text: string;
  try {
    text = await readTextCapped(c.req.raw, CONSOLE_MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new ConsoleProblem(413, err.message);
    throw err;
  }
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new ConsoleProblem(422, 'The request body is not valid JSON', {
      errors: [{ loc: ['body'], msg: 'The request body is not valid JSON', type: 'json_invalid' }],
    });
  }
  const outOfBounds = checkJsonBounds(raw, 'body', { ...DEFAULT_JSON_BOUNDS, ...bounds });
  if (outOfBounds) throw new ConsoleProblem(422, outOfBounds.msg, { errors: [outOfBounds] });
  const r = schema.safeParse(raw);
  if (!r.success) {
    const errors = capFieldErrors(issuesToFieldErrors('body', r.error.issues));
    throw new ConsoleProblem(422, summarizeErrors(errors), { errors });
  }
  return r.data;
}

/** The one writer of `/console` problem bodies. */
export function consoleProblemResponse(
  redactor: Redactor,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return new Response(redactor.redact(JSON.stringify(body)), {
    status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, 'cache-control': 'no-store', ...headers },
  });
}

/** Turns what an endpoint threw into a problem answer; unknown errors are logged by kind only, never by content. */
export function consoleErrorResponse(c: Context, err: unknown, redactor: Redactor, what: string): Response {
  const instance = c.req.path;
  if (err instanceof ConsoleProblem) {
    // A body cut off mid-way leaves the connection unusable: close it.
    const headers: Record<string, string> = { ...err.headers, ...(err.status === 413 ? { connection: 'close' } : {}) };
    return consoleProblemResponse(
      redactor,
      err.status,
      problem(err.status, err.detail, { instance, ...err.extra }),
      headers,
    );
  }
  if (err instanceof UpstreamProblem) {
    return consoleProblemResponse(redactor, err.status, { ...err.body, instance }, err.headers);
  }
  if (c.req.raw.signal.aborted) {
    // The browser went away; nobody reads this answer.
    return consoleProblemResponse(
      redactor,
      499,
      problem(499, 'The request was cancelled', { instance, title: 'Client Closed Request' }),
    );
  }
  console.error(`[console] ${what} failed: ${err instanceof Error ? err.name : 'unknown error'}`);
  return consoleProblemResponse(redactor, 500, problem(500, `The console server failed while ${what}`, { instance }));
}
