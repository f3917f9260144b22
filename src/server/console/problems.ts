/**
 * Problems of the console's own endpoints: one error class, one body reader with every bound (size, shape,
 * error count), and one writer that redacts the credential from whatever it answers, including a detail the
 * upstream wrote.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { checkJsonBounds, DEFAULT_JSON_BOUNDS, type JsonBounds } from '../../api/bounds';
import { capFieldErrors, issuesToFieldErrors } from '../../api/problem';
import { HttpProblem, httpProblemResponse, problemResponse, summarizeFieldErrors } from '../../node/problem-writer';
import { BodyTooLarge, readTextCapped } from '../../node/read-body';
import type { Redactor } from '../redact';
import { UpstreamProblem } from './upstream-client';
import { StoreUnavailable } from './storage/postgres';

/** Seconds a client is asked to wait when the console's store cannot be reached. */
export const STORE_RETRY_AFTER_S = 5;

/** The detail of a 503 for an unreachable store: what is affected, never the database's address. */
export function storeUnavailableDetail(err: StoreUnavailable): string {
  return `${err.message}. This console replica answers again by itself once its database is back.`;
}

/** Largest body a `/console` endpoint accepts: a git-permission set at its limit, with its base, fits. */
export const CONSOLE_MAX_BODY_BYTES = 2 * 1_048_576;

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
    if (err instanceof BodyTooLarge) throw new HttpProblem(413, err.message);
    throw err;
  }
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new HttpProblem(422, 'The request body is not valid JSON', {
      errors: [{ loc: ['body'], msg: 'The request body is not valid JSON', type: 'json_invalid' }],
    });
  }
  const outOfBounds = checkJsonBounds(raw, 'body', { ...DEFAULT_JSON_BOUNDS, ...bounds });
  if (outOfBounds) throw new HttpProblem(422, outOfBounds.msg, { errors: [outOfBounds] });
  const r = schema.safeParse(raw);
  if (!r.success) {
    const errors = capFieldErrors(issuesToFieldErrors('body', r.error.issues));
    throw new HttpProblem(422, summarizeFieldErrors(errors), { errors });
  }
  return r.data;
}

/** Turns what an endpoint threw into a problem answer; unknown errors are logged by kind only, never by content. */
export function consoleErrorResponse(c: Context, err: unknown, redactor: Redactor, what: string): Response {
  const instance = c.req.path;
  const redact = redactor.redact;
  if (err instanceof HttpProblem) return httpProblemResponse(err, instance, redact);
  if (err instanceof UpstreamProblem) {
    const { status: _s, detail, instance: _i, errors, ...extra } = err.body;
    return problemResponse(err.status, detail ?? err.body.title, {
      instance,
      extra: { ...extra, ...(errors ? { errors } : {}) },
      headers: err.headers,
      redact,
    });
  }
  if (err instanceof StoreUnavailable) {
    return problemResponse(503, storeUnavailableDetail(err), {
      instance,
      extra: { title: 'Service Unavailable', store: err.store },
      headers: { 'retry-after': String(STORE_RETRY_AFTER_S) },
      redact,
    });
  }
  if (c.req.raw.signal.aborted) {
    // The browser went away; nobody reads this answer.
    return problemResponse(499, 'The request was cancelled', { instance, extra: { title: 'Client Closed Request' } });
  }
  console.error(`[console] ${what} failed: ${err instanceof Error ? err.name : 'unknown error'}`);
  return problemResponse(500, `The console server failed while ${what}`, { instance });
}
