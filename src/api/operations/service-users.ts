/**
 * Service users (spec: "service user provisioning", v3beta1; the vendor serves list, get, delete and role
 * assignment under `/v3/enterprise/…/members/service-users`): create with a role and an optional lifetime, the new
 * credential answered once; list, get, delete; assign or change a role. The enterprise route
 * (`ManageAccountServiceUsers`) takes an enterprise role, an organization's route (`ManageOrgServiceUsers`,
 * organization level) an organization role and sees the service users created in or given a role in that
 * organization. Shapes from the vendor reference (ServiceUser, ServiceUserUpdateRoleRequest).
 *
 * The provisioning rule (spec, Authentication 5) is `grantCheck` below: one rule for the form, which offers only
 * the roles the caller may grant, and for the sandbox, which answers 403 naming every permission at fault.
 */
import { z } from 'zod';
import { After, First, OrgId, QueryBoolean, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { SERVICE_USER_MANAGEMENT_PERMISSIONS } from '../permissions';
import { defineOperations } from './define';
import { RoleAssignment, RoleId, RoleIdBody } from './members';
import { unsafeNameCharacter, unsafeNameMessage } from './name-characters';

/**
 * A service user's name is 1 to 256 characters, without control or text-direction characters (name-characters.ts);
 * its lifetime at most 365 days (none: it does not expire).
 */
export const SERVICE_USER_LIMITS = { name: { min: 1, max: 256 }, lifetimeDays: { min: 1, max: 365 } } as const;

export const ServiceUser = z.looseObject({
  service_user_id: z.string(),
  name: z.string(),
  role_assignments: z.array(RoleAssignment),
  /** When its credential stops working (Unix seconds); null: never. */
  expires_at: UnixSeconds.nullish(),
  /** When it was deleted (its credential stopped working); null while it exists. */
  deleted_at: UnixSeconds.nullish(),
  /** Sandbox extension. */
  created_at: UnixSeconds.optional(),
  /** Sandbox extension: the organization it was created in (its organization's route), null for the enterprise's. */
  org_id: z.string().nullish(),
});
export type ServiceUser = z.infer<typeof ServiceUser>;

/** The answer to a create: the service user and its credential, which is never shown again. */
export const CreatedServiceUser = ServiceUser.extend({
  /** The new `cog_…` credential. Only this answer holds it; the service stores only its hash. */
  credential: z.string(),
});
export type CreatedServiceUser = z.infer<typeof CreatedServiceUser>;

const { name: NAME, lifetimeDays: LIFETIME } = SERVICE_USER_LIMITS;

export const CreateServiceUserBody = z.strictObject({
  name: z
    .string({ message: 'name is required: say what the service user is for' })
    .min(NAME.min, 'name must not be empty')
    .max(NAME.max, {
      error: (iss) => `name is at most ${NAME.max} characters; this one has ${String(iss.input).length}`,
    })
    // Blank counts as empty (an empty one is reported once, by min).
    .refine((s) => s.length === 0 || s.trim().length > 0, { message: 'name must not be empty' })
    // Named as the form labels the field: the form shows this message under it, the API in its problem.
    .refine((s) => unsafeNameCharacter(s) === null, {
      error: (iss) => unsafeNameMessage('Name', String(iss.input)) ?? 'Name holds a character a name cannot hold',
    }),
  role_id: RoleId,
  /** Days until the credential expires, 1 to 365; omitted or null: it does not expire. */
  lifetime_days: z
    .number({ message: `lifetime_days must be a whole number of days from ${LIFETIME.min} to ${LIFETIME.max}` })
    .int(`lifetime_days must be a whole number of days from ${LIFETIME.min} to ${LIFETIME.max}`)
    .min(LIFETIME.min, `lifetime_days must be at least ${LIFETIME.min}`)
    .max(LIFETIME.max, `A lifetime is at most ${LIFETIME.max} days`)
    .nullish(),
});
export type CreateServiceUserBody = z.input<typeof CreateServiceUserBody>;

export const ServiceUsersQuery = z.object({
  first: First,
  after: After,
  /** Also list expired and deleted service users (reference; default false). */
  include_inactive: QueryBoolean.optional(),
});
export type ServiceUsersQuery = z.input<typeof ServiceUsersQuery>;

/** Why a role may not be granted: the permissions the caller lacks, and those nobody may grant. Both empty: it may. */
export interface GrantCheck {
  missing: string[];
  ungrantable: string[];
}

/**
 * The provisioning rule (spec, Authentication 5): a caller grants a role only when every permission of the role
 * is one it holds itself at that level (`callerPermissions`: see `permissionsAt`), and the role holds none of the
 * service-user-management permissions, which can never be granted.
 */
export function grantCheck(callerPermissions: ReadonlySet<string>, rolePermissions: readonly string[]): GrantCheck {
  const never = new Set<string>(SERVICE_USER_MANAGEMENT_PERMISSIONS);
  const unique = [...new Set(rolePermissions)];
  return {
    missing: unique.filter((p) => !never.has(p) && !callerPermissions.has(p)),
    ungrantable: unique.filter((p) => never.has(p)),
  };
}

const ServiceUserParams = z.object({ service_user_id: z.string().min(1) });
const OrgParams = z.object({ org_id: OrgId });
const OrgServiceUserParams = z.object({ org_id: OrgId, service_user_id: z.string().min(1) });

/** The spec's provisioning paths (the two creates; list, get and delete follow their pattern). */
const ENTERPRISE = '/v3beta1/enterprise/service-users';
const ORG = '/v3beta1/organizations/{org_id}/service-users';
/** Where the vendor serves list, get, delete and role assignment (reference; the spec names no path for them). */
const VENDOR_ENTERPRISE = '/v3/enterprise/members/service-users';
const VENDOR_ORG = '/v3/enterprise/organizations/{org_id}/members/service-users';

const CREATE_NOTE =
  'The answer holds the credential once. 422 for an unknown role or a role of the other level; 403 (naming missing_permissions and ungrantable_permissions) when the role holds a permission the caller does not hold at that level, or a service-user-management permission.';
const READ_NOTE =
  "The spec shows only the creates, under /v3beta1/; the vendor serves list, get and delete under /v3/enterprise/…/members/service-users, which is tried first; the /v3beta1/ path in the creates' pattern is the alternate.";
const ROLE_NOTE =
  'In the vendor reference, not in the spec. The provisioning rule holds (403 naming missing_permissions and ungrantable_permissions); 422 for an unknown role or one of the other level; 404 for an unknown or deleted service user; the sandbox refuses (409) to change its two documented demo credentials, which the console itself uses.';

export const serviceUserOperations = defineOperations({
  'serviceUsers.list': {
    id: 'serviceUsers.list',
    method: 'GET',
    path: VENDOR_ENTERPRISE,
    alternates: [ENTERPRISE],
    permission: 'ManageAccountServiceUsers',
    scope: 'enterprise',
    summary: 'Every service user of the enterprise (also those created in organizations), by name',
    query: ServiceUsersQuery,
    response: pageOf(ServiceUser),
    paginated: true,
    note: READ_NOTE,
  },
  'serviceUsers.get': {
    id: 'serviceUsers.get',
    method: 'GET',
    path: `${VENDOR_ENTERPRISE}/{service_user_id}`,
    alternates: [`${ENTERPRISE}/{service_user_id}`],
    permission: 'ManageAccountServiceUsers',
    scope: 'enterprise',
    summary: 'One service user (also a deleted or expired one)',
    params: ServiceUserParams,
    response: ServiceUser,
    note: READ_NOTE,
  },
  'serviceUsers.create': {
    id: 'serviceUsers.create',
    method: 'POST',
    path: ENTERPRISE,
    permission: 'ManageAccountServiceUsers',
    scope: 'enterprise',
    summary: 'Create a service user with an enterprise role; answers with its new credential, once',
    body: CreateServiceUserBody,
    response: CreatedServiceUser,
    note: CREATE_NOTE,
  },
  'serviceUsers.delete': {
    id: 'serviceUsers.delete',
    method: 'DELETE',
    path: `${VENDOR_ENTERPRISE}/{service_user_id}`,
    alternates: [`${ENTERPRISE}/{service_user_id}`],
    permission: 'ManageAccountServiceUsers',
    scope: 'enterprise',
    summary: 'Delete a service user: its credential answers 401 from now on; answers with the service user',
    params: ServiceUserParams,
    response: ServiceUser,
    note: `${READ_NOTE} The sandbox refuses (409) to delete its two documented demo credentials.`,
  },
  'serviceUsers.organization.list': {
    id: 'serviceUsers.organization.list',
    method: 'GET',
    path: VENDOR_ORG,
    alternates: [ORG],
    permission: 'ManageOrgServiceUsers',
    scope: 'organization',
    summary: 'The service users created in or given a role in this organization, by name',
    params: OrgParams,
    query: ServiceUsersQuery,
    response: pageOf(ServiceUser),
    paginated: true,
    note: READ_NOTE,
  },
  'serviceUsers.organization.get': {
    id: 'serviceUsers.organization.get',
    method: 'GET',
    path: `${ORG}/{service_user_id}`,
    permission: 'ManageOrgServiceUsers',
    scope: 'organization',
    summary: 'One service user created in this organization',
    params: OrgServiceUserParams,
    response: ServiceUser,
    note: READ_NOTE,
  },
  'serviceUsers.organization.create': {
    id: 'serviceUsers.organization.create',
    method: 'POST',
    path: ORG,
    permission: 'ManageOrgServiceUsers',
    scope: 'organization',
    summary:
      'Create a service user in this organization with an organization role; answers with its new credential, once',
    params: OrgParams,
    body: CreateServiceUserBody,
    response: CreatedServiceUser,
    note: `${CREATE_NOTE} The credential works on this organization's paths only.`,
  },
  'serviceUsers.organization.delete': {
    id: 'serviceUsers.organization.delete',
    method: 'DELETE',
    path: `${VENDOR_ORG}/{service_user_id}`,
    alternates: [`${ORG}/{service_user_id}`],
    permission: 'ManageOrgServiceUsers',
    scope: 'organization',
    summary:
      'Remove a service user from this organization: one created here is deleted (its credential answers 401 from now on); any other loses its role here',
    params: OrgServiceUserParams,
    response: ServiceUser,
    note: READ_NOTE,
  },
  'serviceUsers.roles.assign': {
    id: 'serviceUsers.roles.assign',
    method: 'POST',
    path: `${VENDOR_ENTERPRISE}/{service_user_id}`,
    permission: 'ManageAccountServiceUsers',
    scope: 'enterprise',
    summary: 'Give a service user an enterprise role (409 when it already has one: change it instead)',
    params: ServiceUserParams,
    body: RoleIdBody,
    response: ServiceUser,
    note: ROLE_NOTE,
  },
  'serviceUsers.roles.update': {
    id: 'serviceUsers.roles.update',
    method: 'PATCH',
    path: `${VENDOR_ENTERPRISE}/{service_user_id}`,
    permission: 'ManageAccountServiceUsers',
    scope: 'enterprise',
    summary: "Change a service user's enterprise role (404 when it has none)",
    params: ServiceUserParams,
    body: RoleIdBody,
    response: ServiceUser,
    note: ROLE_NOTE,
  },
  'serviceUsers.organization.roles.assign': {
    id: 'serviceUsers.organization.roles.assign',
    method: 'POST',
    path: `${VENDOR_ORG}/{service_user_id}`,
    permission: 'ManageOrgServiceUsers',
    scope: 'organization',
    summary: 'Give a service user an organization role in this organization (409 when it already has one there)',
    params: OrgServiceUserParams,
    body: RoleIdBody,
    response: ServiceUser,
    note: ROLE_NOTE,
  },
  'serviceUsers.organization.roles.update': {
    id: 'serviceUsers.organization.roles.update',
    method: 'PATCH',
    path: `${VENDOR_ORG}/{service_user_id}`,
    permission: 'ManageOrgServiceUsers',
    scope: 'organization',
    summary: "Change a service user's role in this organization (404 when it has none there)",
    params: OrgServiceUserParams,
    body: RoleIdBody,
    response: ServiceUser,
    note: ROLE_NOTE,
  },
});
