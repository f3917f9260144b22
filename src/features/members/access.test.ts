/**
 * Effective access: every path to a permission (direct, through an IdP group; enterprise-wide, per
 * organization), who holds a permission where — always the same answer as the contract's `permissionsAt` —
 * the roles a credential may give a new service user, and the access-review CSV; and with the vendor's shapes
 * (roles without permissions, users without inherited roles), what can be established and nothing more.
 */
import { describe, expect, it } from 'vitest';
import { permissionsAt, type Role, type User } from '@/api/operations/members';
import type { ServiceUser } from '@/api/operations/service-users';
import type { Self } from '@/api/operations/organizations';
import { parseCsvRecords } from '@/lib/csv';
import {
  ACCESS_CSV_HEADER,
  accessCsv,
  fromServiceUser,
  fromUser,
  gapsOf,
  grantsOf,
  HOLDINGS_CSV_HEADER,
  holdersOf,
  holdingsCsv,
  holdingsOf,
  principalKey,
  roleHoldersAt,
  type AccessPrincipal,
} from './access';
import {
  grantableRoles,
  PERMISSIONS_NOT_PUBLISHED,
  permissionCount,
  refusalReason,
  roleKind,
  roleOptionLabel,
  rolePermissionsOf,
} from './roles';
import { memberMatches, MembersSearch } from './search';

const role = (role_id: string, role_type: 'enterprise' | 'org', permissions: string[]): Role => ({
  role_id,
  role_name: role_id.replace(/^role-/, '').replace(/-/g, ' '),
  role_type,
  permissions,
});

const ROLES = [
  role('role-admin', 'enterprise', [
    'ManageGitIntegrations',
    'ManageOrgSessions',
    'UseAgentSessions',
    'ManageAccountServiceUsers',
    'ManageOrgServiceUsers',
  ]),
  role('role-platform', 'enterprise', ['ManageGitIntegrations', 'UseAgentSessions']),
  role('role-org-admin', 'org', ['ManageOrgSessions', 'UseAgentSessions', 'ManageOrgServiceUsers']),
  role('role-org-member', 'org', ['UseAgentSessions']),
  role('role-org-operator', 'org', ['ManageOrgSessions']),
];
const perms = rolePermissionsOf(ROLES);
const ref = (id: string) => {
  const r = ROLES.find((x) => x.role_id === id)!;
  return { role_id: r.role_id, role_name: r.role_name, role_type: r.role_type };
};

const user = (email: string, extra: Partial<User> = {}): User => ({
  user_id: `user-${email.split('@')[0]}`,
  email,
  name: null,
  role_assignments: [],
  idp_role_assignments: [],
  ...extra,
});

const ada = user('ada@x.io', { role_assignments: [{ role: ref('role-platform'), org_id: null }] });
const bob = user('bob@x.io', {
  role_assignments: [{ role: ref('role-org-admin'), org_id: 'org-1' }],
  idp_role_assignments: [{ role: ref('role-org-member'), org_id: 'org-2', idp_group_name: 'eng' }],
});
const cy = user('cy@x.io', {
  idp_role_assignments: [{ role: ref('role-admin'), org_id: null, idp_group_name: 'admins' }],
});
const dee = user('dee@x.io');
const ci: ServiceUser = {
  service_user_id: 'service-user-ci',
  name: 'CI',
  role_assignments: [{ role: ref('role-platform'), org_id: null }],
};
const orgBot: ServiceUser = {
  service_user_id: 'service-user-org-bot',
  name: 'Org bot',
  org_id: 'org-1',
  role_assignments: [{ role: ref('role-org-admin'), org_id: 'org-1' }],
};
const PRINCIPALS: AccessPrincipal[] = [
  ...[ada, bob, cy, dee].map((u) => fromUser(u)),
  ...[ci, orgBot].map(fromServiceUser),
];
const keys = (holders: ReadonlyArray<{ principal: AccessPrincipal }>) => holders.map((h) => principalKey(h.principal));

