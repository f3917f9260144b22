/**
 * IdP groups of the enterprise (`ManageAccountMembership`): list, register up to 100 names in one call (names
 * already registered are ignored, not an error), delete one. The spec lists them under `/v3beta1/` and says the
 * group was promoted to `/v3/`: the contract uses `/v3/`; the sandbox answers the `/v3beta1/` paths too
 * (`aliases`). Shapes from the vendor reference (IdpGroup, IdpGroupsBulkCreateRequest).
 */
import { z } from 'zod';
import { After, First, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { RoleAssignment } from './members';

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
    .superRefine((names, ctx) => {
      if (names.length > IDP_GROUP_LIMITS.perRegistration) {
        ctx.addIssue({
          code: 'custom',
          message: `At most ${IDP_GROUP_LIMITS.perRegistration} IdP groups per registration; this request has ${names.length}`,
        });
      }
    }),
});
export type RegisterIdpGroupsBody = z.input<typeof RegisterIdpGroupsBody>;

const IdpGroupParams = z.object({ idp_group_name: z.string().min(1) });

const PATH = '/v3/enterprise/idp-groups';
const BETA_PATH = '/v3beta1/enterprise/idp-groups';

export const idpGroupOperations = defineOperations({
  'idpGroups.list': {
    id: 'idpGroups.list',
    method: 'GET',
    path: PATH,
    aliases: [BETA_PATH],
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
    aliases: [BETA_PATH],
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
    aliases: [`${BETA_PATH}/{idp_group_name}`],
    permission: 'ManageAccountMembership',
    scope: 'enterprise',
    summary: 'Delete an IdP group with its role mappings and memberships; answers with the group as it was',
    params: IdpGroupParams,
    response: IdpGroup,
  },
});
