// @vitest-environment jsdom
/**
 * The table's read-only toggle goes through the console server (PATCH /console/…/permissions/{id}, under the
 * bulk replace's lock and version check), never through /api; it sends the loaded set's version when the whole
 * set is loaded, updates the list from the answer, and on 409 reports it and reloads the list.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { gitPermissionSetVersion } from '@/api/git-permissions/set-diff';
import { type GitPermission } from '@/api/git-permissions/resources';
import { problem } from '@/api/problem';
import { ApiError } from '@/lib/api-error';
import { gitPermissionKeys, toggleErrorMessage, useToggleReadOnly, type PermissionPages } from './api';
import { json, mockConsole, perm as gitPermission } from './test-fixtures';

const perm = (id: string, read_only = false) => gitPermission(id, { read_only });

/** A console answer to the toggle: the new complete set, its version and the updated permission. */
function answer(items: GitPermission[], id: string) {
  return {
    revision: { revision_id: 7 },
    org_id: 'org-1',
    items,
    version: gitPermissionSetVersion(items),
    count: items.length,
    unchanged: false,
    permission: items.find((i) => i.git_permission_id === id)!,
  };
}

const env = mockConsole();

function seed(pages: GitPermission[][], complete = true) {
  const data: PermissionPages = {
    pageParams: pages.map((_, i) => (i === 0 ? undefined : `c${i}`)),
    pages: pages.map((items, i) => ({
      items,
      end_cursor: i < pages.length - 1 || !complete ? `c${i + 1}` : null,
      has_next_page: i < pages.length - 1 || !complete,
    })),
  };
  env.qc.setQueryData(gitPermissionKeys.infinite('org-1'), data);
  env.qc.setQueryData(gitPermissionKeys.revisions('org-1'), { pages: [], pageParams: [] });
  env.qc.setQueryData(gitPermissionKeys.current('org-1'), {
    org_id: 'org-1',
    items: [],
    version: 'gpv1-old',
    count: 0,
  });
}

const cached = () =>
  env.qc.getQueryData<PermissionPages>(gitPermissionKeys.infinite('org-1'))!.pages.flatMap((p) => p.items);
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body)) as Record<string, unknown>;

