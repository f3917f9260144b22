/**
 * IdP groups of the enterprise (`ManageAccountMembership`): list, register up to 100 names in one call (names
 * already registered are ignored, not an error), delete one. The spec lists them under `/v3beta1/` and says the
 * group was promoted to `/v3/`: the contract uses `/v3/`; the sandbox answers the `/v3beta1/` paths too
 * (`alternates`). Shapes from the vendor reference (IdpGroup, IdpGroupsBulkCreateRequest).
 */
import { z } from 'zod';
import { After, First, OrgId, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { RoleAssignment, RoleIdBody } from './members';

/**
 * 100 names per registration (spec: Limits). A name is the console's own bound: 1 to 256 characters, no slash or
 * backslash and not `.` or `..`, so that it can stand as one path segment of the delete.
 */
export const IDP_GROUP_LIMITS = { perRegistration: 100, name: 256 } as const;

export const IdpGroup = z.looseObject({
  idp_group_name: z.string(),
  /** The roles members of the group get (the reference's list answers only the name: optional here). */
  role_assignments: z.array(RoleAssignment).optional(),
  /** Sandbox extension: how many users belong to the group. */
  member_count: z.number().int().optional(),
  /** Sandbox extension. */
  created_at: UnixSeconds.optional(),
});
export type IdpGroup = z.infer<typeof IdpGroup>;

export const IdpGroupName = z
  .string({ message: 'each IdP group name is a string' })
  .trim()
  .min(1, 'an IdP group name must not be empty')
  .max(IDP_GROUP_LIMITS.name, `an IdP group name is at most ${IDP_GROUP_LIMITS.name} characters`)
  .refine((s) => !/[/\\]/.test(s) && s !== '.' && s !== '..', {
    message: 'an IdP group name holds no / or \\ and is not . or ..',
  })
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: 'an IdP group name holds no control characters' });

export const RegisterIdpGroupsBody = z.strictObject({
  idp_group_names: z
    .array(IdpGroupName, { message: 'idp_group_names is required: a list of IdP group names' })
    .min(1, 'idp_group_names needs at least 1 name')
    .max(IDP_GROUP_LIMITS.perRegistration, {
      error: (issue) =>
        `At most ${IDP_GROUP_LIMITS.perRegistration} IdP groups per registration; this request has ${Array.isArray(issue.input) ? issue.input.length : 'more'}`,
    }),
});
export type RegisterIdpGroupsBody = z.input<typeof RegisterIdpGroupsBody>;

const IdpGroupParams = z.object({ idp_group_name: z.string().min(1) });
const OrgParams = z.object({ org_id: OrgId });
const OrgIdpGroupParams = z.object({ org_id: OrgId, idp_group_name: z.string().min(1) });

const PATH = '/v3/enterprise/idp-groups';
const BETA_PATH = '/v3beta1/enterprise/idp-groups';
/** The role mappings (vendor reference; not in the spec): the enterprise's and each organization's. */
const ROLES_PATH = '/v3/enterprise/members/idp-groups';
const ORG_ROLES_PATH = '/v3/enterprise/organizations/{org_id}/members/idp-groups';

const MAPPING_NOTE =
  'In the vendor reference, not in the spec; permission not shown there: ManageAccountMembership (as the IdP groups) for changes, ViewAccountMembership for reads. A group holds at most one role per level.';

