/**
 * Creating a service user offers only the roles the console's credential may grant and the signed-in person's
 * console roles allow at that level: the console's one credential gives nobody more than the person holds, and
 * each role left out says which of its permissions the console's policy refuses the person.
 */
import { describe, expect, it } from 'vitest';
import type { Role } from '@/api/operations/members';
import type { Self } from '@/api/operations/organizations';
import { grantableDescription, grantableRoles, refusalReason, type PersonScope } from './roles';

const role = (role_id: string, role_type: 'enterprise' | 'org', permissions: string[]): Role => ({
  role_id,
  role_name: role_id,
  role_type,
  permissions,
});
const ROLES = [
  role('role-git', 'enterprise', ['ManageGitIntegrations']),
  role('role-sessions', 'org', ['ManageOrgSessions', 'UseAgentSessions']),
  role('role-member', 'org', ['UseAgentSessions']),
];
/** The console's credential holds everything grantable, enterprise-wide. */
const self: Self = {
  principal_type: 'service_user',
  role_assignments: [
    {
      role: { ...role('role-all', 'enterprise', ['ManageGitIntegrations', 'ManageOrgSessions', 'UseAgentSessions']) },
      org_id: null,
    },
  ],
};
/** An operator: sessions in org-a only, agent sessions everywhere. */
const operator: PersonScope = { ManageOrgSessions: ['org-a'], UseAgentSessions: '*' };

describe('the roles a person may give a new service user through the console', () => {
  it('offers what both the credential and the person’s roles hold at the level, saying why not the rest', () => {
    const inA = grantableRoles(ROLES, self, 'org-a', operator);
    expect(inA.offered.map((r) => r.role_id)).toEqual(['role-sessions', 'role-member']);
    const inB = grantableRoles(ROLES, self, 'org-b', operator);
    expect(inB.offered.map((r) => r.role_id)).toEqual(['role-member']);
    expect(inB.refused.map((r) => r.role.role_id)).toEqual(['role-sessions']);
    expect(refusalReason(inB.refused[0]!)).toBe(
      "holds ManageOrgSessions, which your console roles do not allow at this level (the console's policy refuses it)",
    );
    const enterprise = grantableRoles(ROLES, self, null, operator);
    expect(enterprise.offered).toEqual([]);
    expect(refusalReason(enterprise.refused[0]!)).toContain(
      'ManageGitIntegrations, which your console roles do not allow',
    );
    // Without the person's roles (an older console), the credential alone decides.
    expect(grantableRoles(ROLES, self, 'org-b').offered.map((r) => r.role_id)).toEqual([
      'role-sessions',
      'role-member',
    ]);
    expect(grantableDescription('org-a', true)).toBe(
      'Only roles whose permissions the console’s own credential holds and your console roles allow in this organization are offered.',
    );
  });
});
