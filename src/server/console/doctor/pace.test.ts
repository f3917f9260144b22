/**
 * The doctor's pace: no more than 5 requests within any second (a sliding window, not per-second buckets), on a
 * loopback upstream too, whatever the credential, counting the extra requests of alternates and 429 retries. The
 * upstream here records when each request reached it, on the doctor's (virtual) clock, so a long walk is checked
 * in the time its requests take.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../api/console/doctor';
import { runDoctor } from './engine';
import { busiestSecond, MAX_REQUESTS_PER_SECOND, Pacer, virtualClock } from './pace';

describe('Pacer', () => {
  it('keeps any one-second window to 5 requests, spread 200 ms apart, and no slower than it must', async () => {
    const clock = virtualClock(0);
    const pacer = new Pacer(clock);
    for (let i = 0; i < 60; i++) await pacer.next();
    expect(busiestSecond(pacer.sentAt)).toEqual({ maxPerSecond: 5, minGapMs: 200 });
    // 12 windows of 5: about 12 × 1.05 s, not a request a second.
    expect(pacer.sentAt.at(-1)! - pacer.sentAt[0]!).toBeLessThan(12_500);
  });

  it('without a gap, a burst of 5 and then a wait: the sixth goes more than a second after the first', async () => {
    const pacer = new Pacer(virtualClock(0), 0);
    for (let i = 0; i < 11; i++) await pacer.next();
    expect(pacer.sentAt.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(pacer.sentAt[5]).toBeGreaterThan(1000);
    expect(busiestSecond(pacer.sentAt).maxPerSecond).toBe(5);
    // Sliding, not buckets: 5 late in one second and 5 early in the next would be 10 within a second.
    expect(busiestSecond([900, 920, 940, 960, 980, 1000, 1020, 1040, 1060, 1080]).maxPerSecond).toBe(10);
  });

  it('stops waiting when the run is stopped', async () => {
    const pacer = new Pacer(virtualClock(0));
    const stop = new AbortController();
    await pacer.next(stop.signal);
    stop.abort(new Error('stopped'));
    await expect(pacer.next(stop.signal)).rejects.toThrow('stopped');
  });
});

describe('a whole run against a fast loopback upstream with a read-only credential', () => {
  const clock = virtualClock();
  /** When each request reached the upstream, on the doctor's clock. */
  const arrivals: number[] = [];
  const paths: string[] = [];
  let server: Server;
  let report: DoctorReport;
  let sessionsCalls = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      arrivals.push(clock.now());
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      paths.push(path);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const page = (items: unknown[]) => send(200, { items, end_cursor: null, has_next_page: false });
      if (path === '/v3/self') {
        return send(200, { principal_type: 'service_user', service_user_id: 'su-ro', org_id: null });
      }
      if (path === '/v3/enterprise/organizations') return page([{ org_id: 'org-1', name: 'One' }]);
      if (path === '/v3/organizations/org-1/sessions' && ++sessionsCalls === 1) {
        return send(429, { status: 429, detail: 'slow down' }, { 'retry-after': '1' });
      }
      // The vendor's path of an operation with alternates: the spec's answers 404 first.
      if (path === '/v3/enterprise/consumption/acu-limits/devin') return page([]);
      if (path.includes('/acu-limits/agent') || path.includes('/members/')) {
        return send(404, { status: 404, detail: 'Not Found' });
      }
      // A read-only credential: most answers are quick refusals, which is when a doctor without a pace floods.
      send(403, { status: 403, detail: 'Forbidden', permission: 'ManageBilling' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    report = await runDoctor({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'cog_read_only', mode: 'upstream', clock });
  }, 30_000);
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('never has more than 5 requests within any second at the upstream, alternates and retries included', () => {
    expect(arrivals.length).toBeGreaterThan(60);
    expect(report.rate_limit.requests).toBe(arrivals.length);
    // Requests the alternates caused, and the retry after the 429, are among them.
    expect(paths).toContain('/v3/enterprise/consumption/acu-limits/devin');
    expect(paths.filter((p) => p === '/v3/organizations/org-1/sessions')).toHaveLength(2);
    expect(report.rate_limit.responses_429).toBe(1);
    const seen = busiestSecond(arrivals);
    expect(seen.maxPerSecond).toBeLessThanOrEqual(MAX_REQUESTS_PER_SECOND);
    expect(report.rate_limit.max_per_second).toBe(seen.maxPerSecond);
    expect(report.rate_limit.min_interval_ms).toBeGreaterThanOrEqual(200);
    expect(report.rate_limit.verdict.line).toMatch(/at most [1-5] within any second \(the doctor keeps to 5/);
  });

  it('on loopback too', () => {
    expect(report.reach.loopback).toBe(true);
    expect(report.operations.counts.refused).toBeGreaterThan(30);
  });
});
