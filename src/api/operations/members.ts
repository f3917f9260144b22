/**
 * Members and roles: the enterprise's users (list, get, bulk invitation, enterprise role, removal), their
 * organization-level role assignments, users whose access comes from IdP groups, the organization member reads
 * (v3beta1, spec: `ViewOrgMembership`) and the roles with their permissions. Shapes from the vendor reference
 * (User, UserWithIdpRoles, IdpGroupUser, Role, RoleAssignment, UserBulkCreateRequest, UserUpdateRoleRequest)
 * where the spec says "not shown".
 *
 * "Who can do what" is computed from these lists: a role assignment names its role (`role_id`, `role_type`) and
 * its level (`org_id`: absent or null = enterprise-wide, else that organization only); `roles.list` gives each
 * role's permission names; `permissionsAt` below is the one rule that combines them.
 */
import { z } from 'zod';
import { After, First, OrgId, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';

/** `role_type`: an enterprise role is assigned enterprise-wide, an `org` role in one organization. */
export const ROLE_TYPES = ['enterprise', 'org'] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

/** Limits of the member operations. The reference's: 100 invitations per call. Email length: RFC 5321. */
export const MEMBER_LIMITS = { invitationsPerCall: 100, email: 254 } as const;

/**
 * A role. The vendor's Role is `{role_id, role_name, role_type}`: it does not publish `permissions` or
 * `is_built_in`. Both are sandbox extensions (sent on `roles.list` unless `SANDBOX_SHAPE=vendor`), and a screen
 * never derives a fact from their absence: no permissions field means "not published", never "none".
 */
export const Role = z.looseObject({
  role_id: z.string(),
  role_name: z.string(),
  role_type: z.enum(ROLE_TYPES),
  /** Permission names the role holds (sandbox; see above). */
  permissions: z.array(z.string()).optional(),
  /** Sandbox extension: true for the built-in roles, false for the enterprise's custom ones. */
  is_built_in: z.boolean().optional(),
});
export type Role = z.infer<typeof Role>;

/** One role held at one level: `org_id` absent or null = enterprise-wide; otherwise in that organization only. */
export const RoleAssignment = z.looseObject({
  role: Role,
  org_id: z.string().nullish(),
});
export type RoleAssignment = z.infer<typeof RoleAssignment>;

/** A role assignment a user holds through membership of an IdP group. */
export const IdpRoleAssignment = RoleAssignment.extend({ idp_group_name: z.string() });
export type IdpRoleAssignment = z.infer<typeof IdpRoleAssignment>;

/**
 * A user of the enterprise. `role_assignments` are the direct ones. The sandbox also sends, on every list and
 * get, `idp_role_assignments` (those inherited from IdP groups; the reference's UserWithIdpRoles has them on get)
 * and `idp_group_names`, so access can be computed from the list alone.
 */
export const User = z.looseObject({
  user_id: z.string(),
  email: z.string().nullable(),
  /** Null until an invited user signs in and gives a name. */
  name: z.string().nullable(),
  role_assignments: z.array(RoleAssignment),
  idp_role_assignments: z.array(IdpRoleAssignment).optional(),
  /** Sandbox extension: the IdP groups the user belongs to (also those mapped to no role). */
  idp_group_names: z.array(z.string()).optional(),
  /** Sandbox extension: when the user joined or was invited. */
  created_at: UnixSeconds.optional(),
});
export type User = z.infer<typeof User>;

/** A user whose membership is derived from IdP group assignments (reference: IdpGroupUser). */
export const IdpUser = z.looseObject({
  user_id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  idp_role_assignments: z.array(IdpRoleAssignment),
});
export type IdpUser = z.infer<typeof IdpUser>;

/** A role id in a request body. Whether it exists, and is of the right type, is the server's to say (422). */
export const RoleId = z
  .string({ message: 'role_id is required: the id of a role (see GET /v3/enterprise/roles)' })
  .min(1, 'role_id must not be empty');

/** One invitation address: trimmed, lower-cased, at most 254 characters. */
export const InviteEmail = z
  .string({ message: 'each invitation is an email address' })
  .trim()
  .max(MEMBER_LIMITS.email, `an email address is at most ${MEMBER_LIMITS.email} characters`)
  .pipe(z.email({ message: 'not a valid email address' }))
  .transform((s) => s.toLowerCase());

/**
 * Bulk invitation (reference: UserBulkCreateRequest): 1 to 100 addresses and the enterprise role they get.
 * Addresses repeated in one request are invited once. Nothing is applied unless every address is valid and new.
 */
export const InviteUsersBody = z.strictObject({
  emails: z
    .array(InviteEmail, { message: 'emails is required: a list of email addresses' })
    .min(1, 'emails needs at least 1 address')
    .max(MEMBER_LIMITS.invitationsPerCall, {
      error: (issue) =>
        `At most ${MEMBER_LIMITS.invitationsPerCall} invitations per call; this request has ${Array.isArray(issue.input) ? issue.input.length : 'more'}`,
    }),
  enterprise_role_id: z
    .string({ message: 'enterprise_role_id is required: the enterprise role the invited users get' })
    .min(1, 'enterprise_role_id must not be empty'),
});
export type InviteUsersBody = z.input<typeof InviteUsersBody>;

/** Sets a role (reference: UserUpdateRoleRequest). */
export const RoleIdBody = z.strictObject({ role_id: RoleId });
export type RoleIdBody = z.input<typeof RoleIdBody>;

/** `email`: exact address, case-insensitive (reference). */
export const MembersQuery = z.object({
  first: First,
  after: After,
  email: z.string().max(MEMBER_LIMITS.email, `email is at most ${MEMBER_LIMITS.email} characters`).nullish(),
});
export type MembersQuery = z.input<typeof MembersQuery>;

export const RolesQuery = z.object({
  first: First,
  after: After,
  /** Sandbox extension: only roles of this type. */
  role_type: z.enum(ROLE_TYPES, { message: 'role_type must be enterprise or org' }).nullish(),
});
export type RolesQuery = z.input<typeof RolesQuery>;

const UserId = z.string().min(1);
const UserParams = z.object({ user_id: UserId });
const OrgParams = z.object({ org_id: OrgId });
const OrgUserParams = z.object({ org_id: OrgId, user_id: UserId });

/**
 * The permissions a set of role assignments grants at one level: enterprise-wide assignments count everywhere,
 * an organization's assignments only in that organization (`orgId`); `orgId` null asks for the enterprise level.
 * `rolePermissions` answers a role's permission names (from `roles.list`), or undefined for an unknown role.
 */
export function permissionsAt(
  assignments: ReadonlyArray<{ role: { role_id: string }; org_id?: string | null }>,
  rolePermissions: (roleId: string) => readonly string[] | undefined,
  orgId: string | null,
): Set<string> {
  const out = new Set<string>();
  for (const a of assignments) {
    const at = a.org_id ?? null;
    if (at !== null && at !== orgId) continue;
    for (const p of rolePermissions(a.role.role_id) ?? []) out.add(p);
  }
  return out;
}

const ENTERPRISE_MEMBERS = '/v3/enterprise/members';
/** The spec's path of the organization member reads (v3beta1, organization level). */
const ORG_MEMBERS = '/v3beta1/organizations/{org_id}/members';
/** Where the vendor serves them: promoted to `/v3/` under the enterprise's organization (spec: Versioning 3). */
const VENDOR_ORG_MEMBERS = '/v3/enterprise/organizations/{org_id}/members';
const ORG_ASSIGNMENT = '/v3/enterprise/organizations/{org_id}/members/users/{user_id}';

const VIEW_NOTE = 'Permission not shown in the spec; ViewAccountMembership chosen (enterprise level).';
const MANAGE_NOTE =
  'Permission not shown in the spec; ManageAccountMembership chosen (the spec names it for IdP groups).';

export const memberOperations = defineOperations({
  'roles.list': {
    id: 'roles.list',
    method: 'GET',
    path: '/v3/enterprise/roles',
    permission: 'ViewAccountMembership',
    scope: 'enterprise',
    summary: "The enterprise's roles, enterprise roles first, each with its type and permission names",
    query: RolesQuery,
    response: pageOf(Role),
    paginated: true,
    note: `${VIEW_NOTE} Each role's permissions and is_built_in, and the role_type filter, are sandbox extensions.`,
  },
  'members.users.list': {
    id: 'members.users.list',
    method: 'GET',
    path: `${ENTERPRISE_MEMBERS}/users`,
    permission: 'ViewAccountMembership',
    scope: 'enterprise',
    summary: "The enterprise's users by email, each with its direct and IdP-derived role assignments",
    query: MembersQuery,
    response: pageOf(User),
    paginated: true,
    note: `${VIEW_NOTE} idp_role_assignments, idp_group_names and created_at on list items are sandbox extensions.`,
  },
  'members.users.get': {
    id: 'members.users.get',
    method: 'GET',
    path: `${ENTERPRISE_MEMBERS}/users/{user_id}`,
    permission: 'ViewAccountMembership',
    scope: 'enterprise',
    summary: 'One user with direct and IdP-derived role assignments',
    params: UserParams,
    response: User,
    note: VIEW_NOTE,
  },
  'members.users.create': {
    id: 'members.users.create',
    method: 'POST',
    path: `${ENTERPRISE_MEMBERS}/users`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: 'Invite users by email (1 to 100 per call) with an enterprise role; answers with the invited users',
    body: InviteUsersBody,
    response: z.array(User),
    note: `${MANAGE_NOTE} All or nothing: one malformed address, an address that is already a member, or a role that is not an enterprise role answers 422 and invites nobody.`,
  },
  'members.users.update': {
    id: 'members.users.update',
    method: 'PATCH',
    path: `${ENTERPRISE_MEMBERS}/users/{user_id}`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: "Set a user's enterprise role (an enterprise role; 422 otherwise)",
    params: UserParams,
    body: RoleIdBody,
    response: User,
    note: MANAGE_NOTE,
  },
  'members.users.delete': {
    id: 'members.users.delete',
    method: 'DELETE',
    path: `${ENTERPRISE_MEMBERS}/users/{user_id}`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary:
      'Remove a user from the enterprise (every role assignment and IdP group membership); answers with the user',
    params: UserParams,
    response: User,
    note: MANAGE_NOTE,
  },
  'members.idpUsers.list': {
    id: 'members.idpUsers.list',
    method: 'GET',
    path: `${ENTERPRISE_MEMBERS}/idp-users`,
    permission: 'ViewAccountMembership',
    scope: 'enterprise',
    summary: 'Users whose enterprise access comes from IdP groups, with the role assignments they inherit',
    query: MembersQuery,
    response: pageOf(IdpUser),
    paginated: true,
    note: `In the vendor reference, not in the spec. ${VIEW_NOTE}`,
  },
  'members.organization.users.create': {
    id: 'members.organization.users.create',
    method: 'POST',
    path: ORG_ASSIGNMENT,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: 'Add a user to an organization with an organization role (409 when it already has one there)',
    params: OrgUserParams,
    body: RoleIdBody,
    response: User,
    note: `In the vendor reference, not in the spec. ${MANAGE_NOTE}`,
  },
  'members.organization.users.update': {
    id: 'members.organization.users.update',
    method: 'PATCH',
    path: ORG_ASSIGNMENT,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: "Change a user's organization role (404 when the user has no role there)",
    params: OrgUserParams,
    body: RoleIdBody,
    response: User,
    note: `In the vendor reference, not in the spec. ${MANAGE_NOTE}`,
  },
  'members.organization.users.remove': {
    id: 'members.organization.users.remove',
    method: 'DELETE',
    path: ORG_ASSIGNMENT,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: "Remove a user's organization role; access through IdP groups is unchanged",
    params: OrgUserParams,
    response: User,
    note: `In the vendor reference, not in the spec. ${MANAGE_NOTE}`,
  },
  'members.organization.users.list': {
    id: 'members.organization.users.list',
    method: 'GET',
    path: `${ORG_MEMBERS}/users`,
    alternates: [`${VENDOR_ORG_MEMBERS}/users`],
    permission: 'ViewOrgMembership',
    scope: 'organization',
    summary: "An organization's users (a direct role there), with their role assignments in it and enterprise-wide",
    params: OrgParams,
    query: MembersQuery,
    response: pageOf(User),
    paginated: true,
  },
  'members.organization.users.get': {
    id: 'members.organization.users.get',
    method: 'GET',
    path: `${ORG_MEMBERS}/users/{user_id}`,
    alternates: [`${VENDOR_ORG_MEMBERS}/users/{user_id}`],
    permission: 'ViewOrgMembership',
    scope: 'organization',
    summary: 'One member of the organization (directly or through an IdP group); 404 for anyone else',
    params: OrgUserParams,
    response: User,
  },
  'members.organization.idpUsers.list': {
    id: 'members.organization.idpUsers.list',
    method: 'GET',
    path: `${ORG_MEMBERS}/idp-users`,
    alternates: [`${VENDOR_ORG_MEMBERS}/idp-users`],
    permission: 'ViewOrgMembership',
    scope: 'organization',
    summary: 'Users whose membership of the organization comes from IdP groups mapped to a role there',
    params: OrgParams,
    query: MembersQuery,
    response: pageOf(IdpUser),
    paginated: true,
  },
});
