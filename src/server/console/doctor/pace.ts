/**
 * The doctor's pace: at most 5 requests within any second, on every upstream (loopback included) and whatever the
 * credential, counting every request it sends (the reach check, each path an operation with alternates tries, each
 * retry after a 429). A sliding window over the send times, not per-second buckets (buckets let 5 go at the end of
 * one second and 5 more at the start of the next), with requests spread at least `minIntervalMs` apart.
 *
 * The clock is injectable so tests can check the pace of a long run without waiting for it.
 */

/** The most requests the doctor sends within any one second. */
export const MAX_REQUESTS_PER_SECOND = 5;
const WINDOW_MS = 1000;
/**
 * Kept beyond the window: the upstream sees a request a little after it is sent, and not always equally late, so a
 * window measured on its side could otherwise catch a sixth.
 */
const MARGIN_MS = 50;
/** Least time between two requests by default: the five of a second spread over it rather than sent in a burst. */
export const DEFAULT_MIN_INTERVAL_MS = 200;

export interface DoctorClock {
  /** Milliseconds (Unix epoch for the real clock). */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: DoctorClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (ms <= 0) return resolve();
      const onAbort = () => {
        clearTimeout(t);
        reject(signal!.reason);
      };
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * A clock whose sleeps end at once, moving its time on (tests): the pace is kept in its time, and costs none of
 * the real one. The sleep yields to the event loop so the requests themselves still go.
 */
export function virtualClock(start = 1_700_000_000_000): DoctorClock {
  let now = start;
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        now += Math.max(0, ms);
        setImmediate(resolve);
      }),
  };
}

/** Hands out send slots: each `next()` waits until one more request keeps the pace, and records it as sent. */
export class Pacer {
  /** When each request went, in the clock's milliseconds. */
  readonly sentAt: number[] = [];

  constructor(
    private readonly clock: DoctorClock,
    readonly minIntervalMs: number = DEFAULT_MIN_INTERVAL_MS,
  ) {}

  /** The earliest time the next request may go. */
  private earliest(): number {
    const n = this.sentAt.length;
    const last = this.sentAt[n - 1];
    const fifthLast = this.sentAt[n - MAX_REQUESTS_PER_SECOND];
    return Math.max(
      last === undefined ? -Infinity : last + this.minIntervalMs,
      fifthLast === undefined ? -Infinity : fifthLast + WINDOW_MS + MARGIN_MS,
    );
  }

  /** Waits for the next send slot; answers the time it was taken. */
  async next(signal?: AbortSignal): Promise<number> {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const now = this.clock.now();
      const at = this.earliest();
      if (at <= now) {
        this.sentAt.push(now);
        return now;
      }
      // Checked again after the wait: a timer may fire a millisecond early.
      await this.clock.sleep(at - now, signal);
    }
  }
}

/** The most requests `times` (sorted) holds within any one second, and the least gap between two of them. */
export function busiestSecond(times: readonly number[]): { maxPerSecond: number; minGapMs: number } {
  let maxPerSecond = 0;
  let minGapMs = Infinity;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= WINDOW_MS) j++;
    maxPerSecond = Math.max(maxPerSecond, i - j + 1);
    if (i > 0) minGapMs = Math.min(minGapMs, times[i]! - times[i - 1]!);
  }
  return { maxPerSecond, minGapMs };
}
