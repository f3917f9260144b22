/**
 * Problems of the console's own endpoints: one error class, the largest body they accept, and one writer that
 * redacts the credential from whatever it answers, including a detail the upstream wrote.
 */
import type { Context } from 'hono';
import { HttpProblem, httpProblemResponse, problemResponse } from '../../node/problem-writer';
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