describe('useToggleReadOnly', () => {
  it('PATCHes the console endpoint with the loaded set’s version and updates the list from the answer', async () => {
    const before = [perm('gp-1'), perm('gp-2'), perm('gp-3', true)];
    seed([before.slice(0, 2), before.slice(2)]);
    const after = before.map((p) => (p.git_permission_id === 'gp-2' ? { ...p, read_only: true } : p));
    env.fetch.mockResolvedValue(json(200, answer(after, 'gp-2')));

    const { result } = renderHook(() => useToggleReadOnly('org-1'), { wrapper: env.wrapper });
    await act(() => result.current.mutateAsync({ id: 'gp-2', read_only: true }));

    expect(env.fetch).toHaveBeenCalledTimes(1);
    const [url, init] = env.fetch.mock.calls[0]! as [string, RequestInit];
    expect(url).toBe('/console/git-permissions/orgs/org-1/permissions/gp-2');
    expect(init.method).toBe('PATCH');
    expect(bodyOf(env.fetch.mock.calls[0]!)).toEqual({
      read_only: true,
      base_version: gitPermissionSetVersion(before),
    });

    expect(cached().map((p) => p.read_only)).toEqual([false, true, true]);
    // Pages and cursors are kept; the list matches the answer, so it is not read again.
    expect(env.qc.getQueryData<PermissionPages>(gitPermissionKeys.infinite('org-1'))!.pages).toHaveLength(2);
    expect(env.qc.getQueryState(gitPermissionKeys.infinite('org-1'))!.isInvalidated).toBe(false);
    // The console's complete read is the answer's set; the history is read again (the toggle is a revision).
    expect(env.qc.getQueryData(gitPermissionKeys.current('org-1'))).toMatchObject({
      version: gitPermissionSetVersion(after),
      count: 3,
    });
    expect(env.qc.getQueryState(gitPermissionKeys.revisions('org-1'))!.isInvalidated).toBe(true);
  });

  it('sends no version while the list is not complete, and reloads it when the answer has other changes', async () => {
    const loaded = [perm('gp-1'), perm('gp-2')];
    seed([loaded], false);
    const after = [perm('gp-1', true), perm('gp-2'), perm('gp-9')];
    env.fetch.mockResolvedValue(json(200, answer(after, 'gp-1')));

    const { result } = renderHook(() => useToggleReadOnly('org-1'), { wrapper: env.wrapper });
    await act(() => result.current.mutateAsync({ id: 'gp-1', read_only: true }));

    expect(bodyOf(env.fetch.mock.calls[0]!)).toEqual({ read_only: true });
    expect(cached()[0]!.read_only).toBe(true);
    expect(env.qc.getQueryState(gitPermissionKeys.infinite('org-1'))!.isInvalidated).toBe(true);
  });

  it('on 409 reports that the set changed and reloads the list', async () => {
    const before = [perm('gp-1'), perm('gp-2')];
    seed([before]);
    env.fetch.mockResolvedValue(
      json(409, {
        status: 409,
        title: 'Conflict',
        detail: 'The git permissions changed since base_version',
        base_version: gitPermissionSetVersion(before),
        current_version: 'gpv1-other',
        current: [perm('gp-1')],
        changes: { added: [], removed: [perm('gp-2')], changed: [] },
      }),
    );
    const onError = vi.fn();
    const { result } = renderHook(() => useToggleReadOnly('org-1', { onError }), { wrapper: env.wrapper });
    act(() => result.current.mutate({ id: 'gp-2', read_only: true, label: 'Repository acme/gp-2' }));

    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    const [error, variables] = onError.mock.calls[0]! as [unknown, { label: string }];
    expect(toggleErrorMessage(variables.label, error)).toMatch(
      /^Could not change Repository acme\/gp-2: the permissions changed since this list was loaded/,
    );
    expect(cached().map((p) => p.read_only)).toEqual([false, false]);
    expect(env.qc.getQueryState(gitPermissionKeys.infinite('org-1'))!.isInvalidated).toBe(true);
    expect(env.qc.getQueryState(gitPermissionKeys.current('org-1'))!.isInvalidated).toBe(true);
  });

  it('runs quick toggles one after another, each against the set the previous one left', async () => {
    const before = [perm('gp-1'), perm('gp-2')];
    seed([before]);
    const first = [perm('gp-1', true), perm('gp-2')];
    const second = [perm('gp-1', true), perm('gp-2', true)];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    env.fetch
      .mockImplementationOnce(async () => {
        await gate;
        return json(200, answer(first, 'gp-1'));
      })
      .mockImplementationOnce(async () => json(200, answer(second, 'gp-2')));

    const { result } = renderHook(() => useToggleReadOnly('org-1'), { wrapper: env.wrapper });
    let a!: Promise<unknown>;
    let b!: Promise<unknown>;
    act(() => {
      a = result.current.mutateAsync({ id: 'gp-1', read_only: true });
      b = result.current.mutateAsync({ id: 'gp-2', read_only: true });
    });
    await waitFor(() => expect(env.fetch).toHaveBeenCalledTimes(1));
    release();
    await act(async () => {
      await Promise.all([a, b]);
    });

    expect(env.fetch).toHaveBeenCalledTimes(2);
    expect(bodyOf(env.fetch.mock.calls[0]!).base_version).toBe(gitPermissionSetVersion(before));
    expect(bodyOf(env.fetch.mock.calls[1]!).base_version).toBe(gitPermissionSetVersion(first));
    expect(cached().map((p) => p.read_only)).toEqual([true, true]);
  });

  it('explains a permission that no longer exists, and any other failure', () => {
    const gone = new ApiError(404, problem(404, 'Git permission gp-2 not found'));
    expect(toggleErrorMessage('Repository a/b', gone)).toMatch(
      /^Could not change Repository a\/b: it no longer exists/,
    );
    expect(toggleErrorMessage('Repository a/b', new Error('offline'))).toBe('Could not change Repository a/b: offline');
  });
});
