// @vitest-environment jsdom
/**
 * The IP access list editor when the console cannot tell its own address: the apply's 422 `egress_unknown`
 * brings up, in place, the field where the admin types the list's range that admits the console; the apply is
 * sent again with that range in the `console-confirmed-range` header; a range that is not one of the list's
 * gets the server's answer at the field. The fake console below applies only with the header, as the real one.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIRMED_RANGE_HEADER } from './api';
import { IpAccessListScreen } from './ip-access-list-screen';

const LIST = ['10.0.0.0/8', '192.168.1.0/24'];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

const listAnswer = (ip_ranges: string[], version: string) => ({
  ip_ranges,
  version,
  count: ip_ranges.length,
  // No CONSOLE_EGRESS_IPS against a real API: no address the console knows to protect.
  protected_addresses: [],
  enterprise_name: null,
});

/** The console's refusal, in the shape its server sends (src/server/console/ip-access-list). */
function egressUnknown(typed: string | undefined) {
  const why = typed
    ? `The range typed (${typed}) is not one of this list's entries: type one of them exactly as the list has it.`
    : 'Type the range of this list that admits the address the console reaches the API from, to confirm the console keeps its access.';
  return json(422, {
    type: 'about:blank',
    status: 422,
    title: 'Unprocessable Content',
    detail: `The console does not know the address it reaches the API from (CONSOLE_EGRESS_IPS is not set), so it cannot check that this list keeps admitting it. Nothing was applied. ${why}`,
    reason: 'egress_unknown',
    locked_out: [],
    protected_addresses: [],
    override_available: false,
    confirm_header: CONFIRMED_RANGE_HEADER,
    errors: [
      {
        loc: ['header', CONFIRMED_RANGE_HEADER],
        msg: 'Confirm the range that admits the console',
        type: 'egress_unknown',
      },
    ],
  });
}

/** A console whose egress is unknown: a non-empty list applies only with one of its own ranges confirmed. */
function serve() {
  let current = { ip_ranges: LIST, version: 'v1' };
  return vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url !== '/console/ip-access-list') throw new Error(`unexpected ${method} ${url}`);
    if (method === 'GET') return json(200, listAnswer(current.ip_ranges, current.version));
    const body = JSON.parse(String(init?.body)) as { ip_ranges: string[]; base_version: string };
    const typed = (init?.headers as Record<string, string> | undefined)?.[CONFIRMED_RANGE_HEADER];
    if (!typed || !body.ip_ranges.includes(typed)) return egressUnknown(typed);
    current = { ip_ranges: body.ip_ranges, version: 'v2' };
    return json(200, { ...listAnswer(current.ip_ranges, current.version), revision: null, unchanged: false });
  });
}

const puts = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([, init]) => ({
      confirmed: (init!.headers as Record<string, string>)[CONFIRMED_RANGE_HEADER],
      ip_ranges: (JSON.parse(String(init!.body)) as { ip_ranges: string[] }).ip_ranges,
    }));

function renderScreen() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const rootRoute = createRootRoute({ component: IpAccessListScreen });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory() });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** jsdom has no layout: the diff table's scrolling area reports a viewport, so its rows render. */
beforeEach(() => {
  const viewport = (height: number) =>
    function (this: HTMLElement) {
      return this.getAttribute('role') === 'table' ? height : this.getAttribute('role') === 'row' ? 48 : 0;
    };
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(viewport(600));
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(viewport(600));
  Element.prototype.scrollIntoView ??= () => {};
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('IP access list: the range that admits the console, when the console cannot tell its address', () => {
  it('asks for it in place after the 422, sends it in the header, and shows the server’s answer to a wrong one', async () => {
    const fetchMock = serve();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderScreen();

    await user.click(await screen.findByRole('button', { name: 'Remove range 2 (192.168.1.0/24)' }));
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    // The refusal brings the field, explained, with the list's own ranges named; focus goes to it.
    const field = await screen.findByRole('textbox', { name: /Type the range that admits this console/ });
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAccessibleDescription(/cannot tell its own address.*one of 10\.0\.0\.0\/8/);
    expect(screen.getByRole('alert')).toHaveTextContent('Nothing was applied');

    // A range the list does not hold: sent, refused, and the server's answer is where the admin types.
    await user.type(field, '203.0.113.0/24');
    await user.click(screen.getByRole('button', { name: 'Confirm the range and apply' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent(
      'The range typed (203.0.113.0/24) is not one of this list',
    );
    expect(field).toHaveAccessibleDescription(/Confirm the range that admits the console/);

    // One of the list's ranges: applied, and the editor starts again from the applied list.
    await user.clear(field);
    await user.type(field, '10.0.0.0/8');
    await user.click(screen.getByRole('button', { name: 'Confirm the range and apply' }));
    await screen.findByRole('region', { name: 'Edit the list' });
    expect(screen.queryByRole('textbox', { name: /Type the range that admits this console/ })).toBeNull();

    expect(puts(fetchMock)).toEqual([
      { confirmed: undefined, ip_ranges: ['10.0.0.0/8'] },
      { confirmed: '203.0.113.0/24', ip_ranges: ['10.0.0.0/8'] },
      { confirmed: '10.0.0.0/8', ip_ranges: ['10.0.0.0/8'] },
    ]);
  });

  it('asks for a range before sending again when none is typed', async () => {
    const fetchMock = serve();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderScreen();

    await user.click(await screen.findByRole('button', { name: 'Remove range 2 (192.168.1.0/24)' }));
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const field = await screen.findByRole('textbox', { name: /Type the range that admits this console/ });

    await user.click(screen.getByRole('button', { name: 'Confirm the range and apply' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(/Type the range of this list that admits the console/);
    expect(puts(fetchMock)).toHaveLength(1);
  });
});
