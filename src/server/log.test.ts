/** The log sink's batching, and how much of the request log a terminal gets. */
import { describe, expect, it, vi } from 'vitest';
import { createLogWriter, filterRequestLog, requestLogMode, type RequestLogMode } from './log';

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

describe('how much of the request log is written', () => {
  it('a terminal gets errors only, a pipe every request; LOG_REQUESTS and the command line choose', () => {
    expect(requestLogMode(undefined, [], true)).toEqual({ mode: 'errors' });
    expect(requestLogMode(undefined, [], false)).toEqual({ mode: 'all' });
    expect(requestLogMode('ALL', [], true)).toEqual({ mode: 'all' });
    expect(requestLogMode('off', [], false)).toEqual({ mode: 'off' });
    expect(requestLogMode('all', ['--quiet'], false)).toEqual({ mode: 'off' });
    expect(requestLogMode(undefined, ['--log-requests=errors'], false)).toEqual({ mode: 'errors' });
    expect(requestLogMode('loud', [], true)).toEqual({
      problem: 'LOG_REQUESTS must be off, errors or all (got "loud")',
    });
    expect(requestLogMode(undefined, ['--log-requests=some'], true).problem).toMatch(/^--log-requests must be/);
  });

  it('errors lets through answers of 400 and above, off none; lines that are not requests always pass', () => {
    const lines = ['GET /api/v3/self 200 0.4ms', 'POST /console/x 404 1.0ms', 'GET /api/v3/y 502 30.2ms', 'store lost'];
    const written = (mode: RequestLogMode) => {
      const out: string[] = [];
      const log = filterRequestLog(mode, (l) => out.push(l));
      for (const l of lines) log(l);
      return out;
    };
    expect(written('all')).toEqual(lines);
    expect(written('errors')).toEqual(lines.slice(1));
    expect(written('off')).toEqual(['store lost']);
  });
});
