// @vitest-environment jsdom
/**
 * The bulk editor as an admin meets it: an apply the server refuses with a 422 puts each error on the row
 * and field it names (`permissions[1].repo_path` on row 2's repository path), and what names no row on the
 * form-level alert; a 409 shows the conflict view, and reapplying goes to the review.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gitPermissionSetVersion } from '@/api/git-permissions/set-diff';
import { offlineSignal } from '@/lib/api-events';
import { createQueryClient } from '@/lib/query-client';
import { BulkEditor } from './bulk-editor';
import { json, perm as gitPermission } from './test-fixtures';

const perm = (id: string, repo: string, read_only = false) => gitPermission(id, { repo_path: repo, read_only });
const SET = [perm('gp-1', 'acme/api'), perm('gp-2', 'acme/web'), perm('gp-3', 'acme/ops', true)];

/** The console and the API as the editor reads them; `onApply` answers the replace. */
function serve(onApply: (body: Record<string, unknown>) => Response) {
  return vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/console/git-permissions/orgs/org-1' && method === 'GET')
      return json(200, { org_id: 'org-1', items: SET, version: gitPermissionSetVersion(SET), count: SET.length });
    if (url === '/console/git-permissions/orgs/org-1' && method === 'PUT')
      return onApply(JSON.parse(String(init?.body)) as Record<string, unknown>);
    if (url.startsWith('/api/v3/enterprise/git-providers/connections?'))
      return json(200, {
        items: [{ git_connection_id: 'conn-1', name: 'GitHub', host: 'github.com', git_provider_type: 'github_app' }],
        end_cursor: null,
        has_next_page: false,
      });
    if (url.startsWith('/api/v3/enterprise/git-providers/connections/conn-1/repositories'))
      return json(200, { items: [], end_cursor: null, has_next_page: false });
    throw new Error(`unexpected ${method} ${url}`);
  });
}

function renderEditor(
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
) {
  const rootRoute = createRootRoute({ component: () => <BulkEditor orgId="org-1" /> });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory() });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** jsdom has no layout: the rows' scrolling area reports a viewport, so the virtualized rows render. */
beforeEach(() => {
  const viewport = (height: number) =>
    function (this: HTMLElement) {
      return this.getAttribute('role') === 'table' ? height : this.getAttribute('role') === 'row' ? 48 : 0;
    };
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(viewport(600));
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(viewport(600));
  // What jsdom lacks and Radix uses (the checkbox measures itself).
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

async function editAndApply(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByText('3 / 200 permissions');
  await user.click(screen.getByRole('checkbox', { name: 'Read-only, row 1' }));
  await user.click(screen.getByRole('button', { name: 'Review changes' }));
  await user.click(screen.getByRole('button', { name: 'Apply 1 changes' }));
}

describe('BulkEditor', () => {
  it('puts a 422’s errors on the rows and fields they name, and the rest on the form', async () => {
    const fetchMock = serve(() =>
      json(422, {
        status: 422,
        title: 'Unprocessable Entity',
        detail: 'The permissions are not valid',
        errors: [
          {
            loc: ['body', 'permissions', 1, 'repo_path'],
            msg: 'repo_path names no repository of this connection',
            type: 'unknown_repository',
          },
          { loc: ['body', 'base'], msg: 'base does not match base_version', type: 'mismatch' },
        ],
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderEditor();

    await editAndApply(user);

    // Back on the rows: row 2's repository path is marked and described by the server's message.
    const field = await screen.findByRole('textbox', { name: 'Repository path, row 2' });
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('Row 2: repo_path: repo_path names no repository of this connection');
    for (const other of ['Repository path, row 1', 'Repository path, row 3', 'Group prefix, row 2'])
      expect(screen.getByRole('textbox', { name: other })).not.toHaveAttribute('aria-invalid');
    // What names no row is on the form-level alert, once.
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('base: base does not match base_version');
    expect(alert).not.toHaveTextContent('repo_path names no repository');

    // The request carried the base it was made on, and the row order the errors refer to.
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    const body = JSON.parse(String(put[1]!.body)) as {
      base_version: string;
      permissions: Array<{ repo_path: string }>;
    };
    expect(body.base_version).toBe(gitPermissionSetVersion(SET));
    expect(body.permissions.map((p) => p.repo_path)).toEqual(['acme/api', 'acme/web', 'acme/ops']);

    // Editing the row clears the server's error on it.
    await user.type(field, 's');
    await waitFor(() => expect(field).not.toHaveAttribute('aria-invalid'));
  });

  it('shows a conflict, then reapplies the edit on top of the current set for review', async () => {
    const current = [perm('gp-1', 'acme/api'), perm('gp-2', 'acme/web', true), perm('gp-3', 'acme/ops', true)];
    vi.stubGlobal(
      'fetch',
      serve(() =>
        json(409, {
          status: 409,
          title: 'Conflict',
          detail: 'The git permissions changed since base_version',
          base_version: gitPermissionSetVersion(SET),
          current_version: gitPermissionSetVersion(current),
          current,
          changes: null,
        }),
      ),
    );
    const user = userEvent.setup();
    renderEditor();

    await editAndApply(user);

    const conflict = await screen.findByRole('region', { name: 'Conflict' });
    expect(within(conflict).getByText(/Another change landed while you were editing/)).toBeInTheDocument();
    await user.click(within(conflict).getByRole('button', { name: 'Reapply my edit on top' }));
    const review = await screen.findByRole('region', { name: 'Review changes' });
    expect(review).toHaveTextContent('0 added, 0 removed, 1 changed');
    expect(within(review).getByRole('button', { name: 'Apply 1 changes' })).toBeEnabled();
  });

  it('shows a 502 for an answer it could not read as such, once, without retrying or taking the API for down', async () => {
    const detail =
      'The Agent Platform API answered gitPermissions.list with a body that does not match the contract (items.0.read_only)';
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/console/git-permissions/orgs/org-1')
        return json(502, { status: 502, title: 'Bad Gateway', detail });
      return json(200, { items: [], end_cursor: null, has_next_page: false });
    });
    vi.stubGlobal('fetch', fetchMock);
    offlineSignal.set(false);
    // The app's own defaults: a 5xx is retried (after 1 s, 2 s, 4 s), each retry a read of every page.
    renderEditor(createQueryClient());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The API answered something the console could not read');
    expect(alert).toHaveTextContent(detail);
    expect(alert).not.toHaveTextContent(/unavailable/i);
    expect(offlineSignal.get()).toBe(false);
    const setReads = () => fetchMock.mock.calls.filter(([url]) => url === '/console/git-permissions/orgs/org-1');
    expect(setReads()).toHaveLength(1);
  });
});
