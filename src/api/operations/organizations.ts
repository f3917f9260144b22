/** Enterprise organizations, and the caller's own identity (`GET /v3/self`). */
import { z } from 'zod';
import { OrgId, PageQuery, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { RoleAssignment } from './members';

export const Organization = z.looseObject({
  org_id: z.string(),
  name: z.string(),
  created_at: UnixSeconds.optional(),
  updated_at: UnixSeconds.optional(),
  max_cycle_acu_limit: z.number().int().nullish(),
  max_session_acu_limit: z.number().int().nullish(),
});
export type Organization = z.infer<typeof Organization>;

export const Self = z.looseObject({
  principal_type: z.string(),
  service_user_id: z.string().nullish(),
  service_user_name: z.string().nullish(),
  org_id: z.string().nullish(),
  /**
   * Sandbox extension: every permission the credential holds, at any level, so the console can explain 403s up
   * front. Where each one holds is in `role_assignments`.
   */
  permissions: z.array(z.string()).optional(),
  /**
   * Sandbox extension: the credential's own role assignments, each role with its permission names (`org_id` null:
   * enterprise-wide). With `permissionsAt` they say what the credential may do, and grant, at each level.
   */
  role_assignments: z.array(RoleAssignment).optional(),
});
export type Self = z.infer<typeof Self>;

export const OrgParams = z.object({ org_id: OrgId });

export const organizationOperations = defineOperations({
  'organizations.list': {
    id: 'organizations.list',
    method: 'GET',
    path: '/v3/enterprise/organizations',
    permission: 'ViewAccountOrganizations',
    scope: 'enterprise',
    summary: 'List the organizations of the enterprise',
    query: PageQuery,
    response: pageOf(Organization),
    paginated: true,
    note: 'Permission not shown in the spec; ViewAccountOrganizations chosen.',
  },
  'organizations.get': {
    id: 'organizations.get',
    method: 'GET',
    path: '/v3/enterprise/organizations/{org_id}',
    permission: 'ViewAccountOrganizations',
    scope: 'enterprise',
    summary: 'Get one organization of the enterprise',
    params: OrgParams,
    response: Organization,
    note: 'Permission not shown in the spec; ViewAccountOrganizations chosen.',
  },
  'self.get': {
    id: 'self.get',
    method: 'GET',
    path: '/v3/self',
    permission: 'AnyCredential',
    scope: 'enterprise',
    summary: "The calling credential's identity",
    response: Self,
    note: 'Not in the spec; present on the real service (api-facts). The console works without it.',
  },
});
