/**
 * Agent ACU limits (spec: further operations, `ManageBilling`; shapes from the vendor reference: ACULimitResponse,
 * UpdateACULimitRequest, whose path says `acu-limits/devin` where the spec says `acu-limits/agent`).
 *
 * One limit per scope: the enterprise's, each organization's and each user's (users' limits are read-only here:
 * the spec shows no operation that sets them). `cycle_acu_limit` is a whole number of ACUs per billing cycle, 0 or
 * more. An organization's limit is its `max_cycle_acu_limit` (the organizations operations show the same value).
 */
import { z } from 'zod';
import { OrgId, PageQuery } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { AcuLimitValue } from './organizations';

export const ACU_LIMIT_SCOPES = ['enterprise', 'org', 'user'] as const;
export type AcuLimitScope = (typeof ACU_LIMIT_SCOPES)[number];

export const AcuLimit = z.looseObject({
  cycle_acu_limit: z.number().int(),
  scope: z.enum(ACU_LIMIT_SCOPES),
  org_id: z.string().nullish(),
  user_id: z.string().nullish(),
});
export type AcuLimit = z.infer<typeof AcuLimit>;

export const AcuLimitBody = z.strictObject({
  cycle_acu_limit: AcuLimitValue('ACU limit per cycle'),
});
export type AcuLimitBody = z.input<typeof AcuLimitBody>;

const PATH = '/v3/enterprise/consumption/acu-limits/agent';
const ORG_PATH = `${PATH}/organizations/{org_id}`;
/** The vendor's name for the same paths (reference: `acu-limits/devin`). */
const VENDOR_PATH = '/v3/enterprise/consumption/acu-limits/devin';
const VENDOR_ORG_PATH = `${VENDOR_PATH}/organizations/{org_id}`;
const OrgParams = z.object({ org_id: OrgId });

export const acuLimitOperations = defineOperations({
  'acuLimits.list': {
    id: 'acuLimits.list',
    method: 'GET',
    path: PATH,
    alternates: [VENDOR_PATH],
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: 'The agent ACU limits per billing cycle: the enterprise one first, then organizations, then users',
    query: PageQuery,
    response: pageOf(AcuLimit),
    paginated: true,
  },
  'acuLimits.enterprise.update': {
    id: 'acuLimits.enterprise.update',
    method: 'PUT',
    path: PATH,
    alternates: [VENDOR_PATH],
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: "Set the enterprise's agent ACU limit per billing cycle (a whole number, 0 or more)",
    body: AcuLimitBody,
    status: 204,
    note: 'PUT on the list path (spec) sets the enterprise-scope limit; answers 204 like the organization PUT (reference).',
  },
  'acuLimits.enterprise.delete': {
    id: 'acuLimits.enterprise.delete',
    method: 'DELETE',
    path: PATH,
    alternates: [VENDOR_PATH],
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: "Remove the enterprise's agent ACU limit",
    status: 204,
    note: 'Idempotent: 204 also when no enterprise limit is set (console choice).',
  },
  'acuLimits.organization.update': {
    id: 'acuLimits.organization.update',
    method: 'PUT',
    path: ORG_PATH,
    alternates: [VENDOR_ORG_PATH],
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: "Set an organization's agent ACU limit per billing cycle",
    params: OrgParams,
    body: AcuLimitBody,
    status: 204,
    note: "The organization's max_cycle_acu_limit. 422 when it would be below the organization's max_session_acu_limit (the same rule as the organizations operations).",
  },
  'acuLimits.organization.delete': {
    id: 'acuLimits.organization.delete',
    method: 'DELETE',
    path: ORG_PATH,
    alternates: [VENDOR_ORG_PATH],
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: "Remove an organization's agent ACU limit",
    params: OrgParams,
    status: 204,
    note: 'Idempotent: 204 also when the organization has no limit; 404 for an unknown organization.',
  },
});
