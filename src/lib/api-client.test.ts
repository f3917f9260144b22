/**
 * The browser client: typed errors from problem bodies, 429 handling, abort signals, URL building, and the
 * path each operation's upstream serves (spec path first, alternates on 404/405, remembered per upstream).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENDPOINTS } from '@/api/endpoints.gen';
import { ApiError, errorMessage } from './api-error';
import { ALTERNATES } from './alternates.gen';
import { apiCall, parseRetryAfter, request, SERVED_PATHS_KEY, toSearch } from './api-client';
import { offlineSignal, rateLimitSignal, unauthorizedSignal } from './api-events';
import { resetServedPathsForTests } from './served-paths';
// Installs the path chooser, as the app shell's import of it does.
import './console-config';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  unauthorizedSignal.set(null);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('apiCall', () => {
  it('builds the proxy URL from the operation table, with path params and query', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(json(200, { items: [], end_cursor: null, has_next_page: false })),
    );
    await apiCall('organizations.list', { query: { first: 50, after: 'abc' } });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v3/enterprise/organizations?first=50&after=abc');
    await apiCall('organizations.get', { params: { org_id: 'org-a b' } });
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/v3/enterprise/organizations/org-a%20b');
  });

  it('turns a problem body into an ApiError with its fields', async () => {
    fetchMock.mockResolvedValue(
      json(422, {
        status: 422,
        title: 'Unprocessable Content',
        detail: 'first: bad',
        errors: [{ loc: ['query', 'first'], msg: 'bad' }],
      }),
    );
    const err = (await apiCall('organizations.list', { query: { first: 0 } }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.fieldErrors[0]!.loc).toEqual(['query', 'first']);
    expect(errorMessage(err)).toBe('first: bad');
  });

  it('names the missing permission of a 403', async () => {
    fetchMock.mockResolvedValue(
      json(403, {
        status: 403,
        title: 'Forbidden',
        detail: 'This operation requires the ManageGitIntegrations permission',
      }),
    );
    const err = (await apiCall('self.get').catch((e: unknown) => e)) as ApiError;
    expect(err.missingPermission).toBe('ManageGitIntegrations');
  });

  it('reports a 401 to the global banner, and clears it after a success', async () => {
    fetchMock.mockResolvedValueOnce(json(401, { status: 401, title: 'Unauthorized', detail: 'Unknown credential' }));
    await apiCall('self.get').catch(() => undefined);
    expect(unauthorizedSignal.get()).toBe('Unknown credential');
    fetchMock.mockResolvedValueOnce(json(200, { principal_type: 'service_user' }));
    await apiCall('self.get');
    expect(unauthorizedSignal.get()).toBeNull();
  });

  it('never shows [object Object] for a non-problem error body', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const err = (await apiCall('self.get').catch((e: unknown) => e)) as ApiError;
    expect(errorMessage(err)).toBe('The server answered 502 Bad Gateway');
  });

  it('reports a network failure as status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const err = (await apiCall('self.get').catch((e: unknown) => e)) as ApiError;
    expect(err.isNetwork).toBe(true);
    expect(errorMessage(err)).toMatch(/could not be reached/);
  });
});

describe('429 handling', () => {
  it('waits Retry-After seconds, then retries an idempotent call', async () => {
    vi.useFakeTimers();
    fetchMock
      .mockResolvedValueOnce(
        json(429, { status: 429, title: 'Too Many Requests', detail: 'slow' }, { 'retry-after': '3' }),
      )
      .mockResolvedValueOnce(json(200, { ok: true }));
    const p = request('GET', '/api/v3/self');
    await vi.advanceTimersByTimeAsync(10);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(rateLimitSignal.get()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_900);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(200);
    await expect(p).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(rateLimitSignal.get()).toHaveLength(0);
  });

  it('sends a call’s extra headers, on the retry after a 429 too, beside its own', async () => {
    vi.useFakeTimers();
    fetchMock
      .mockResolvedValueOnce(json(429, { status: 429, title: 'Too Many Requests' }, { 'retry-after': '1' }))
      .mockResolvedValueOnce(json(200, { ip_ranges: [] }));
    const p = apiCall('console.ipAccessList.apply', {
      body: { base_version: 'v1', ip_ranges: ['10.0.0.0/8'] },
      headers: { 'console-confirmed-range': '10.0.0.0/8' },
    });
    await vi.advanceTimersByTimeAsync(1_100);
    await p;
    expect(fetchMock).toHaveBeenCalledTimes(2);
    for (const [url, init] of fetchMock.mock.calls as Array<[string, RequestInit]>) {
      expect(url).toBe('/console/ip-access-list');
      expect(init.headers).toMatchObject({
        accept: 'application/json',
        'content-type': 'application/json',
        'console-confirmed-range': '10.0.0.0/8',
      });
    }
  });

  it('does not retry a POST after 429', async () => {
    fetchMock.mockResolvedValue(
      json(429, { status: 429, title: 'Too Many Requests', detail: 'slow' }, { 'retry-after': '1' }),
    );
    const err = (await request('POST', '/api/v3/x', { body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(429);
    expect(err.retryAfter).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when the call is aborted', async () => {
    fetchMock.mockResolvedValue(json(429, { status: 429, title: 'Too Many Requests' }, { 'retry-after': '30' }));
    const ctrl = new AbortController();
    const p = request('GET', '/api/v3/self', { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(new DOMException('aborted', 'AbortError')), 20);
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('passes the abort signal to fetch', async () => {
    fetchMock.mockResolvedValue(json(200, {}));
    const ctrl = new AbortController();
    await apiCall('self.get', { signal: ctrl.signal });
    expect((fetchMock.mock.calls[0]![1] as RequestInit).signal).toBe(ctrl.signal);
  });
});

describe('helpers', () => {
  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter(new Date(Date.now() + 5_000).toUTCString())).toBeGreaterThanOrEqual(4);
  });

  it('writes arrays as repeated keys and skips empty values', () => {
    expect(toSearch({ origins: ['api', 'webapp'], first: 10, after: undefined, q: '' })).toBe(
      '?origins=api&origins=webapp&first=10',
    );
  });
});

describe('502 for an answer the console could not read', () => {
  it('is an error, not an outage: the offline probe does not start', async () => {
    offlineSignal.set(false);
    fetchMock.mockResolvedValue(
      json(502, {
        status: 502,
        title: 'Bad Gateway',
        detail:
          'The Agent Platform API answered console.gitPermissions.get with a body that does not match the contract (items.0.read_only)',
      }),
    );
    const err = (await apiCall('self.get').catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(502);
    expect(offlineSignal.get()).toBe(false);
    fetchMock.mockResolvedValue(json(502, { status: 502, title: 'Bad Gateway', detail: 'connection refused' }));
    await apiCall('self.get').catch(() => undefined);
    expect(offlineSignal.get()).toBe(true);
    offlineSignal.set(false);
  });
});

describe('the path the upstream serves', () => {
  // An operation with one alternate: the spec's path, then the vendor's.
  const ID = 'acuLimits.list';
  const SPEC = `/api${ENDPOINTS[ID][1]}`;
  const ALT = `/api${ALTERNATES[ID]![0]!}`;
  const CONFIG = { mode: 'upstream', sandbox: false, upstream: 'https://api.example.com', access_control: 'off' };
  const page = { items: [], end_cursor: null, has_next_page: false };
  const notFound = (detail: string) => json(404, { status: 404, title: 'Not Found', detail });
  let storage: Map<string, string>;
  /** Answers by path: a function of how often that path was asked. */
  const serve = (routes: Record<string, (n: number) => Response>) => {
    const seen = new Map<string, number>();
    fetchMock.mockImplementation((url: string) => {
      const path = url.split('?')[0]!;
      if (path === '/console/config') return Promise.resolve(json(200, CONFIG));
      const n = (seen.get(path) ?? 0) + 1;
      seen.set(path, n);
      const route = routes[path];
      return Promise.resolve(route ? route(n) : notFound(`no route ${path}`));
    });
  };
  const apiCalls = () =>
    fetchMock.mock.calls.map((c) => String(c[0]).split('?')[0]).filter((u) => u !== '/console/config');

  beforeEach(() => {
    storage = new Map();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    });
    resetServedPathsForTests();
  });

  it('calls the spec path once when it is served', async () => {
    serve({ [SPEC]: () => json(200, page) });
    await expect(apiCall(ID)).resolves.toEqual(page);
    expect(apiCalls()).toEqual([SPEC]);
  });

  it('tries the alternate after a 404, whatever its body, and goes straight there next time', async () => {
    serve({ [SPEC]: () => notFound('Not Found'), [ALT]: () => json(200, page) });
    await expect(apiCall(ID)).resolves.toEqual(page);
    expect(apiCalls()).toEqual([SPEC, ALT]);
    await apiCall(ID);
    expect(apiCalls()).toEqual([SPEC, ALT, ALT]);
    // Kept for the next page, under this upstream.
    expect(JSON.parse(storage.get(SERVED_PATHS_KEY)!)).toEqual({
      'upstream · https://api.example.com': { [ID]: ALTERNATES[ID]![0] },
    });
  });

  it('counts a 405 as not served', async () => {
    serve({
      [SPEC]: () => json(405, { status: 405, title: 'Method Not Allowed' }),
      [ALT]: () => json(200, page),
    });
    await apiCall(ID);
    await apiCall(ID);
    expect(apiCalls()).toEqual([SPEC, ALT, ALT]);
  });

  it('throws the first 404 when no path serves it, and remembers nothing', async () => {
    serve({ [SPEC]: () => notFound('first'), [ALT]: () => notFound('second') });
    const err = (await apiCall(ID).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(404);
    expect(err.message).toBe('first');
    expect(apiCalls()).toEqual([SPEC, ALT]);
    expect(storage.has(SERVED_PATHS_KEY)).toBe(false);
  });

  it('does not remember a path that answered 500', async () => {
    serve({
      [SPEC]: () => notFound('Not Found'),
      [ALT]: (n) => (n === 1 ? json(500, { status: 500, title: 'Internal Server Error' }) : json(200, page)),
    });
    expect(((await apiCall(ID).catch((e: unknown) => e)) as ApiError).status).toBe(500);
    await apiCall(ID);
    // The second call starts at the spec path again.
    expect(apiCalls()).toEqual([SPEC, ALT, SPEC, ALT]);
  });

  it('keeps 401 handling and 429 waits through the retries', async () => {
    vi.useFakeTimers();
    serve({
      [SPEC]: () => notFound('Not Found'),
      [ALT]: (n) =>
        n === 1
          ? json(429, { status: 429, title: 'Too Many Requests' }, { 'retry-after': '1' })
          : n === 2
            ? json(200, page)
            : json(401, { status: 401, title: 'Unauthorized', detail: 'Unknown credential' }),
    });
    const p = apiCall(ID);
    await vi.advanceTimersByTimeAsync(1_100);
    await expect(p).resolves.toEqual(page);
    expect(apiCalls()).toEqual([SPEC, ALT, ALT]);
    const err = (await apiCall(ID).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(401);
    expect(unauthorizedSignal.get()).toBe('Unknown credential');
    expect(apiCalls()).toEqual([SPEC, ALT, ALT, ALT]);
  });

  it('starts from a choice stored by an earlier page for this upstream only', async () => {
    storage.set(
      SERVED_PATHS_KEY,
      JSON.stringify({ 'upstream · https://other.example.com': { [ID]: ALTERNATES[ID]![0] } }),
    );
    serve({ [SPEC]: () => json(200, page), [ALT]: () => json(200, page) });
    await apiCall(ID);
    expect(apiCalls()).toEqual([SPEC]);
    resetServedPathsForTests();
    storage.set(
      SERVED_PATHS_KEY,
      JSON.stringify({ 'upstream · https://api.example.com': { [ID]: ALTERNATES[ID]![0] } }),
    );
    await apiCall(ID);
    expect(apiCalls()).toEqual([SPEC, ALT]);
  });
});
