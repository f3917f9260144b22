/**
 * Enterprise organizations (list, get, create, update, delete), and the caller's own identity (`GET /v3/self`).
 * Create, update and delete are in the vendor reference (OrganizationCreateRequest, OrganizationUpdateRequest,
 * OrganizationResponse), not in the spec's tables; the spec names `ManageOrganizations` for the org group limits,
 * and it is chosen here for changing organizations too.
 */
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

/** Limits of organization fields (the console's choice: the reference shows none). */
export const ORGANIZATION_LIMITS = { name: 100, acuLimit: 1_000_000_000 } as const;

/** Trimmed first, so the limit (which the form and the OpenAPI document read) counts the name as stored. */
export const OrganizationName = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string({ message: 'name is required: the name of the organization' })
    .min(1, 'name must not be blank')
    .max(ORGANIZATION_LIMITS.name, `name is at most ${ORGANIZATION_LIMITS.name} characters`),
);

/**
 * An ACU limit: a whole number of ACUs, 0 or more; null (where allowed) = no limit. `name` is the field as the
 * form labels it ("ACU limit per session"), so a refusal reads as the admin sees the form.
 */
export const AcuLimitValue = (name: string) =>
  z
    .number({ message: `${name} must be a whole number of ACUs (0 or more)` })
    .int(`${name} must be a whole number of ACUs`)
    .min(0, `${name} must be 0 or more`)
    .max(ORGANIZATION_LIMITS.acuLimit, `${name} is at most ${ORGANIZATION_LIMITS.acuLimit}`);

/** The form's labels of the two limits, which the messages about them use. */
export const ORGANIZATION_LIMIT_LABELS = {
  max_cycle_acu_limit: 'ACU limit per billing cycle',
  max_session_acu_limit: 'ACU limit per session',
} as const;

/** Why a session limit above the cycle limit is refused (the contract's refinement and the sandbox say it alike). */
export const sessionAboveCycleMessage = (session: number, cycle: number) =>
  `${ORGANIZATION_LIMIT_LABELS.max_session_acu_limit} (${session}) cannot be above the ${ORGANIZATION_LIMIT_LABELS.max_cycle_acu_limit} (${cycle})`;

/** A session limit above the cycle limit (both given) can never be reached: refused on the session limit. */
function sessionWithinCycle(
  b: { max_cycle_acu_limit?: number | null; max_session_acu_limit?: number | null },
  ctx: z.RefinementCtx,
): void {
  const cycle = b.max_cycle_acu_limit;
  const session = b.max_session_acu_limit;
  if (typeof cycle === 'number' && typeof session === 'number' && session > cycle) {
    ctx.addIssue({
      code: 'custom',
      path: ['max_session_acu_limit'],
      message: sessionAboveCycleMessage(session, cycle),
    });
  }
}

export const OrganizationCreateBody = z
  .strictObject({
    name: OrganizationName,
    max_cycle_acu_limit: AcuLimitValue(ORGANIZATION_LIMIT_LABELS.max_cycle_acu_limit).nullish(),
    max_session_acu_limit: AcuLimitValue(ORGANIZATION_LIMIT_LABELS.max_session_acu_limit).nullish(),
  })
  .superRefine(sessionWithinCycle);
export type OrganizationCreateBody = z.input<typeof OrganizationCreateBody>;

/** Absent fields are unchanged; a null limit removes that limit; a null name leaves the name as it is. */
export const OrganizationUpdateBody = z
  .strictObject({
    name: OrganizationName.nullish(),
    max_cycle_acu_limit: AcuLimitValue(ORGANIZATION_LIMIT_LABELS.max_cycle_acu_limit).nullish(),
    max_session_acu_limit: AcuLimitValue(ORGANIZATION_LIMIT_LABELS.max_session_acu_limit).nullish(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'nothing to change: give name, max_cycle_acu_limit or max_session_acu_limit',
  })
  .superRefine(sessionWithinCycle);
export type OrganizationUpdateBody = z.input<typeof OrganizationUpdateBody>;

const MANAGE_NOTE =
  'In the vendor reference, not in the spec; permission not shown: ManageOrganizations chosen (the spec names it for org group limits).';

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
  'organizations.create': {
    id: 'organizations.create',
    method: 'POST',
    path: '/v3/enterprise/organizations',
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Create an organization, with optional cycle and per-session ACU limits',
    body: OrganizationCreateBody,
    response: Organization,
    note: `${MANAGE_NOTE} Names are unique in the enterprise, compared case-insensitively (409 otherwise). A session limit above the cycle limit answers 422.`,
  },
  'organizations.update': {
    id: 'organizations.update',
    method: 'PATCH',
    path: '/v3/enterprise/organizations/{org_id}',
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Rename an organization or change its ACU limits (absent: unchanged; a null limit: no limit)',
    params: OrgParams,
    body: OrganizationUpdateBody,
    response: Organization,
    note: `${MANAGE_NOTE} 409 for a name another organization has; 422 when the session limit would exceed the cycle limit.`,
  },
  'organizations.delete': {
    id: 'organizations.delete',
    method: 'DELETE',
    path: '/v3/enterprise/organizations/{org_id}',
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Delete an organization and everything in it; answers with the deleted organization',
    params: OrgParams,
    response: Organization,
    note: `${MANAGE_NOTE} The sandbox removes the organization's sessions (with their messages), knowledge notes, git permissions, indexing, snapshot builds, role assignments in it, its ACU limit and allowed tags, and takes it out of any org group; service users created in it are marked deleted. Audit-log entries stay.`,
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
