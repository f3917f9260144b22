/**
 * Roles as the screens use them: each role's permissions by id (when the API publishes them: the vendor's Role is
 * `{role_id, role_name, role_type}` only), the roles of one level, and the provisioning rule applied to the
 * console's own credential — which roles it may give a service user, and why not the others (the contract's
 * `permissionsAt` and `grantCheck`, the same rule the API applies) — and to the signed-in person's console roles,
 * since the console's credential must not give more than the person's roles hold. Nothing here reads an absent
 * field as "none": a role without `permissions` has permissions the console cannot know.
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
  /** Permissions of the role the person's console roles do not allow at this level (the console's policy). */
  notYours?: string[];
}

/**
 * What the signed-in person's console roles allow (`GET /console/session`'s `permissions`): per permission,
 * `'*'` (every organization) or the organizations; absent: refused. Undefined: the console does not say.
 */
export type PersonScope = Readonly<Partial<Record<string, '*' | readonly string[]>>>;

/** The permissions of the list the person's roles do not allow at the level (`orgId` null: enterprise-wide). */
export function notAllowedToPerson(
  person: PersonScope | undefined,
  permissions: readonly string[],
  orgId: string | null,
): string[] {
  if (!person) return [];
  return permissions.filter((p) => {
    const where = person[p];
    return !(where === '*' || (orgId !== null && Array.isArray(where) && where.includes(orgId)));
  });
}

/** Moves the roles whose permissions the person's console roles do not all allow there from offered to refused. */
function withPerson(grant: GrantableRoles, person: PersonScope | undefined, orgId: string | null): GrantableRoles {
  if (!person) return grant;
  const offered: Role[] = [];
  const refused = grant.refused.map((r) => {
    const notYours = notAllowedToPerson(person, r.role.permissions ?? [], orgId);
    return notYours.length ? { ...r, notYours } : r;
  });
  for (const role of grant.offered) {
    // A role whose permissions are not published cannot be judged here: the console's policy decides.
    const notYours = notAllowedToPerson(person, role.permissions ?? [], orgId);
    if (notYours.length === 0) offered.push(role);
    else refused.push({ role, check: { missing: [], ungrantable: [] }, notYours });
  }
  return { ...grant, offered, refused };
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

/**
 * The roles of a level the console's credential may give a service user there — and, with `person`, that the
 * signed-in person's console roles hold too — and why not the others.
 */
export function grantableRoles(
  roles: readonly Role[],
  self: Self | undefined,
  orgId: string | null,
  person?: PersonScope,
): GrantableRoles {
  return withPerson(credentialGrantable(roles, self, orgId), person, orgId);
}

function credentialGrantable(roles: readonly Role[], self: Self | undefined, orgId: string | null): GrantableRoles {
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
export function refusalReason({ check, notYours }: RefusedRole): string {
  const parts: string[] = [];
  if (notYours?.length)
    parts.push(
      `holds ${notYours.join(', ')}, which your console roles do not allow at this level (the console's policy refuses it)`,
    );
  if (check.ungrantable.length)
    parts.push(`holds ${check.ungrantable.join(' and ')}, which can never be granted to a service user`);
  if (check.missing.length)
    parts.push(`holds ${check.missing.join(', ')}, which the console's credential does not hold at this level`);
  return parts.join('; it also ');
}

/** What a role field offering only grantable roles says of its offer. */
export function grantableDescription(orgId: string | null, judgedForPerson: boolean): string {
  const where = orgId ? 'in this organization' : 'enterprise-wide';
  return judgedForPerson
    ? `Only roles whose permissions the console’s own credential holds and your console roles allow ${where} are offered.`
    : `Only roles whose permissions the console’s own credential holds ${where} are offered.`;
}
