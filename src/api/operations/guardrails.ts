/**
 * Guardrail violations (v3beta1, spec: "Further operations"; record shape and filters from api-facts): the
 * enterprise list and one organization's list, with the guardrails they name.
 *
 * Time bounds are half-open, as for the audit logs: `time_after` ≤ created_at < `time_before`; `time_after`
 * later than `time_before` answers 422. Sorted by (created_at, violation_id) in the requested `order`
 * (default `desc`, newest first).
 */
import { z } from 'zod';
import { OrgId, PageQuery, UnixSeconds, queryArray, queryInt, whenFieldsParsed } from '../conventions';
import { pageOf } from '../page';
import { AUDIT_LOG_ORDERS, GUARDRAIL_ACTIONS, GUARDRAIL_ID_MAX as ID_MAX } from '../values';
import { defineOperations } from './define';

/** `action_taken` values: what the platform did when a guardrail fired, mildest first. */
export { GUARDRAIL_ACTIONS, type GuardrailAction } from '../values';

/** `order` of the violation lists (the audit logs' values: `asc`, `desc`; default `desc`). */
export const VIOLATION_ORDERS = AUDIT_LOG_ORDERS;

/** The largest timestamp accepted in a time bound (31 Dec 9999). */
const MAX_UNIX_SECONDS = 253_402_300_799;

/** One violation (api-facts), plus the guardrail's type, which the spec says entries carry. */
export const GuardrailViolation = z.looseObject({
  violation_id: z.string(),
  guardrail_id: z.string(),
  guardrail_name: z.string(),
  /** Spec: entries carry the guardrail type (the vendor's record does not show its field name). */
  guardrail_type: z.string().nullish(),
  org_id: z.string(),
  /** The triggering message's event. */
  event_id: z.string(),
  session_id: z.string().nullish(),
  reasoning: z.string(),
  /** 0 to 1. */
  confidence_score: z.number(),
  /** One of GUARDRAIL_ACTIONS; others are shown as they are. */
  action_taken: z.string(),
  /** The triggering message. */
  user_message: z.string(),
  created_at: UnixSeconds,
});
export type GuardrailViolation = z.infer<typeof GuardrailViolation>;

/** A guardrail (sandbox extension: the API shows guardrails only through their violations). */
export const Guardrail = z.looseObject({
  guardrail_id: z.string(),
  name: z.string(),
  guardrail_type: z.string().nullish(),
  description: z.string().nullish(),
  /** The action the guardrail takes at high confidence. */
  action: z.string().nullish(),
  enabled: z.boolean().nullish(),
  created_at: UnixSeconds.nullish(),
});
export type Guardrail = z.infer<typeof Guardrail>;

const TimeBound = (name: string) => queryInt({ min: 0, max: MAX_UNIX_SECONDS, name }).optional();
const IdFilter = (name: string) =>
  z.string().min(1, `${name} must not be empty`).max(ID_MAX, `${name} is at most ${ID_MAX} characters`).optional();

/** The query of both violation lists. */
export const GuardrailViolationQuery = z
  .object({
    ...PageQuery.shape,
    /** Only this session's violations (404 when the session does not exist). */
    session_id: IdFilter('session_id'),
    /** Only this guardrail's violations (404 when the guardrail does not exist). */
    guardrail_id: IdFilter('guardrail_id'),
    /** Inclusive lower bound, Unix seconds. */
    time_after: TimeBound('time_after'),
    /** Exclusive upper bound, Unix seconds. */
    time_before: TimeBound('time_before'),
    order: z.enum(VIOLATION_ORDERS, { message: 'order must be asc or desc' }).default('desc'),
    /** Sandbox extension: only these actions (repeated keys or comma-joined). */
    action_taken: queryArray(
      z.enum(GUARDRAIL_ACTIONS, { message: `action_taken values are ${GUARDRAIL_ACTIONS.join(', ')}` }),
    ),
  })
  .refine((q) => q.time_after === undefined || q.time_before === undefined || q.time_after <= q.time_before, {
    path: ['time_after'],
    error: (iss) => {
      const q = iss.input as { time_after?: number; time_before?: number };
      return `time_after (${q.time_after}) must not be later than time_before (${q.time_before})`;
    },
    when: whenFieldsParsed('time_after', 'time_before'),
  });
export type GuardrailViolationQuery = z.input<typeof GuardrailViolationQuery>;

const NOTE =
  'Spec: ManageEnterpriseSettings. Record and filters from api-facts; guardrail_type and the action_taken filter are sandbox extensions. time_after is inclusive, time_before exclusive; 422 when time_after is later than time_before or order is not asc/desc; 404 for an unknown session_id or guardrail_id filter.';

export const guardrailOperations = defineOperations({
  'guardrails.violations.list': {
    id: 'guardrails.violations.list',
    method: 'GET',
    path: '/v3beta1/enterprise/guardrail-violations',
    permission: 'ManageEnterpriseSettings',
    scope: 'enterprise',
    summary: 'Guardrail violations across the enterprise, newest first unless order=asc',
    query: GuardrailViolationQuery,
    response: pageOf(GuardrailViolation),
    paginated: true,
    note: NOTE,
  },
  'guardrails.violations.organization.list': {
    id: 'guardrails.violations.organization.list',
    method: 'GET',
    path: '/v3beta1/enterprise/organizations/{org_id}/guardrail-violations',
    permission: 'ManageEnterpriseSettings',
    scope: 'enterprise',
    summary: "One organization's guardrail violations, with the same query as the enterprise list",
    params: z.object({ org_id: OrgId }),
    query: GuardrailViolationQuery,
    response: pageOf(GuardrailViolation),
    paginated: true,
    note: NOTE,
  },
  'guardrails.list': {
    id: 'guardrails.list',
    method: 'GET',
    path: '/v3beta1/enterprise/guardrails',
    permission: 'ManageEnterpriseSettings',
    scope: 'enterprise',
    summary: "The enterprise's guardrails (for the violation filters and the chart legend)",
    query: PageQuery,
    response: pageOf(Guardrail),
    paginated: true,
    extension: true,
    note: 'Not in the spec or the reference: the console falls back to the guardrails named by the violations it has loaded.',
  },
});
