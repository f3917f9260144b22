/** The policy file: built-in roles, grants adding up, organization limits, and reloading without a restart. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_PERMISSIONS } from '../../api/permissions';
import { createPolicyHolder } from './holder';
import { allowingGrant, parsePolicy, PolicyError, rolesFor, scopeOf } from './policy';

const policy = parsePolicy(
  JSON.stringify({
    roles: { operator: { permissions: ['ManageGitIntegrations'], organizations: ['org-a'] } },
    grants: [
      { group: 'help-desk', role: 'viewer' },
      { email: 'Dana@Example.com', role: 'operator' },
    ],
  }),
  'p.json',
);

describe('console policy', () => {
  it('adds grants up: a viewer who is also an operator holds both, the operator only in its organization', () => {
    const roles = rolesFor(policy, { via: 'oidc', email: 'dana@example.com', groups: ['help-desk'] });
    expect(roles.map((r) => r.role)).toEqual(['viewer', 'operator']);
    const scope = scopeOf(policy, roles);
    expect(scope.ManageGitIntegrations).toEqual(['org-a']);
    expect(Object.keys(scope).length).toBe(READ_PERMISSIONS.length + 1);
    expect(allowingGrant(policy, roles, 'ManageGitIntegrations', 'org-a')?.role).toBe('operator');
    expect(allowingGrant(policy, roles, 'ManageGitIntegrations', 'org-b')).toBeUndefined();
    expect(allowingGrant(policy, roles, 'ManageGitIntegrations', null)).toBeUndefined();
    // The token gets nothing unless a grant says `"token": true`.
    expect(rolesFor(policy, { via: 'token' })).toEqual([]);
  });

  it('refuses redefining a built-in role and unknown names, naming each', () => {
    expect(() => parsePolicy(JSON.stringify({ roles: { admin: { permissions: [] } }, grants: [] }), 'x')).toThrow(
      /role "admin" is built in/,
    );
    try {
      parsePolicy(JSON.stringify({ grants: [{ token: true, role: 'nobody' }], extra: 1 }), 'x');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PolicyError);
    }
  });

  it('reloads a changed file, and keeps the policy in force when the new one is bad', () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-'));
    const file = join(dir, 'policy.json');
    writeFileSync(file, JSON.stringify({ grants: [{ group: 'a', role: 'viewer' }] }));
    const lines: string[] = [];
    const holder = createPolicyHolder(file, (l) => lines.push(l), { watch: false });
    writeFileSync(file, JSON.stringify({ grants: [{ group: 'a', role: 'admin' }] }));
    expect(holder.reload()).toBe(true);
    expect(holder.current().grants[0]!.role).toBe('admin');
    writeFileSync(file, JSON.stringify({ roles: { r: { permissions: ['ManageEverything'] } }, grants: [] }));
    expect(holder.reload()).toBe(false);
    expect(holder.current().grants[0]!.role).toBe('admin');
    expect(lines.at(-1)).toMatch(
      /not reloaded, the previous policy stays in force: .*unknown permission "ManageEverything"/,
    );
  });
});
