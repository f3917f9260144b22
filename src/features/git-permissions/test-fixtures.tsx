/** What the git-permission tests build their sets and the console's answers from (not shipped: tests only). */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, vi, type Mock } from 'vitest';
import type { ConsoleApplyResult } from '@/api/console/git-permissions';
import type { GitPermission } from '@/api/git-permissions/resources';
import { gitPermissionSetVersion } from '@/api/git-permissions/set-diff';

/** A repository permission on `conn-1`, `acme/<id>` unless told otherwise. */
export const perm = (id: string, extra: Partial<GitPermission> = {}): GitPermission => ({
  git_permission_id: id,
  git_connection_id: 'conn-1',
  repo_path: `acme/${id}`,
  prefix_path: null,
  group_prefix: null,
  read_only: false,
  created_at: 1,
  ...extra,
});

/** A JSON answer; a problem body from 400 up. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

/** The console's answer to a change that made `items` the set. */
export const applied = (items: GitPermission[]): ConsoleApplyResult => ({
  org_id: 'org-1',
  items,
  version: gitPermissionSetVersion(items),
  count: items.length,
  revision: null,
  unchanged: false,
});

/**
 * Per test: a fresh query client (no retries) and `fetch` replaced by a mock; `wrapper` renders a hook with
 * the client. Call it at the top of a test file.
 */
export function mockConsole() {
  const env = {
    fetch: vi.fn() as Mock,
    qc: new QueryClient(),
    wrapper: ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={env.qc}>{children}</QueryClientProvider>
    ),
  };
  beforeEach(() => {
    env.fetch = vi.fn();
    vi.stubGlobal('fetch', env.fetch);
    env.qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    env.qc.clear();
  });
  return env;
}
