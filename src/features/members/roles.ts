/**
 * Roles as the screens use them: each role's permissions by id, the roles of one level, and the provisioning
 * rule applied to the console's own credential — which roles it may give a new service user, and why not the
 * others (the contract's `permissionsAt` and `grantCheck`, the same rule the API applies).
 */
import { permissionsAt, type Role, type RoleType } from '@/api/operations/members';
import { grantCheck, type GrantCheck } from '@/api/operations/service-users';
import type { Self } from '@/api/operations/organizations';
import type { RolePermissions } from './access';

export function rolePermissionsOf(roles: readonly Role[]): RolePermissions {
  const byId = new Map(roles.map((r) => [r.role_id, r.permissions ?? []]));
  return (roleId) => byId.get(roleId);
}

/** "1 permission", "7 permissions". */
export function permissionCount(role: Role): string {
  const n = role.permissions?.length ?? 0;
  return `${n} ${n === 1 ? 'permission' : 'permissions'}`;
}

/** Enterprise roles for the enterprise level (null), organization roles for an organization. */
export function roleTypeAt(orgId: string | null): RoleType {
  return orgId === null ? 'enterprise' : 'org';
}

export function rolesOfType(roles: readonly Role[], type: RoleType): Role[] {
  return roles.filter((r) => r.role_type === type);
}

export interface RefusedRole {
  role: Role;
  check: GrantCheck;
}

export interface GrantableRoles {
  /** False when the API does not say what the console's credential holds: every role is offered, the API decides. */
  known: boolean;
  offered: Role[];
  refused: RefusedRole[];
}

/** The roles of a level the console's credential may give a service user it creates there, and why not the others. */
export function grantableRoles(roles: readonly Role[], self: Self | undefined, orgId: string | null): GrantableRoles {
  const ofLevel = rolesOfType(roles, roleTypeAt(orgId));
  const assignments = self?.role_assignments;
  if (!assignments) return { known: false, offered: ofLevel, refused: [] };
  const listed = rolePermissionsOf(roles);
  // The credential's own assignments carry their roles' permissions; the roles list is the fallback.
  const own = new Map(assignments.map((a) => [a.role.role_id, a.role.permissions]));
  const caller = permissionsAt(assignments, (id) => own.get(id) ?? listed(id), orgId);
  const offered: Role[] = [];
  const refused: RefusedRole[] = [];
  for (const role of ofLevel) {
    const check = grantCheck(caller, role.permissions ?? []);
    if (check.missing.length === 0 && check.ungrantable.length === 0) offered.push(role);
    else refused.push({ role, check });
  }
  return { known: true, offered, refused };
}

/** Why a role is not offered, in a sentence. */
export function refusalReason({ check }: RefusedRole): string {
  const parts: string[] = [];
  if (check.ungrantable.length)
    parts.push(`holds ${check.ungrantable.join(' and ')}, which can never be granted to a service user`);
  if (check.missing.length)
    parts.push(`holds ${check.missing.join(', ')}, which the console's credential does not hold at this level`);
  return parts.join('; it also ');
}
