// @vitest-environment jsdom
/**
 * The Doctor follows the signed-in person's console roles: beside what the credential may do, each read
 * operation and screen says what the person's roles allow, and marks what the console's policy refuses them —
 * naming the permission — even where the credential is allowed.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DoctorOperationResult, DoctorReport } from '@/api/console/doctor';
import { DoctorScreen } from './doctor-screen';

const verdict = { level: 'ok' as const, line: 'ok' };
const op = (id: string, permission: string, scope: 'enterprise' | 'organization'): DoctorOperationResult => ({
  id,
  method: 'GET',
  path: scope === 'organization' ? `/v3/organizations/{org_id}/${id}` : `/v3/enterprise/${id}`,
  request: `/v3/${id}?first=1`,
  permission,
  scope,
  outcome: 'allowed',
  status: 200,
  ms: 5,
  detail: null,
  refused_permission: null,
  defects: 0,
  unknown_fields: 0,
});

const report: DoctorReport = {
  version: 1,
  started_at: 1_700_000_000,
  duration_ms: 1200,
  target: { base_url: 'http://127.0.0.1:8787', mode: 'sandbox' },
  credential_works: true,
  verdict,
  reach: {
    verdict,
    scheme: 'http',
    host: '127.0.0.1',
    loopback: true,
    addresses: [],
    rtt_ms: 1,
    status: 200,
    tls: null,
    problem: null,
  },
  identity: { verdict, credential_form: 'cog', self: 'present', principal: null, unauthorized: null },
  operations: {
    verdict,
    counts: { allowed: 3, refused: 0, not_present: 0, failed: 0, skipped: 0 },
    items: [
      op('sessions.list', 'ViewOrgSessions', 'organization'),
      op('sessions.enterprise.list', 'ViewAccountSessions', 'enterprise'),
      op('gitPermissions.list', 'ManageGitIntegrations', 'organization'),
    ],
  },
  conformance: { verdict, checked: 3, conforming: 3, issues: [], unknown_fields: { count: 0, items: [] } },
  rate_limit: {
    verdict,
    requests: 3,
    retry_after_seen: false,
    responses_429: 0,
    waited_ms: 0,
    min_interval_ms: 0,
    max_per_second: 3,
  },
};

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** The console as an operator limited to one organization sees it: sessions there, nothing enterprise-wide. */
function serve() {
  return vi.fn(async (url: string) => {
    if (url.startsWith('/console/session')) {
      return json({
        signed_in: true,
        method: 'oidc',
        name: 'Dana Reyes',
        roles: [{ role: 'operator', grant: 'email dana@example.com → operator' }],
        permissions: { ViewOrgSessions: ['org-a'], ViewAccountSessions: ['org-a'] },
      });
    }
    if (url.startsWith('/console/doctor')) return json({ running: null, report, error: null });
    return json({});
  });
}

/** jsdom has no layout: the tables' scrolling areas report a viewport, so the virtualized rows render. */
beforeEach(() => {
  const viewport = function (this: HTMLElement) {
    return this.getAttribute('role') === 'table' ? 600 : this.getAttribute('role') === 'row' ? 48 : 0;
  };
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(viewport);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(viewport);
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
  vi.restoreAllMocks();
});

describe('the Doctor and the person’s console roles', () => {
  it('marks the operations and screens the roles refuse, naming the permission and the console’s policy', async () => {
    vi.stubGlobal('fetch', serve());
    const router = createRouter({
      routeTree: createRootRoute({ component: DoctorScreen }),
      history: createMemoryHistory(),
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const line = await screen.findByTestId('doctor-verdict-roles', undefined, { timeout: 5_000 });
    expect(line).toHaveTextContent(/Your console roles refuse 2 of 3 read operations and \d+ of \d+ screens/);
    expect(screen.getByRole('heading', { name: 'Your console roles: operator' })).toBeVisible();

    const ops = screen.getByRole('table', { name: 'Read operations' });
    const git = within(ops).getByRole('row', { name: /gitPermissions\.list/ });
    expect(git).toHaveTextContent('Policy refuses');
    expect(git).toHaveTextContent(
      "Your console roles do not allow ManageGitIntegrations: the console's policy refuses it, whatever the credential may do",
    );
    // Limited to one organization: not across the enterprise, but in that organization.
    expect(within(ops).getByRole('row', { name: /sessions\.enterprise\.list/ })).toHaveTextContent(
      'Your console roles allow ViewAccountSessions only in 1 organization, not across the enterprise',
    );
    expect(within(ops).getByRole('row', { name: /^sessions\.list/ })).toHaveTextContent('Some organizations');
    expect(screen.getByRole('button', { name: 'Refused by your roles (2)' })).toBeVisible();

    const screens = screen.getByRole('table', { name: 'Screens of the console' });
    expect(within(screens).getByRole('row', { name: /Enterprise: Audit logs/ })).toHaveTextContent(
      "Your console roles do not allow ViewAccountAuditLogs: the console's policy refuses it",
    );
  });
});