describe('what one principal holds', () => {
  it('lists each permission with where it holds, the role and the path (direct or IdP group)', () => {
    expect(grantsOf(fromUser(bob), perms)).toEqual([
      {
        permission: 'ManageOrgServiceUsers',
        orgId: 'org-1',
        roleId: 'role-org-admin',
        roleName: 'org admin',
        idpGroup: null,
      },
      {
        permission: 'ManageOrgSessions',
        orgId: 'org-1',
        roleId: 'role-org-admin',
        roleName: 'org admin',
        idpGroup: null,
      },
      {
        permission: 'UseAgentSessions',
        orgId: 'org-1',
        roleId: 'role-org-admin',
        roleName: 'org admin',
        idpGroup: null,
      },
      {
        permission: 'UseAgentSessions',
        orgId: 'org-2',
        roleId: 'role-org-member',
        roleName: 'org member',
        idpGroup: 'eng',
      },
    ]);
    expect(grantsOf(fromUser(cy), perms).every((g) => g.orgId === null && g.idpGroup === 'admins')).toBe(true);
    expect(grantsOf(fromUser(dee), perms)).toEqual([]);
  });

  it('lists enterprise-wide grants before organization ones, and a role it cannot read grants nothing', () => {
    const both = fromUser(
      user('eve@x.io', {
        role_assignments: [
          { role: ref('role-org-member'), org_id: 'org-1' },
          { role: ref('role-platform'), org_id: null },
          { role: { role_id: 'role-gone', role_name: 'Gone', role_type: 'org' }, org_id: 'org-1' },
        ],
      }),
    );
    expect(
      grantsOf(both, perms)
        .filter((g) => g.permission === 'UseAgentSessions')
        .map((g) => g.orgId),
    ).toEqual([null, 'org-1']);
    expect(grantsOf(both, perms).some((g) => g.roleId === 'role-gone')).toBe(false);
  });
});

describe('who holds a permission where', () => {
  it('counts enterprise-wide roles in every organization, organization roles in theirs only', () => {
    expect(keys(holdersOf(PRINCIPALS, 'ManageGitIntegrations', 'org-1', perms))).toEqual([
      'user:user-ada',
      'user:user-cy',
      'service_user:service-user-ci',
    ]);
    expect(keys(holdersOf(PRINCIPALS, 'ManageOrgSessions', 'org-1', perms))).toEqual([
      'user:user-bob',
      'user:user-cy',
      'service_user:service-user-org-bot',
    ]);
    expect(keys(holdersOf(PRINCIPALS, 'ManageOrgSessions', 'org-2', perms))).toEqual(['user:user-cy']);
    // The enterprise level: enterprise-wide grants only.
    expect(keys(holdersOf(PRINCIPALS, 'ManageOrgSessions', null, perms))).toEqual(['user:user-cy']);
  });

  it('names every path a holder has to the permission there', () => {
    const [bobHolds] = holdersOf([fromUser(bob)], 'UseAgentSessions', 'org-2', perms);
    expect(bobHolds?.grants.map((g) => [g.roleId, g.idpGroup])).toEqual([['role-org-member', 'eng']]);
  });

  it('always agrees with the contract’s permissionsAt', () => {
    const permissions = [...new Set(ROLES.flatMap((r) => r.permissions ?? []))];
    for (const level of [null, 'org-1', 'org-2', 'org-3']) {
      for (const permission of permissions) {
        const expected = PRINCIPALS.filter((p) => permissionsAt(p.assignments, perms, level).has(permission));
        expect(keys(holdersOf(PRINCIPALS, permission, level, perms)).sort(), `${permission} at ${level}`).toEqual(
          expected.map(principalKey).sort(),
        );
      }
    }
  });
});

