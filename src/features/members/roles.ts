/**
 * Roles as the screens use them: each role's permissions by id (when the API publishes them: the vendor's Role is
 * `{role_id, role_name, role_type}` only), the roles of one level, and the provisioning rule applied to the
 * console's own credential — which roles it may give a service user, and why not the others (the contract's
 * `permissionsAt` and `grantCheck`, the same rule the API applies). Nothing here reads an absent field as
 * "none": a role without `permissions` has permissions the console cannot know.
 */
import { permissionsAt, type Role, type RoleType } from '@/api/operations/members';
import { grantCheck, type GrantCheck } from '@/api/operations/service-users';
import type { Self } from '@/api/operations/organizations';
import type { RolePermissions } from './access';

/** What a role's permissions read as when the API does not publish them (rule: never 0, never "none"). */
export const PERMISSIONS_NOT_PUBLISHED = 'permissions not published by this API';

/** Whether the answer said which permissions the role holds (an empty list is an answer; no field is not). */
export function permissionsPublished(role: Pick<Role, 'permissions'>): role is Role & { permissions: string[] } {
  return Array.isArray(role.permissions);
}

/** Whether every role of the list publishes its permissions (what an answer about permissions needs). */
export function allPermissionsPublished(roles: readonly Role[]): boolean {
  return roles.every(permissionsPublished);
}

/** A role's permissions by id; undefined for an unknown role and for one whose permissions are not published. */
export function rolePermissionsOf(roles: readonly Role[]): RolePermissions {
  const byId = new Map(roles.filter(permissionsPublished).map((r) => [r.role_id, r.permissions]));
  return (roleId) => byId.get(roleId);
}

/** "1 permission", "7 permissions", or that the API does not publish them. */
export function permissionCount(role: Role): string {
  if (!permissionsPublished(role)) return PERMISSIONS_NOT_PUBLISHED;
  const n = role.permissions.length;
  return `${n} ${n === 1 ? 'permission' : 'permissions'}`;
}

/** A role in a picker: its name, with its permission count only when the API says it. */
export function roleOptionLabel(role: Role): string {
  return permissionsPublished(role) ? `${role.role_name} (${permissionCount(role)})` : role.role_name;
}

/** "Built-in", "Custom", or undefined when the API does not say (`is_built_in` absent: neither). */
export function roleKind(role: Pick<Role, 'is_built_in'>): 'Built-in' | 'Custom' | undefined {
  return role.is_built_in === true ? 'Built-in' : role.is_built_in === false ? 'Custom' : undefined;
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
  /**
   * False when the console cannot establish what its credential may grant (the API does not say what the
   * credential holds, or does not publish the permissions of the roles): every role is offered, the API decides.
   */
  known: boolean;
  /** Why `known` is false, in a sentence; undefined when it is true. */
  unknownReason?: string;
  offered: Role[];
  refused: RefusedRole[];
}

/** The roles of a level the console's credential may give a service user there, and why not the others. */
export function grantableRoles(roles: readonly Role[], self: Self | undefined, orgId: string | null): GrantableRoles {
  const ofLevel = rolesOfType(roles, roleTypeAt(orgId));
  const assignments = self?.role_assignments;
  if (!assignments) {
    return {
      known: false,
      unknownReason:
        'The API does not say what the console’s credential holds: every role is offered and the API decides.',
      offered: ofLevel,
      refused: [],
    };
  }
  const listed = rolePermissionsOf(roles);
  // The credential's own assignments carry their roles' permissions when published; the roles list is the fallback.
  const own = new Map(
    assignments.filter((a) => permissionsPublished(a.role)).map((a) => [a.role.role_id, a.role.permissions]),
  );
  const ownKnown = assignments.every((a) => own.has(a.role.role_id) || listed(a.role.role_id) !== undefined);
  if (!ownKnown || !ofLevel.every(permissionsPublished)) {
    return {
      known: false,
      unknownReason:
        'The API does not publish the permissions of its roles, so which ones the console’s credential may grant cannot be established: every role is offered and the API decides.',
      offered: ofLevel,
      refused: [],
    };
  }
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
