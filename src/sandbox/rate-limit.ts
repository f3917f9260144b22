/** A per-credential fixed-window rate limit: `limit` requests per minute; 0 turns it off. */
export interface RateLimiter {
  /** Counts one request; answers the seconds to wait when the limit is exceeded, or 0. */
  take(key: string): number;
}

export function createRateLimiter(limitPerMinute: number, nowMs: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key) {
      if (limitPerMinute <= 0) return 0;
      const now = nowMs();
      let w = windows.get(key);
      if (!w || now - w.start >= 60_000) {
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      if (w.count <= limitPerMinute) return 0;
      return Math.max(1, Math.ceil((w.start + 60_000 - now) / 1000));
    },
  };
}
