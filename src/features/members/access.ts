/**
 * Effective access: who holds which role and which permission, where and through which role. A principal (a
 * person or a service user) holds a role at a level (`org_id` null: enterprise-wide, which holds in every
 * organization; else that organization only), directly or through an IdP group; the role's permissions come from
 * `roles.list` when the API publishes them (the vendor's Role does not). The rule is the contract's
 * `permissionsAt`; this module keeps the path to each permission, so an access review can say why someone holds
 * it, and says what an answer lacks (`gapsOf`) so that a screen never counts what it cannot know.
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
  /**
   * Whether its roles through IdP groups are known: always for a service user; for a person when the list
   * carried `idp_role_assignments` or the IdP users' list was read whole.
   */
  idpKnown: boolean;
}

/** One role held at one level, directly or through an IdP group. */
export interface Holding {
  roleId: string;
  roleName: string;
  /** null: enterprise-wide (every organization). */
  orgId: string | null;
  /** The IdP group it comes through; null for a direct assignment. */
  idpGroup: string | null;
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

/**
 * A person. `idpUsers`: the IdP users' list read whole (user id → inherited assignments), for lists that do not
 * carry `idp_role_assignments` (the vendor's User); a user absent from it inherits nothing.
 */
export function fromUser(u: User, idpUsers?: ReadonlyMap<string, readonly IdpRoleAssignment[]>): AccessPrincipal {
  const inherited = u.idp_role_assignments ?? idpUsers?.get(u.user_id) ?? [];
  return {
    kind: 'user',
    id: u.user_id,
    label: u.email ?? u.name ?? u.user_id,
    name: u.name,
    assignments: [...u.role_assignments, ...inherited],
    idpKnown: u.idp_role_assignments !== undefined || idpUsers !== undefined,
  };
}

export function fromServiceUser(s: ServiceUser): AccessPrincipal {
  return {
    kind: 'service_user',
    id: s.service_user_id,
    label: s.name,
    name: s.name,
    assignments: s.role_assignments,
    idpKnown: true,
  };
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

/** Every role a principal holds, once per (role, level, path): enterprise-wide first, then by organization. */
export function holdingsOf(principal: AccessPrincipal): Holding[] {
  const seen = new Set<string>();
  const out: Holding[] = [];
  for (const a of principal.assignments) {
    const h: Holding = {
      roleId: a.role.role_id,
      roleName: a.role.role_name,
      orgId: a.org_id ?? null,
      idpGroup: viaOf(a),
    };
    const key = holdingKey(h);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(h);
  }
  return out.sort(
    (a, b) =>
      (a.orgId === null ? (b.orgId === null ? 0 : -1) : b.orgId === null ? 1 : a.orgId.localeCompare(b.orgId)) ||
      a.roleName.localeCompare(b.roleName) ||
      (a.idpGroup ?? '').localeCompare(b.idpGroup ?? ''),
  );
}

export const holdingKey = (h: Holding) => `${h.roleId}\u0000${h.orgId}\u0000${h.idpGroup}`;

export interface RoleHolder {
  principal: AccessPrincipal;
  /** The roles it holds at the level asked (enterprise-wide ones count in every organization). */
  holdings: Holding[];
}

/** Who holds which role at a level (an organization, or null: the enterprise level), people first. */
export function roleHoldersAt(principals: readonly AccessPrincipal[], orgId: string | null): RoleHolder[] {
  const out: RoleHolder[] = [];
  for (const principal of principals) {
    const holdings = holdingsOf(principal).filter((h) => h.orgId === null || h.orgId === orgId);
    if (holdings.length) out.push({ principal, holdings });
  }
  return out.sort(
    (a, b) =>
      (a.principal.kind === b.principal.kind ? 0 : a.principal.kind === 'user' ? -1 : 1) ||
      a.principal.label.localeCompare(b.principal.label),
  );
}

/** What keeps an answer about permissions from being whole. Nothing: `complete`. */
export interface AnswerGaps {
  /** Names of the roles held whose permissions the API does not publish. */
  unpublishedRoles: string[];
  /** People whose roles through IdP groups are not known. */
  idpUnknown: number;
  /** The service users could not be read. */
  serviceUsersUnread: boolean;
  complete: boolean;
}

export function gapsOf(
  principals: readonly AccessPrincipal[],
  rolePermissions: RolePermissions,
  serviceUsersRead: boolean,
): AnswerGaps {
  const unpublished = new Map<string, string>();
  let idpUnknown = 0;
  for (const p of principals) {
    if (!p.idpKnown) idpUnknown++;
    for (const a of p.assignments) {
      if (rolePermissions(a.role.role_id) === undefined) unpublished.set(a.role.role_id, a.role.role_name);
    }
  }
  const unpublishedRoles = [...unpublished.values()].sort((a, b) => a.localeCompare(b));
  return {
    unpublishedRoles,
    idpUnknown,
    serviceUsersUnread: !serviceUsersRead,
    complete: unpublishedRoles.length === 0 && idpUnknown === 0 && serviceUsersRead,
  };
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

export const HOLDINGS_CSV_HEADER = [
  'principal_type',
  'principal_id',
  'principal',
  'name',
  'role_id',
  'role_name',
  'level',
  'org_id',
  'organization',
  'via',
  'idp_group',
] as const;

/** Who holds which role, where and how, as CSV: the review when the roles' permissions are not published. */
export function holdingsCsv(
  rows: ReadonlyArray<{ principal: AccessPrincipal; holding: Holding }>,
  orgName: OrgName,
): string {
  return toCsv(
    HOLDINGS_CSV_HEADER,
    rows.map(({ principal: p, holding: h }) => [
      p.kind,
      p.id,
      p.label,
      p.name ?? '',
      h.roleId,
      h.roleName,
      h.orgId === null ? 'enterprise' : 'organization',
      h.orgId ?? '',
      h.orgId === null ? '' : orgName(h.orgId),
      h.idpGroup === null ? 'direct' : 'idp_group',
      h.idpGroup ?? '',
    ]),
  );
}

/** `access-review-ManageGitIntegrations-org-1-2026-05-01T10-00-00Z.csv` */
export function accessCsvName(subject: string, at: number): string {
  const safe = subject.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'access';
  return `access-review-${safe}-${formatUtc(at).replace(/:/g, '-')}.csv`;
}
