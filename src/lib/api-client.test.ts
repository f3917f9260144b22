/** The browser client: typed errors from problem bodies, 429 handling, abort signals, URL building. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, errorMessage } from './api-error';
import { apiCall, parseRetryAfter, request, toSearch } from './api-client';
import { rateLimitSignal, unauthorizedSignal } from './api-events';

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