describe('the roles the console may give a new service user', () => {
  const self = (assignments: Array<{ id: string; org_id: string | null }>): Self => ({
    principal_type: 'service_user',
    role_assignments: assignments.map((a) => ({
      role: { ...ref(a.id), permissions: [...(perms(a.id) ?? [])] },
      org_id: a.org_id,
    })),
  });

  it('offers only subsets of what the credential holds at the level, never the service-user-management permissions', () => {
    const platform = self([{ id: 'role-platform', org_id: null }]);
    const ent = grantableRoles(ROLES, platform, null);
    expect(ent.known).toBe(true);
    expect(ent.offered.map((r) => r.role_id)).toEqual(['role-platform']);
    expect(ent.refused.map((r) => [r.role.role_id, r.check])).toEqual([
      [
        'role-admin',
        { missing: ['ManageOrgSessions'], ungrantable: ['ManageAccountServiceUsers', 'ManageOrgServiceUsers'] },
      ],
    ]);
    expect(refusalReason(ent.refused[0]!)).toBe(
      "holds ManageAccountServiceUsers and ManageOrgServiceUsers, which can never be granted to a service user; it also holds ManageOrgSessions, which the console's credential does not hold at this level",
    );
    // Organization level: organization roles; what the credential holds enterprise-wide holds there too.
    const org = grantableRoles(ROLES, platform, 'org-1');
    expect(org.offered.map((r) => r.role_id)).toEqual(['role-org-member']);
    expect(org.refused.map((r) => r.role.role_id)).toEqual(['role-org-admin', 'role-org-operator']);
  });

  it('counts an organization role of the credential in that organization only', () => {
    const operator = self([
      { id: 'role-platform', org_id: null },
      { id: 'role-org-operator', org_id: 'org-1' },
    ]);
    expect(grantableRoles(ROLES, operator, 'org-1').offered.map((r) => r.role_id)).toEqual([
      'role-org-member',
      'role-org-operator',
    ]);
    expect(grantableRoles(ROLES, operator, 'org-2').offered.map((r) => r.role_id)).toEqual(['role-org-member']);
  });

  it('even the enterprise admin cannot give a role holding a service-user-management permission', () => {
    const admin = self([{ id: 'role-admin', org_id: null }]);
    expect(grantableRoles(ROLES, admin, null).offered.map((r) => r.role_id)).toEqual(['role-platform']);
    expect(grantableRoles(ROLES, admin, 'org-1').offered.map((r) => r.role_id)).toEqual([
      'role-org-member',
      'role-org-operator',
    ]);
  });

  it('offers every role of the level when the API does not say what the credential holds', () => {
    const unknown = grantableRoles(ROLES, { principal_type: 'service_user' }, null);
    expect(unknown.known).toBe(false);
    expect(unknown.offered.map((r) => r.role_id)).toEqual(['role-admin', 'role-platform']);
  });
});

describe('the access-review CSV', () => {
  it('writes one record per path, with a formula in a name written as text', () => {
    const evil = fromUser(
      user('=HYPERLINK("x")@x.io', {
        name: '@SUM(1)',
        role_assignments: [{ role: ref('role-platform'), org_id: null }],
      }),
    );
    const rows = grantsOf(evil, perms).map((grant) => ({ principal: evil, grant }));
    const records = parseCsvRecords(accessCsv(rows, (id) => `Org ${id}`));
    expect(records[0]).toEqual([...ACCESS_CSV_HEADER]);
    expect(records).toHaveLength(3);
    expect(records[1]).toEqual([
      'user',
      'user-=HYPERLINK("x")',
      `'=HYPERLINK("x")@x.io`,
      "'@SUM(1)",
      'ManageGitIntegrations',
      'enterprise',
      '',
      '',
      'role-platform',
      'platform',
      'direct',
      '',
    ]);
    const viaGroup = grantsOf(fromUser(bob), perms).map((grant) => ({ principal: fromUser(bob), grant }));
    expect(
      parseCsvRecords(accessCsv(viaGroup, (id) => `Org ${id}`))
        .at(-1)
        ?.slice(4),
    ).toEqual([
      'UseAgentSessions',
      'organization',
      'org-2',
      'Org org-2',
      'role-org-member',
      'org member',
      'idp_group',
      'eng',
    ]);
  });
});

describe('member filters', () => {
  it('match part of an address or name, and a role (in an organization when one is given), IdP roles included', () => {
    const s = (v: Record<string, string>) => MembersSearch.parse(v);
    expect(memberMatches(bob, s({ q: 'BOB' }))).toBe(true);
    expect(memberMatches(bob, s({ q: 'ada' }))).toBe(false);
    expect(memberMatches(bob, s({ role: 'role-org-member' }))).toBe(true);
    expect(memberMatches(bob, s({ role: 'role-org-member', org: 'org-2' }))).toBe(true);
    expect(memberMatches(bob, s({ role: 'role-org-member', org: 'org-1' }))).toBe(false);
    expect(memberMatches(bob, s({ org: 'org-1' }))).toBe(true);
    expect(memberMatches(dee, s({ org: 'org-1' }))).toBe(false);
    // A whole address is the API's filter (exact), not the browser's.
    expect(memberMatches(bob, s({ q: 'someone@else.io' }))).toBe(true);
  });
});

