/**
 * Effective access: who holds which permission, where and through which role. A principal (a person or a
 * service user) holds a role at a level (`org_id` null: enterprise-wide, which holds in every organization;
 * else that organization only), directly or through an IdP group; the role's permissions come from
 * `roles.list`. The rule is the contract's `permissionsAt`; this module only keeps the path to each permission,
 * so an access review can say why someone holds it.
 */
import type { IdpRoleAssignment, RoleAssignment, User } from '@/api/operations/members';
import type { ServiceUser } from '@/api/operations/service-users';
import { toCsv } from '@/lib/csv';
import { formatUtc } from '@/lib/format';

export type PrincipalKind = 'user' | 'service_user';

export interface AccessPrincipal {
  kind: PrincipalKind;
  id: string;
  /** How people recognise it: the email (or name) of a person, the name of a service user. */
  label: string;
  /** A person's name, when it gave one. */
  name: string | null;
  assignments: ReadonlyArray<RoleAssignment | IdpRoleAssignment>;
}

/** One permission held at one level, through one role assignment. */
export interface Grant {
  permission: string;
  /** null: enterprise-wide (every organization). */
  orgId: string | null;
  roleId: string;
  roleName: string;
  /** The IdP group it comes through; null for a direct assignment. */
  idpGroup: string | null;
}

/** A principal's key in the URL and in pickers: `user:user-…`, `service_user:service-user-…`. */
export const principalKey = (p: Pick<AccessPrincipal, 'kind' | 'id'>) => `${p.kind}:${p.id}`;

export function fromUser(u: User): AccessPrincipal {
  return {
    kind: 'user',
    id: u.user_id,
    label: u.email ?? u.name ?? u.user_id,
    name: u.name,
    assignments: [...u.role_assignments, ...(u.idp_role_assignments ?? [])],
  };
}

export function fromServiceUser(s: ServiceUser): AccessPrincipal {
  return { kind: 'service_user', id: s.service_user_id, label: s.name, name: s.name, assignments: s.role_assignments };
}

export type RolePermissions = (roleId: string) => readonly string[] | undefined;

const viaOf = (a: RoleAssignment | IdpRoleAssignment): string | null =>
  'idp_group_name' in a && typeof a.idp_group_name === 'string' ? a.idp_group_name : null;

/** Every permission a principal holds, one grant per (permission, level, role, path), sorted for reading. */
export function grantsOf(principal: AccessPrincipal, rolePermissions: RolePermissions): Grant[] {
  const seen = new Set<string>();
  const out: Grant[] = [];
  for (const a of principal.assignments) {
    const orgId = a.org_id ?? null;
    const idpGroup = viaOf(a);
    for (const permission of rolePermissions(a.role.role_id) ?? []) {
      const key = `${permission}\u0000${orgId}\u0000${a.role.role_id}\u0000${idpGroup}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ permission, orgId, roleId: a.role.role_id, roleName: a.role.role_name, idpGroup });
    }
  }
  return out.sort(compareGrants);
}

function compareGrants(a: Grant, b: Grant): number {
  return (
    a.permission.localeCompare(b.permission) ||
    // Enterprise-wide first, then by organization.
    (a.orgId === null ? (b.orgId === null ? 0 : -1) : b.orgId === null ? 1 : a.orgId.localeCompare(b.orgId)) ||
    a.roleName.localeCompare(b.roleName) ||
    (a.idpGroup ?? '').localeCompare(b.idpGroup ?? '')
  );
}

/** Whether a grant holds at a level: enterprise-wide grants hold everywhere; `orgId` null asks for the enterprise level. */
export function holdsAt(grant: Grant, orgId: string | null): boolean {
  return grant.orgId === null || grant.orgId === orgId;
}

export interface Holder {
  principal: AccessPrincipal;
  /** The paths through which it holds the permission at the level asked. */
  grants: Grant[];
}

/** Everyone who holds `permission` at a level (an organization, or null: the enterprise level), people first. */
export function holdersOf(
  principals: readonly AccessPrincipal[],
  permission: string,
  orgId: string | null,
  rolePermissions: RolePermissions,
): Holder[] {
  const out: Holder[] = [];
  for (const principal of principals) {
    const grants = grantsOf(principal, rolePermissions).filter((g) => g.permission === permission && holdsAt(g, orgId));
    if (grants.length) out.push({ principal, grants });
  }
  return out.sort(
    (a, b) =>
      (a.principal.kind === b.principal.kind ? 0 : a.principal.kind === 'user' ? -1 : 1) ||
      a.principal.label.localeCompare(b.principal.label),
  );
}

/** "Enterprise-wide", or the organization's name. */
export type OrgName = (orgId: string) => string;

export function levelLabel(orgId: string | null, orgName: OrgName): string {
  return orgId === null ? 'Enterprise-wide' : orgName(orgId);
}

export function viaLabel(idpGroup: string | null): string {
  return idpGroup === null ? 'Direct' : `IdP group ${idpGroup}`;
}

export const ACCESS_CSV_HEADER = [
  'principal_type',
  'principal_id',
  'principal',
  'name',
  'permission',
  'level',
  'org_id',
  'organization',
  'role_id',
  'role_name',
  'via',
  'idp_group',
] as const;

/** An access review as CSV: one record per path to a permission. */
export function accessCsv(rows: ReadonlyArray<{ principal: AccessPrincipal; grant: Grant }>, orgName: OrgName): string {
  return toCsv(
    ACCESS_CSV_HEADER,
    rows.map(({ principal: p, grant: g }) => [
      p.kind,
      p.id,
      p.label,
      p.name ?? '',
      g.permission,
      g.orgId === null ? 'enterprise' : 'organization',
      g.orgId ?? '',
      g.orgId === null ? '' : orgName(g.orgId),
      g.roleId,
      g.roleName,
      g.idpGroup === null ? 'direct' : 'idp_group',
      g.idpGroup ?? '',
    ]),
  );
}

/** `access-review-ManageGitIntegrations-org-1-2026-05-01T10-00-00Z.csv` */
export function accessCsvName(subject: string, at: number): string {
  const safe = subject.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'access';
  return `access-review-${safe}-${formatUtc(at).replace(/:/g, '-')}.csv`;
}
