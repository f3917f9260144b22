// @vitest-environment jsdom
/**
 * The one hook that changes a set (replace, clear, restore): it sends the base's version and items, and
 * turns the console's answer into an outcome — done, a conflict (the 409 body), errors on the items a 422
 * names (the rest for the form-level alert), or a failure.
 */
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { gitPermissionSetVersion, normalizeGitPermission } from '@/api/git-permissions/set-diff';
import { isApiError } from '@/lib/api-error';
import { applied, json, mockConsole, perm as gitPermission } from './test-fixtures';
import { changeFieldOf, gitPermissionKeys, useApplyGitPermissionChange, type GitPermissionChange } from './api';

const perm = (id: string, read_only = false) => gitPermission(id, { read_only });

const BASE = [perm('gp-1'), perm('gp-2')];
const base = { version: gitPermissionSetVersion(BASE), items: BASE };

const env = mockConsole();
const sent = (i = 0) => {
  const [url, init] = env.fetch.mock.calls[i]! as [string, RequestInit];
  return { url, method: init.method, body: JSON.parse(String(init.body)) as Record<string, unknown> };
};

async function apply(change: GitPermissionChange) {
  const { result } = renderHook(() => useApplyGitPermissionChange('org-1'), { wrapper: env.wrapper });
  const outcome = await act(() => result.current.apply(change, base));
  return { outcome, hook: result };
}

describe('useApplyGitPermissionChange', () => {
  it('sends a replace with the base version and items; success → done, and the set is read again', async () => {
    const after = [perm('gp-1', true), perm('gp-2')];
    env.fetch.mockResolvedValue(json(200, applied(after)));
    env.qc.setQueryData(gitPermissionKeys.current('org-1'), { items: BASE });
    const permissions = after.map(normalizeGitPermission);

    const { outcome, hook } = await apply({ action: 'replace', permissions });

    expect(sent()).toEqual({
      url: '/console/git-permissions/orgs/org-1',
      method: 'PUT',
      body: { base_version: base.version, base: BASE.map(normalizeGitPermission), permissions },
    });
    expect(outcome).toEqual({ status: 'done', result: applied(after) });
    expect(hook.current.outcome).toEqual(outcome);
    expect(hook.current.formError).toBeNull();
    expect(env.qc.getQueryState(gitPermissionKeys.current('org-1'))!.isInvalidated).toBe(true);
  });

  it('turns a 409 into the conflict view’s data: the set as it is now and what changed', async () => {
    const current = [perm('gp-1'), perm('gp-2', true)];
    const body = {
      type: 'about:blank',
      status: 409,
      title: 'Conflict',
      detail: 'The git permissions changed since base_version',
      base_version: base.version,
      current_version: gitPermissionSetVersion(current),
      current,
      // As the console sends it: the base's side as it was sent (normalized, no ids).
      changes: {
        added: [],
        removed: [],
        changed: [{ key: 'k', before: normalizeGitPermission(BASE[1]!), after: current[1] }],
        unchanged: 1,
      },
    };
    env.fetch.mockResolvedValue(json(409, body));

    const { outcome, hook } = await apply({ action: 'clear' });

    expect(sent()).toMatchObject({ method: 'DELETE', body: { base_version: base.version } });
    expect(outcome.status).toBe('conflict');
    if (outcome.status !== 'conflict') return;
    expect(outcome.conflict.current_version).toBe(body.current_version);
    expect(outcome.conflict.current).toEqual(current);
    expect(outcome.conflict.changes?.changed).toHaveLength(1);
    // A conflict is its own view, not a form-level alert.
    expect(hook.current.formError).toBeNull();
  });

  it('turns a 422 into errors on the items it names, and leaves the rest for the form-level alert', async () => {
    env.fetch.mockResolvedValue(
      json(422, {
        status: 422,
        title: 'Unprocessable Entity',
        detail: 'Validation failed',
        errors: [
          { loc: ['body', 'permissions', 1, 'repo_path'], msg: 'repo_path must be a repository path', type: 'pattern' },
          { loc: ['body', 'permissions', 0], msg: 'Not an object', type: 'type' },
          { loc: ['body', 'base_version'], msg: 'base_version is required', type: 'missing' },
        ],
      }),
    );
    const permissions = [
      normalizeGitPermission(perm('gp-1')),
      { ...normalizeGitPermission(perm('x')), repo_path: 'x' },
    ];

    const { outcome, hook } = await apply({ action: 'replace', permissions });

    expect(outcome.status).toBe('invalid');
    if (outcome.status !== 'invalid') return;
    expect([...outcome.fieldErrors]).toEqual([
      ['permissions.1.repo_path', ['repo_path must be a repository path']],
      ['permissions.0', ['Not an object']],
    ]);
    const rest = hook.current.formError;
    expect(isApiError(rest) && rest.status === 422 && rest.fieldErrors.map((e) => e.msg)).toEqual([
      'base_version is required',
    ]);
  });

  it('restores a revision with the base; any other failure is a failure, shown on the form', async () => {
    env.fetch.mockResolvedValue(json(503, { status: 503, title: 'Service Unavailable', detail: 'Upstream down' }));

    const { outcome, hook } = await apply({ action: 'restore', revisionId: 7, set: 'previous' });

    expect(sent()).toMatchObject({
      url: '/console/git-permissions/orgs/org-1/revisions/7/restore',
      method: 'POST',
      body: { base_version: base.version, set: 'previous' },
    });
    expect(outcome.status).toBe('failed');
    expect(isApiError(hook.current.formError) && hook.current.formError.status).toBe(503);
    act(() => hook.current.reset());
    expect(hook.current.outcome).toBeNull();
    expect(hook.current.formError).toBeNull();
  });
});

describe('changeFieldOf', () => {
  it('places an error on an item’s field, on the item, or on the form', () => {
    expect(changeFieldOf('permissions.3.repo_path', 5)).toBe('permissions.3.repo_path');
    expect(changeFieldOf('permissions.3.colour', 5)).toBe('permissions.3');
    expect(changeFieldOf('permissions.3', 5)).toBe('permissions.3');
    expect(changeFieldOf('permissions.7.repo_path', 5)).toBeNull();
    expect(changeFieldOf('permissions', 5)).toBeNull();
    expect(changeFieldOf('base_version', 5)).toBeNull();
  });
});
