// @vitest-environment jsdom
/**
 * The IP access list editor's review and its "Add ranges" action, against a fake console that protects
 * 127.0.0.1: focus moves to the review and back instead of dropping to the body; "Apply anyway" stays disabled,
 * with its reason in words, until the enterprise's name is typed exactly; "Add ranges" merges (only what is new
 * is sent, after the list as it is) and says what it added. The history names which list a restore brought back.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpAccessListRevisionSummary } from '@/api/console/ip-access-list';
import { changeLabel } from './history-screen';
import { footerReasons, IpAccessListScreen } from './ip-access-list-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A console with the sandbox's protected addresses; every apply succeeds and is recorded as revision 7. */
function serve(start: string[]) {
  let current = { ip_ranges: start, version: 'v1' };
  const answer = () => ({
    ...current,
    count: current.ip_ranges.length,
    protected_addresses: ['127.0.0.1'],
    enterprise_name: 'Acme Corp',
  });
  return vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/console/ip-access-list' && (init?.method ?? 'GET') === 'GET') return json(200, answer());
    if (url === '/console/ip-access-list' && init?.method === 'PUT') {
      current = { ip_ranges: (JSON.parse(String(init.body)) as { ip_ranges: string[] }).ip_ranges, version: 'v2' };
      return json(200, { ...answer(), unchanged: false, revision: { revision_id: 7 } });
    }
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
}

const sent = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([, init]) => JSON.parse(String(init!.body)) as { ip_ranges: string[]; override_enterprise_name?: string });

function renderScreen() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createRouter({
    routeTree: createRootRoute({ component: IpAccessListScreen }),
    history: createMemoryHistory(),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

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
});

describe('IP access list review', () => {
  it('moves focus to the review and back, and keeps Apply anyway disabled, with the reason, until the name is typed', async () => {
    const fetchMock = serve(['127.0.0.0/8', '10.0.0.0/8']);
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderScreen();

    await user.click(await screen.findByRole('button', { name: 'Remove range 1 (127.0.0.0/8)' }));
    const review = screen.getByRole('button', { name: 'Review changes' });
    await user.click(review);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Review the change' })).toHaveFocus());

    const apply = screen.getByRole('button', { name: 'Apply anyway' });
    expect(apply).toBeDisabled();
    expect(apply).toHaveAccessibleDescription('Apply anyway is enabled once the enterprise’s name is typed above.');
    const name = screen.getByRole('textbox', { name: /type the enterprise’s name/ });
    await user.click(name);
    await user.paste('acme corp');
    expect(apply).toBeDisabled();
    expect(apply).toHaveAccessibleDescription(/matches the enterprise’s name exactly/);

    await user.click(screen.getByRole('button', { name: 'Back to editing' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review changes' })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    await user.click(screen.getByRole('textbox', { name: /type the enterprise’s name/ }));
    await user.paste('Acme Corp');
    const enabled = screen.getByRole('button', { name: 'Apply anyway' });
    expect(enabled).toBeEnabled();
    await user.click(enabled);
    // Back on the list: focus on its summary, not on the body the Apply button left.
    await waitFor(() => expect(screen.getByText(/^1 range · no changes/)).toHaveFocus());
    expect(sent(fetchMock)).toEqual([
      expect.objectContaining({ ip_ranges: ['10.0.0.0/8'], override_enterprise_name: 'Acme Corp' }),
    ]);
  });
});

describe('Add ranges', () => {
  it('sends the list with only the new ranges merged in, and says what it added', async () => {
    const fetchMock = serve(['127.0.0.0/8', '10.0.0.0/8']);
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderScreen();

    await user.click(await screen.findByRole('button', { name: 'Add ranges…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add ranges to the IP access list' });
    await user.click(within(dialog).getByRole('textbox', { name: /Ranges to add/ }));
    await user.paste('10.1.2.3/8 192.0.2.0/24');
    expect(
      within(dialog)
        .getByText(/Already listed, not added again/)
        .closest('li'),
    ).toHaveTextContent('10.1.2.3/8 (as 10.0.0.0/8)');
    await user.click(within(dialog).getByRole('button', { name: 'Add 1 range' }));

    const notice = await screen.findByText(/^Added 1 range:/);
    expect(notice.closest('[role="status"]')).toHaveTextContent(
      'Added 1 range: 192.0.2.0/24 (revision #7 in the history).Already listed, not added again: 10.1.2.3/8.',
    );
    expect(sent(fetchMock)).toEqual([
      expect.objectContaining({
        ip_ranges: ['127.0.0.0/8', '10.0.0.0/8', '192.0.2.0/24'],
        base: ['127.0.0.0/8', '10.0.0.0/8'],
      }),
    ]);
  });

  it('asks for the enterprise’s name when adding to an empty list would lock the console out', async () => {
    vi.stubGlobal('fetch', serve([]));
    const user = userEvent.setup();
    renderScreen();

    await user.click(await screen.findByRole('button', { name: 'Add ranges…' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('textbox', { name: /Ranges to add/ }));
    await user.paste('192.0.2.0/24');
    const add = within(dialog).getByRole('button', { name: 'Add 1 range' });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription('Add is enabled once the enterprise’s name is typed exactly.');
    await user.click(within(dialog).getByRole('textbox', { name: /type the enterprise’s name/ }));
    await user.paste('Acme Corp');
    expect(add).toBeEnabled();
  });
});

describe('the editor’s disabled buttons and the history’s restores, in words', () => {
  it('says why each disabled button is disabled', () => {
    expect(footerReasons({ changed: false, invalid: 0, tooMany: false, empty: true })).toBe(
      'Nothing to review or discard: the list is as loaded. The list is already empty: there is nothing to clear.',
    );
    expect(footerReasons({ changed: true, invalid: 2, tooMany: false, empty: false })).toMatch(
      /apply or discard your edits first.*not valid/,
    );
  });

  it('names the list a restore brought back: before or after the change', () => {
    const rev = (over: Partial<IpAccessListRevisionSummary>) =>
      ({
        action: 'replace',
        restored_from: null,
        previous_version: 'a',
        result_version: 'b',
        ...over,
      }) as IpAccessListRevisionSummary;
    const byId = new Map([[1, rev({ revision_id: 1, previous_version: 'p1', result_version: 'r1' })]]);
    expect(changeLabel(rev({ action: 'restore', restored_from: 1, result_version: 'p1' }), byId)).toBe(
      'Restored the list before #1',
    );
    expect(changeLabel(rev({ action: 'restore', restored_from: 1, result_version: 'r1' }), byId)).toBe(
      'Restored the list after #1',
    );
    expect(changeLabel(rev({ action: 'restore', restored_from: 9, result_version: 'x' }), byId)).toBe(
      'Restored a list of #9',
    );
    expect(changeLabel(rev({}), byId)).toBe('Edited');
  });
});
