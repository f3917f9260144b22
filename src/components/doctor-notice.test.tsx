// @vitest-environment jsdom
/**
 * The shell's doctor notice: shown when the last report found refused operations (how many, which permissions),
 * linking to the Doctor screen; absent when nothing was refused; dismissed per report.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DoctorSummary } from '@/api/console/doctor';
import { DoctorNotice } from './doctor-notice';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  window.localStorage.clear();
  // The router restores scroll on navigation; jsdom has no layout.
  window.scrollTo = () => {};
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function summary(over: Partial<DoctorSummary>): DoctorSummary {
  return {
    running: false,
    ran_at: 1_700_000_000,
    credential_works: true,
    verdict: { level: 'warn', line: 'The credential works, with findings' },
    refused: [],
    refused_count: 0,
    ...over,
  };
}

function renderShell(body: DoctorSummary) {
  fetchMock.mockImplementation(async (input) => {
    expect(String(input)).toBe('/console/doctor/summary');
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const root = createRootRoute({
    component: () => (
      <>
        <DoctorNotice />
        <Outlet />
      </>
    ),
  });
  const home = createRoute({ getParentRoute: () => root, path: '/', component: () => <p>Home</p> });
  const doctor = createRoute({ getParentRoute: () => root, path: '/doctor', component: () => <h1>Doctor page</h1> });
  const router = createRouter({
    routeTree: root.addChildren([home, doctor]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('doctor notice', () => {
  it('names the refused operations and links to the Doctor screen', async () => {
    renderShell(
      summary({
        refused_count: 3,
        refused: [
          { id: 'gitConnections.list', permission: 'ManageGitIntegrations' },
          { id: 'gitPermissions.list', permission: 'ManageGitIntegrations' },
          { id: 'acuLimits.list', permission: 'ManageBilling' },
        ],
      }),
    );
    const notice = await screen.findByText(/The last doctor run found 3 operations/);
    expect(notice.textContent).toContain('needs ManageGitIntegrations, ManageBilling');
    await userEvent.setup().click(screen.getByRole('link', { name: 'See the Doctor' }));
    expect(await screen.findByRole('heading', { name: 'Doctor page' })).toBeTruthy();
  });

  it('is absent when nothing was refused, or before any run', async () => {
    renderShell(summary({ refused_count: 0 }));
    await screen.findByText('Home');
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByText(/The last doctor run found/)).toBeNull();
    cleanup();
    renderShell(summary({ ran_at: null, credential_works: null, verdict: null }));
    await screen.findByText('Home');
    expect(screen.queryByText(/The last doctor run found/)).toBeNull();
  });

  it('stays dismissed for the same report only', async () => {
    const refused = { refused_count: 1, refused: [{ id: 'acuLimits.list', permission: 'ManageBilling' }] };
    renderShell(summary(refused));
    await screen.findByText(/found 1 operation the console/);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss the doctor notice' }));
    expect(screen.queryByText(/found 1 operation/)).toBeNull();
    cleanup();
    renderShell(summary(refused));
    await screen.findByText('Home');
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByText(/found 1 operation/)).toBeNull();
    cleanup();
    renderShell(summary({ ...refused, ran_at: 1_700_000_500 }));
    expect(await screen.findByText(/found 1 operation/)).toBeTruthy();
  });
});
