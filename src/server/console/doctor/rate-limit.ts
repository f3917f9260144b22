/**
 * The doctor's rate-limiting section: the paced GET every operation of the walk goes through (one pacer for the
 * whole run, every 429 waited out by its `Retry-After` within bounds), and the section's findings: how many
 * requests went, how many were refused with 429, how long the doctor waited.
 */
import http from 'node:http';
import https from 'node:https';
import type { DoctorReport } from '../../../api/console/doctor';
import { doctorGet, retryAfterSeconds, type DoctorNetworkError, type GetResult } from './http';
import { busiestSecond, MAX_REQUESTS_PER_SECOND } from './pace';
import { plural, verdict, type DoctorRun } from './run';

export interface Answer {
  result: GetResult | null;
  error: DoctorNetworkError | null;
  /** A 429 that outlasted the waits. */
  rateLimited: string | null;
}

export interface PacedSender {
  /** Sends a GET with the credential at the run's pace, waiting out 429s. */
  send(url: URL): Promise<Answer>;
  /** Closes the kept-alive connection. */
  close(): void;
}

/** One kept-alive connection for the walk, every request paced and every 429 waited out (within bounds). */
export function pacedSender(run: DoctorRun, base: URL | null): PacedSender {
  const { opts, rate } = run;
  const agent =
    base?.protocol === 'https:'
      ? new https.Agent({ keepAlive: true, maxSockets: 1 })
      : new http.Agent({ keepAlive: true, maxSockets: 1 });
  async function send(url: URL): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      await run.pacer.next(opts.signal);
      rate.requests++;
      let res: GetResult;
      try {
        res = await doctorGet(url, { apiKey: opts.apiKey, timeoutMs: run.timeoutMs, agent, signal: opts.signal });
      } catch (err) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        return { result: null, error: err as DoctorNetworkError, rateLimited: null };
      }
      if (res.status !== 429) return { result: res, error: null, rateLimited: null };
      rate.responses429++;
      const seconds = retryAfterSeconds(res.headers['retry-after']);
      if (seconds !== undefined) rate.retryAfterSeen = true;
      const waitMs = (seconds ?? 2 ** attempt) * 1000;
      if (attempt >= run.maxRetries) {
        return {
          result: res,
          error: null,
          rateLimited: `still rate limited (429) after ${plural(run.maxRetries, 'wait')}`,
        };
      }
      if (waitMs > run.maxRetryWaitMs) {
        return {
          result: res,
          error: null,
          rateLimited: `rate limited (429): Retry-After ${seconds} s is longer than the doctor waits (${Math.round(run.maxRetryWaitMs / 1000)} s)`,
        };
      }
      rate.waitedMs += waitMs;
      // The wait is longer than the pace's gap: the retry goes as soon as it ends (if the window allows).
      await run.clock.sleep(waitMs, opts.signal);
    }
  }
  return { send, close: () => agent.destroy() };
}

/** Section 5: what the run's requests saw of rate limiting, and the pace it kept. */
export function rateLimitSection(run: DoctorRun): DoctorReport['rate_limit'] {
  const { rate } = run;
  const { maxPerSecond, minGapMs } = busiestSecond(run.pacer.sentAt);
  const paceText = `${plural(rate.requests, 'request')}, at most ${maxPerSecond} within any second (the doctor keeps to ${MAX_REQUESTS_PER_SECOND}, at least ${run.minIntervalMs} ms apart)`;
  const rateVerdict =
    rate.requests === 0
      ? verdict('skipped', 'No request sent')
      : rate.responses429 === 0
        ? verdict('ok', `No 429 seen; ${paceText}`)
        : verdict(
            'warn',
            `${rate.responses429} × 429 (${rate.retryAfterSeen ? 'Retry-After seen' : 'without Retry-After'}), waited ${Math.round(rate.waitedMs / 1000)} s in all; ${paceText}`,
          );
  return {
    verdict: rateVerdict,
    requests: rate.requests,
    retry_after_seen: rate.retryAfterSeen,
    responses_429: rate.responses429,
    waited_ms: rate.waitedMs,
    min_interval_ms: Number.isFinite(minGapMs) ? Math.round(minGapMs) : 0,
    max_per_second: maxPerSecond,
  };
}
