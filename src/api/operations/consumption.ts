/**
 * Consumption: ACUs per billing day for the enterprise, one organization, one user and one service user, and the
 * billing cycles. Spec: `GET /v3/enterprise/consumption/daily` with `time_after`, `time_before`; the rest of
 * `/v3/enterprise/consumption/*` is "not shown". Shapes from api-facts (`{total_acus, consumption_by_date:
 * [{date, acus, acus_by_product}]}`, `date` = the billing day's start, 08:00 UTC) and the vendor's published
 * reference (the per-organization, per-user and per-service-user paths, the cycles list `{after, before}`).
 *
 * Permission (not shown in the spec): `ManageBilling`, the one permission the spec names under
 * `/v3/enterprise/consumption/` (the ACU limits), and the one the vendor's clients ask for to read consumption.
 *
 * Rounding: every figure is in hundredths of an ACU; `acus` of a day is the sum of its `acus_by_product`, and
 * `total_acus` the sum of the days, so the numbers add up exactly however they are summed.
 */
import { z } from 'zod';
import { OrgId, PageQuery, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { OptionalRange, withRangeChecks } from './time-range';

/**
 * Products the sandbox bills (derived from where a session runs): `agent` (the web app, the API and the chat and
 * issue-tracker integrations), `terminal` (the CLI and desktop app), `automation` (automated runs). The real API
 * may send other names; they are shown as they come.
 */
export const KNOWN_PRODUCTS = ['agent', 'terminal', 'automation'] as const;
export const PRODUCT_LABELS: Record<string, string> = {
  agent: 'Agent sessions',
  terminal: 'CLI and desktop',
  automation: 'Automations',
};

export const DailyConsumption = z.looseObject({
  /** The billing day's start, Unix seconds (08:00:00 UTC). */
  date: UnixSeconds,
  acus: z.number(),
  /** ACUs of the day by product name. */
  acus_by_product: z.record(z.string(), z.number()).nullish(),
});
export type DailyConsumption = z.infer<typeof DailyConsumption>;

export const ConsumptionResponse = z.looseObject({
  total_acus: z.number(),
  consumption_by_date: z.array(DailyConsumption),
});
export type ConsumptionResponse = z.infer<typeof ConsumptionResponse>;

export const ConsumptionCycle = z.looseObject({
  /** The cycle's first billing day starts here (inclusive). */
  after: UnixSeconds,
  /** The next cycle starts here (exclusive). */
  before: UnixSeconds,
});
export type ConsumptionCycle = z.infer<typeof ConsumptionCycle>;

/**
 * The daily query: both bounds optional (without `time_after`, the current cycle's start; without `time_before`,
 * now). Days are whole billing days: a bound inside a day still names that day, and only ACUs inside the range
 * count.
 */
export const ConsumptionQuery = withRangeChecks(z.object({ ...OptionalRange }));
export type ConsumptionQuery = z.input<typeof ConsumptionQuery>;

const NOTE =
  'Permission not shown in the spec; ManageBilling chosen (the spec’s permission under /consumption/). Days start at 08:00 UTC all year; every day of the range is listed, empty ones with 0. Without time_after: the current cycle’s start; without time_before: now. 422 when time_after is not earlier than time_before, or the range is longer than 400 days.';

const principalId = (name: string) =>
  z.string().min(1, `${name} must not be empty`).max(200, `${name} is at most 200 characters`);

export const consumptionOperations = defineOperations({
  'consumption.daily.get': {
    id: 'consumption.daily.get',
    method: 'GET',
    path: '/v3/enterprise/consumption/daily',
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: "The enterprise's ACUs per billing day, by product",
    query: ConsumptionQuery,
    response: ConsumptionResponse,
    note: NOTE,
  },
  'consumption.daily.organization.get': {
    id: 'consumption.daily.organization.get',
    method: 'GET',
    path: '/v3/enterprise/consumption/daily/organizations/{org_id}',
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: "One organization's ACUs per billing day, by product",
    params: z.object({ org_id: OrgId }),
    query: ConsumptionQuery,
    response: ConsumptionResponse,
    note: `${NOTE} 404 for an unknown organization.`,
  },
  'consumption.daily.user.get': {
    id: 'consumption.daily.user.get',
    method: 'GET',
    path: '/v3/enterprise/consumption/daily/users/{user_id}',
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: "One user's ACUs per billing day (sessions the user created), by product",
    params: z.object({ user_id: principalId('user_id') }),
    query: ConsumptionQuery,
    response: ConsumptionResponse,
    note: `${NOTE} 404 for a user the enterprise does not know.`,
  },
  'consumption.daily.serviceUser.get': {
    id: 'consumption.daily.serviceUser.get',
    method: 'GET',
    path: '/v3/enterprise/consumption/daily/service-users/{service_user_id}',
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: "One service user's ACUs per billing day (sessions it started), by product",
    params: z.object({ service_user_id: principalId('service_user_id') }),
    query: ConsumptionQuery,
    response: ConsumptionResponse,
    note: `${NOTE} 404 for a service user the enterprise does not know.`,
  },
  'consumption.cycles.list': {
    id: 'consumption.cycles.list',
    method: 'GET',
    path: '/v3/enterprise/consumption/cycles',
    permission: 'ManageBilling',
    scope: 'enterprise',
    summary: 'The billing cycles, the current one first',
    query: PageQuery,
    response: pageOf(ConsumptionCycle),
    paginated: true,
    note: 'Permission not shown in the spec; ManageBilling chosen. Shape from the vendor reference ({after, before}, Unix seconds, billing-day starts).',
  },
});
