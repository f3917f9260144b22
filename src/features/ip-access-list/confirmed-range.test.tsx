// @vitest-environment jsdom
/**
 * The IP access list editor when the console cannot tell its own address: the apply's 422 `egress_unknown`
 * brings up, in place, the field where the admin types the list's range that admits the console; the apply is
 * sent again with that range in the `console-confirmed-range` header; a range that is not one of the list's
 * gets the server's answer at the field; a restore from the history asks the same way. The fake console below
 * applies only with the header, as the real one.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIRMED_RANGE_HEADER } from './api';
import { IpAccessListHistoryScreen } from './history-screen';
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

/** Revision 1 removed 192.168.1.0/24: restoring the list before it brings the range back. */
const REVISION = {
  revision_id: 1,
  created_at: 1_700_000_000,
  completed_at: 1_700_000_001,
  action: 'replace',
  status: 'applied',
  restored_from: null,
  previous_version: 'v1',
  previous_count: 2,
  result_version: 'v0',
  result_count: 1,
  added: [],
  removed: ['192.168.1.0/24'],
  locked_out: [],
  error: null,
  made_by: 'Ada',
  made_by_kind: 'person',
  previous: LIST,
  result: ['10.0.0.0/8'],
};

/** A console whose egress is unknown: a non-empty list applies only with one of its own ranges confirmed. */
function serve(start: { ip_ranges: string[]; version: string } = { ip_ranges: LIST, version: 'v1' }) {
  let current = start;
  return vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/console/ip-access-list' && method === 'GET')
      return json(200, listAnswer(current.ip_ranges, current.version));
    if (url.startsWith('/console/ip-access-list/revisions?'))
      return json(200, { items: [REVISION], total: 1, has_next_page: false, end_cursor: null });
    if (url === '/console/ip-access-list/revisions/1') return json(200, REVISION);
    let desired: string[];
    if (url === '/console/ip-access-list' && method === 'PUT')
      desired = (JSON.parse(String(init?.body)) as { ip_ranges: string[] }).ip_ranges;
    else if (url === '/console/ip-access-list/revisions/1/restore' && method === 'POST') desired = REVISION.previous;
    else throw new Error(`unexpected ${method} ${url}`);
    const typed = (init?.headers as Record<string, string> | undefined)?.[CONFIRMED_RANGE_HEADER];
    if (!typed || !desired.includes(typed)) return egressUnknown(typed);
    current = { ip_ranges: desired, version: 'v2' };
    return json(200, { ...listAnswer(current.ip_ranges, current.version), revision: null, unchanged: false });
  });
}

/** The changes sent (apply or restore): the range each confirmed, and the list an apply asked for. */
const changes = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT' || init?.method === 'POST')
    .map(([, init]) => ({
      confirmed: (init!.headers as Record<string, string>)[CONFIRMED_RANGE_HEADER],
      ip_ranges: (JSON.parse(String(init!.body)) as { ip_ranges?: string[] }).ip_ranges,
    }));

function renderScreen(screenComponent: () => ReactNode = IpAccessListScreen) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const rootRoute = createRootRoute({ component: screenComponent });
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

    expect(changes(fetchMock)).toEqual([
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
    expect(changes(fetchMock)).toHaveLength(1);
  });

  it('asks for it in the restore dialog too, and restores with it', async () => {
    const fetchMock = serve({ ip_ranges: ['10.0.0.0/8'], version: 'v0' });
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderScreen(IpAccessListHistoryScreen);

    await user.click(await screen.findByRole('button', { name: 'Restore the list before revision 1' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Restore' }));

    const field = await within(dialog).findByRole('textbox', { name: /Type the range that admits this console/ });
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAccessibleDescription(/one of 10\.0\.0\.0\/8, 192\.168\.1\.0\/24/);
    await user.type(field, '172.16.0.0/12');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(dialog).toHaveTextContent('The range typed (172.16.0.0/12) is not one of this list');

    await user.clear(field);
    await user.type(field, '192.168.1.0/24');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(changes(fetchMock).map((c) => c.confirmed)).toEqual([undefined, '172.16.0.0/12', '192.168.1.0/24']);
  });
});