describe('roles whose permissions the API does not publish (the vendor’s Role)', () => {
  // The vendor's shapes: no permissions, no is_built_in, users without idp_role_assignments.
  const vendorRoles: Role[] = ROLES.map(({ role_id, role_name, role_type }) => ({ role_id, role_name, role_type }));
  const unknown = rolePermissionsOf(vendorRoles);
  const vendorAda: User = {
    user_id: 'user-ada',
    email: 'ada@x.io',
    name: null,
    role_assignments: ada.role_assignments,
  };
  const vendorCy: User = { user_id: 'user-cy', email: 'cy@x.io', name: null, role_assignments: [] };

  it('reads an absent permissions field as unknown, never as none', () => {
    expect(unknown('role-platform')).toBeUndefined();
    expect(permissionCount(vendorRoles[1]!)).toBe(PERMISSIONS_NOT_PUBLISHED);
    expect(roleOptionLabel(vendorRoles[1]!)).toBe('platform');
    expect(permissionCount({ ...vendorRoles[1]!, permissions: [] })).toBe('0 permissions');
    expect(roleKind({})).toBeUndefined();
    expect(roleKind({ is_built_in: true })).toBe('Built-in');
    expect(roleKind({ is_built_in: false })).toBe('Custom');
  });

  it('names each role held, its level and its source, and says the permissions cannot be established', () => {
    const idp = new Map([['user-cy', cy.idp_role_assignments!]]);
    const people = [fromUser(vendorAda, idp), fromUser(vendorCy, idp)];
    expect(people.every((p) => p.idpKnown)).toBe(true);
    expect(holdingsOf(people[1]!)).toEqual([
      { roleId: 'role-admin', roleName: 'admin', orgId: null, idpGroup: 'admins' },
    ]);
    expect(grantsOf(people[0]!, unknown)).toEqual([]);
    const gaps = gapsOf(people, unknown, true);
    expect(gaps.complete).toBe(false);
    expect(gaps.unpublishedRoles).toEqual(['admin', 'platform']);
    // Who holds which role in org-1: the enterprise-wide roles hold there too.
    expect(roleHoldersAt([...people, fromUser(bob)], 'org-1').map((h) => [h.principal.id, h.holdings.length])).toEqual([
      ['user-ada', 1],
      ['user-bob', 1],
      ['user-cy', 1],
    ]);
  });

  it('knows a person’s IdP roles only from the list itself or the IdP users’ list read whole', () => {
    expect(fromUser(vendorCy).idpKnown).toBe(false);
    expect(gapsOf([fromUser(vendorCy)], perms, true)).toMatchObject({ idpUnknown: 1, complete: false });
    expect(gapsOf([fromUser(vendorCy, new Map())], perms, true).complete).toBe(true);
    expect(gapsOf([fromUser(vendorCy, new Map())], perms, false)).toMatchObject({
      serviceUsersUnread: true,
      complete: false,
    });
  });

  it('offers every role of the level when their permissions are not published, and says why', () => {
    const self = {
      role_assignments: [
        { role: { role_id: 'role-admin', role_name: 'admin', role_type: 'enterprise' }, org_id: null },
      ],
    } as unknown as Self;
    const g = grantableRoles(vendorRoles, self, null);
    expect(g.known).toBe(false);
    expect(g.offered.map((r) => r.role_id)).toEqual(['role-admin', 'role-platform']);
    expect(g.unknownReason).toMatch(/does not publish the permissions/);
  });

  it('writes who holds which role, where and how, as CSV', () => {
    const p = fromUser(bob);
    const csv = holdingsCsv(
      holdingsOf(p).map((holding) => ({ principal: p, holding })),
      (id) => `Org ${id}`,
    );
    const records = parseCsvRecords(csv);
    expect(records[0]).toEqual([...HOLDINGS_CSV_HEADER]);
    expect(records.slice(1)).toEqual([
      [
        'user',
        'user-bob',
        'bob@x.io',
        '',
        'role-org-admin',
        'org admin',
        'organization',
        'org-1',
        'Org org-1',
        'direct',
        '',
      ],
      [
        'user',
        'user-bob',
        'bob@x.io',
        '',
        'role-org-member',
        'org member',
        'organization',
        'org-2',
        'Org org-2',
        'idp_group',
        'eng',
      ],
    ]);
  });
});