export const idpGroupOperations = defineOperations({
  'idpGroups.list': {
    id: 'idpGroups.list',
    method: 'GET',
    path: PATH,
    alternates: [BETA_PATH],
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: "The enterprise's IdP groups by name, each with the roles its members get",
    query: z.object({ first: First, after: After }),
    response: pageOf(IdpGroup),
    paginated: true,
    note: 'role_assignments, member_count and created_at are sent by the sandbox (the reference lists names only).',
  },
  'idpGroups.create': {
    id: 'idpGroups.create',
    method: 'POST',
    path: PATH,
    alternates: [BETA_PATH],
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: 'Register up to 100 IdP groups; names already registered are ignored; answers with the new ones',
    body: RegisterIdpGroupsBody,
    response: z.array(IdpGroup),
    note: 'Names compare case-insensitively; a name repeated in the request is registered once.',
  },
  'idpGroups.delete': {
    id: 'idpGroups.delete',
    method: 'DELETE',
    path: `${PATH}/{idp_group_name}`,
    alternates: [`${BETA_PATH}/{idp_group_name}`],
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: 'Delete an IdP group with its role mappings and memberships; answers with the group as it was',
    params: IdpGroupParams,
    response: IdpGroup,
  },
  'idpGroups.roles.list': {
    id: 'idpGroups.roles.list',
    method: 'GET',
    path: ROLES_PATH,
    permission: 'ViewAccountMembership',
    scope: 'enterprise',
    summary: 'The registered IdP groups, each with the enterprise role its members get (role_assignments: none or one)',
    query: z.object({ first: First, after: After }),
    response: pageOf(IdpGroup),
    paginated: true,
    note: MAPPING_NOTE,
  },
  'idpGroups.roles.get': {
    id: 'idpGroups.roles.get',
    method: 'GET',
    path: `${ROLES_PATH}/{idp_group_name}`,
    permission: 'ViewAccountMembership',
    scope: 'enterprise',
    summary: 'One IdP group with its enterprise role',
    params: IdpGroupParams,
    response: IdpGroup,
    note: MAPPING_NOTE,
  },
  'idpGroups.roles.assign': {
    id: 'idpGroups.roles.assign',
    method: 'POST',
    path: `${ROLES_PATH}/{idp_group_name}`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: 'Give an IdP group an enterprise role (409 when it already has one: change it instead)',
    params: IdpGroupParams,
    body: RoleIdBody,
    response: IdpGroup,
    note: `${MAPPING_NOTE} 404 for a group that is not registered; 422 for an unknown role or an organization role.`,
  },
  'idpGroups.roles.update': {
    id: 'idpGroups.roles.update',
    method: 'PATCH',
    path: `${ROLES_PATH}/{idp_group_name}`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: "Change an IdP group's enterprise role (404 when it has none)",
    params: IdpGroupParams,
    body: RoleIdBody,
    response: IdpGroup,
    note: MAPPING_NOTE,
  },
  'idpGroups.roles.remove': {
    id: 'idpGroups.roles.remove',
    method: 'DELETE',
    path: `${ROLES_PATH}/{idp_group_name}`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: "Remove an IdP group's enterprise role; the group stays registered; answers with the group",
    params: IdpGroupParams,
    response: IdpGroup,
    note: `${MAPPING_NOTE} 404 when the group has no enterprise role.`,
  },
  'idpGroups.organization.roles.list': {
    id: 'idpGroups.organization.roles.list',
    method: 'GET',
    path: ORG_ROLES_PATH,
    permission: 'ViewAccountMembership',
    scope: 'enterprise',
    summary: 'The IdP groups with a role in this organization, each with that role',
    params: OrgParams,
    query: z.object({ first: First, after: After }),
    response: pageOf(IdpGroup),
    paginated: true,
    note: MAPPING_NOTE,
  },
  'idpGroups.organization.roles.get': {
    id: 'idpGroups.organization.roles.get',
    method: 'GET',
    path: `${ORG_ROLES_PATH}/{idp_group_name}`,
    permission: 'ViewAccountMembership',
    scope: 'enterprise',
    summary: 'One IdP group with its role in this organization (404 when it has none there)',
    params: OrgIdpGroupParams,
    response: IdpGroup,
    note: MAPPING_NOTE,
  },
  'idpGroups.organization.roles.assign': {
    id: 'idpGroups.organization.roles.assign',
    method: 'POST',
    path: `${ORG_ROLES_PATH}/{idp_group_name}`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: 'Give an IdP group an organization role in this organization (409 when it already has one there)',
    params: OrgIdpGroupParams,
    body: RoleIdBody,
    response: IdpGroup,
    note: `${MAPPING_NOTE} 404 for an unknown organization or a group that is not registered; 422 for an unknown role or an enterprise role.`,
  },
  'idpGroups.organization.roles.update': {
    id: 'idpGroups.organization.roles.update',
    method: 'PATCH',
    path: `${ORG_ROLES_PATH}/{idp_group_name}`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: "Change an IdP group's role in this organization (404 when it has none there)",
    params: OrgIdpGroupParams,
    body: RoleIdBody,
    response: IdpGroup,
    note: MAPPING_NOTE,
  },
  'idpGroups.organization.roles.remove': {
    id: 'idpGroups.organization.roles.remove',
    method: 'DELETE',
    path: `${ORG_ROLES_PATH}/{idp_group_name}`,
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: "Remove an IdP group's role in this organization; answers with the group",
    params: OrgIdpGroupParams,
    response: IdpGroup,
    note: `${MAPPING_NOTE} 404 when the group has no role there.`,
  },
});
