import { describe, expect, it, vi } from 'vitest';
import { createLogWriter } from './log';

describe('the log writer', () => {
  it('writes the lines of a burst together, in order, once 100 ms have passed', () => {
    vi.useFakeTimers();
    try {
      const writes: string[] = [];
      const log = createLogWriter({ write: (t: string) => writes.push(t) });
      log('GET /api/v3/self 200 0.4ms');
      log('GET /api/v3/self 200 0.3ms');
      expect(writes).toEqual([]);
      vi.advanceTimersByTime(100);
      expect(writes).toEqual(['GET /api/v3/self 200 0.4ms\nGET /api/v3/self 200 0.3ms\n']);
      log('later');
      log.flush();
      expect(writes.at(-1)).toBe('later\n');
      vi.advanceTimersByTime(1000);
      expect(writes).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes at once past 64 KB pending', () => {
    const writes: string[] = [];
    const log = createLogWriter({ write: (t: string) => writes.push(t) });
    for (let i = 0; i < 2000; i++) log(`GET /api/v3/organizations/org-${i}/sessions 200 1.0ms`);
    expect(writes.length).toBeGreaterThan(0);
    log.flush();
    expect(writes.join('').split('\n').filter(Boolean)).toHaveLength(2000);
  });
});
