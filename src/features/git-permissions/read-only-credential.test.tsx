// @vitest-environment jsdom
/**
 * The git permissions screen with a credential that lacks ManageGitIntegrations (the sandbox's viewer): Bulk
 * edit and History are not offered as working links but disabled, and every disabled action (Clear all too)
 * says why in words. With the permission they are links, and an empty set's Clear all says there is nothing.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GitPermissionsTable } from './permissions-table';
import { json } from './test-fixtures';

const SEARCH = { q: '', sort: 'matcher', dir: 'asc', access: 'all' } as const;

/** The API as a credential holding `permissions` sees it: git permissions refused without the permission. */
function serve(permissions: string[]) {
  const allowed = permissions.includes('ManageGitIntegrations');
  return vi.fn(async (url: string) => {
    if (url.startsWith('/api/v3/self')) return json(200, { principal_type: 'service_user', permissions });
    if (!allowed)
      return json(403, {
        type: 'about:blank',
        status: 403,
        title: 'Forbidden',
        detail: 'Missing permission ManageGitIntegrations',
      });
    if (url.includes('/permissions')) return json(200, { items: [], has_next_page: false, end_cursor: null });
    return json(200, { items: [], has_next_page: false, end_cursor: null });
  });
}

function renderTable() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <GitPermissionsTable orgId="org-1" search={SEARCH} /> }),
    history: createMemoryHistory(),
  });
  render(
    <QueryClientProvider client={qc}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  window.scrollTo = () => {};
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('git permissions actions and the credential’s permission', () => {
  it('disables Bulk edit, History and Clear all for a read-only credential, saying why', async () => {
    vi.stubGlobal('fetch', serve(['ViewOrgSessions']));
    renderTable();
    const reason =
      "Bulk edit, History and Clear all are not available: Requires the ManageGitIntegrations permission, which the console's credential does not hold.";
    const bulk = await screen.findByRole('button', { name: 'Bulk edit' }, { timeout: 5_000 });
    expect(bulk).toBeDisabled();
    expect(bulk).toHaveAccessibleDescription(reason);
    expect(screen.getByRole('button', { name: 'History' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Clear all…' })).toHaveAccessibleDescription(reason);
    expect(screen.getByText(reason)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Bulk edit' })).toBeNull();
  });

  it('offers them as links with the permission; an empty set’s Clear all says there is nothing to clear', async () => {
    vi.stubGlobal('fetch', serve(['ManageGitIntegrations']));
    renderTable();
    expect(await screen.findByText(/nothing to clear/, undefined, { timeout: 5_000 })).toBeVisible();
    const clear = screen.getByRole('button', { name: 'Clear all…' });
    expect(clear).toBeDisabled();
    expect(clear).toHaveAccessibleDescription('Clear all: nothing to clear, this organization has no git permissions.');
    expect(screen.getByRole('link', { name: 'Bulk edit' })).toHaveAttribute('href', '/orgs/org-1/git-permissions/edit');
    expect(screen.getByRole('link', { name: 'History' })).toBeVisible();
  });
});
