/**
 * The shared read of every principal's consumption: one console call over the shared window, each principal's
 * days cut back to the window asked for; a principal the answer leaves out read on its own; a refusal fails the
 * whole read; the console's read failing otherwise falls back to reading everyone on their own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAY_SECONDS } from '@/api/billing-day';
import { cut, readPrincipalConsumption, SHARED_DAYS, sharedWindow } from './principal-consumption';

const day0 = 1_790_496_000;
const range = { time_after: day0 + 10 * DAY_SECONDS, time_before: day0 + 40 * DAY_SECONDS };
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const problem = (status: number, detail: string) =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'Error', status, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('sharedWindow and cut', () => {
  it('asks for at least the last SHARED_DAYS days, so windows ending together are one read', () => {
    expect(sharedWindow(range)).toEqual({
      time_after: range.time_before - SHARED_DAYS * DAY_SECONDS,
      time_before: range.time_before,
    });
    const long = { time_after: range.time_before - 180 * DAY_SECONDS, time_before: range.time_before };
    expect(sharedWindow(long)).toEqual(long);
  });

  it('keeps only the days inside the window, with their total in whole hundredths', () => {
    const days = [
      { date: day0, acus: 5 },
      { date: range.time_after, acus: 0.1 },
      { date: range.time_after + DAY_SECONDS, acus: 0.2 },
      { date: range.time_before, acus: 7 },
    ];
    expect(cut(days, range)).toEqual({
      total_acus: 0.3,
      consumption_by_date: [
        { date: range.time_after, acus: 0.1 },
        { date: range.time_after + DAY_SECONDS, acus: 0.2 },
      ],
    });
  });
});

describe('readPrincipalConsumption', () => {
  const signal = new AbortController().signal;
  const people = [
    { kind: 'member' as const, id: 'u-1' },
    { kind: 'service_user' as const, id: 's-new' },
    { kind: 'member' as const, id: 'u-2' },
  ];

  it('makes one console call, reading on its own only a principal the answer leaves out', async () => {
    fetchMock.mockImplementation((url: string) => {
      if (url.startsWith('/console/consumption/principals')) {
        return Promise.resolve(
          json(200, {
            ...sharedWindow(range),
            read_at: day0,
            items: [
              {
                kind: 'member',
                id: 'u-1',
                total_acus: 9,
                days: [
                  { date: day0, acus: 4 },
                  { date: range.time_after, acus: 5 },
                ],
                error: null,
              },
              { kind: 'member', id: 'u-2', total_acus: null, days: null, error: 'The API answered 500' },
            ],
          }),
        );
      }
      return Promise.resolve(json(200, { total_acus: 2, consumption_by_date: [{ date: range.time_after, acus: 2 }] }));
    });
    const out = await readPrincipalConsumption(people, range, signal);
    const urls = fetchMock.mock.calls.map((c) => String(c[0]));
    expect(urls).toEqual([
      `/console/consumption/principals?time_after=${sharedWindow(range).time_after}&time_before=${range.time_before}`,
      `/api/v3/enterprise/consumption/daily/service-users/s-new?time_after=${range.time_after}&time_before=${range.time_before}`,
    ]);
    expect(out).toEqual([
      { resp: { total_acus: 5, consumption_by_date: [{ date: range.time_after, acus: 5 }] } },
      { resp: { total_acus: 2, consumption_by_date: [{ date: range.time_after, acus: 2 }] } },
      { error: 'The API answered 500' },
    ]);
  });

  it('fails as a whole when the console is refused the read', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(problem(403, 'Missing permission ManageBilling')));
    await expect(readPrincipalConsumption(people, range, signal)).rejects.toMatchObject({ status: 403 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("reads everyone on their own when the console's read fails otherwise", async () => {
    fetchMock.mockImplementation((url: string) =>
      Promise.resolve(
        url.startsWith('/console/')
          ? problem(502, 'The Agent Platform API could not be reached')
          : json(200, { total_acus: 0, consumption_by_date: [] }),
      ),
    );
    const out = await readPrincipalConsumption(people, range, signal);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(out.every((r) => 'resp' in r)).toBe(true);
  });
});
