/**
 * Usage metrics. Spec: `GET /v3/organizations/{org_id}/metrics/usage` (`ViewOrgMetrics`, UsageMetrics), active
 * users over a range (filters: organization ids, `min_sessions`, `min_searches`; one count), and
 * `/v3/enterprise/metrics/*` "not shown". Shapes from api-facts (`{active_users, start_time, end_time}`, usage
 * query `time_after`/`time_before`) and the vendor's reference (daily, weekly, monthly active users; pull
 * requests; sessions by origin and by size; searches).
 *
 * Permissions: `ViewOrgMetrics` (spec) for the organization's usage; `ViewAccountMetrics` — the spec's permission
 * for the enterprise queue, and the issue's for enterprise metrics — for every `/v3/enterprise/metrics/*`.
 *
 * What is counted, all over half-open ranges (`time_after` ≤ t < `time_before`): a session when it is created; a
 * pull request at its session's last activity (`updated_at`), merged when its `pr_state` is `merged`; a search
 * when it is made. A user is active in a window when they created at least `min_sessions` sessions or made at
 * least `min_searches` searches in it (0 turns that criterion off; not both). Windows follow billing days
 * (08:00 UTC): a day, 7 days from the range's first day, a calendar month starting on the 1st at 08:00 UTC;
 * each clipped to the range.
 */
import { z } from 'zod';
import { OrgId, queryArray, queryInt, UnixSeconds, whenFieldsParsed } from '../conventions';
import { defineOperations } from './define';
import { OptionalRange, RequiredRange, withRangeChecks } from './time-range';

export const UsageMetrics = z.looseObject({
  prs_created_count: z.number().int(),
  prs_merged_count: z.number().int(),
  searches_count: z.number().int(),
  sessions_count: z.number().int(),
});
export type UsageMetrics = z.infer<typeof UsageMetrics>;

export const ActiveUsers = z.looseObject({
  active_users: z.number().int(),
  start_time: UnixSeconds,
  end_time: UnixSeconds,
});
export type ActiveUsers = z.infer<typeof ActiveUsers>;

export const PrMetrics = z.looseObject({
  prs_created_count: z.number().int(),
  prs_merged_count: z.number().int(),
  prs_opened_count: z.number().int().optional(),
  prs_closed_count: z.number().int().optional(),
});
export type PrMetrics = z.infer<typeof PrMetrics>;

/** Session sizes by number of messages (api-facts: `session_size`, `xs`…`xl`). */
export const SESSION_SIZES = ['xs', 's', 'm', 'l', 'xl'] as const;

export const SessionMetrics = z.looseObject({
  sessions_created_count: z.number().int(),
  sessions_created_by_origin: z.record(z.string(), z.number().int()),
  sessions_created_by_size: z.record(z.string(), z.number().int()),
  sessions_with_merged_prs_count: z.number().int().optional(),
  avg_acus_per_session: z.number().optional(),
});
export type SessionMetrics = z.infer<typeof SessionMetrics>;

export const SearchMetrics = z.looseObject({ searches_created_count: z.number().int() });
export type SearchMetrics = z.infer<typeof SearchMetrics>;

/** At most this many organization ids in one filter. */
export const MAX_ORG_IDS = 200;
const OrgIds = queryArray(OrgId).refine((v) => v === undefined || v.length <= MAX_ORG_IDS, {
  message: `At most ${MAX_ORG_IDS} organization ids per filter`,
});

const MinCount = (name: string) => queryInt({ min: 0, max: 100_000, name }).default(1);

/** The active-users queries: a required range, organizations, and the two thresholds (not both 0). */
export const ActiveUsersQuery = withRangeChecks(
  z.object({
    ...RequiredRange,
    org_ids: OrgIds,
    min_sessions: MinCount('min_sessions'),
    min_searches: MinCount('min_searches'),
  }),
).refine((q) => q.min_sessions > 0 || q.min_searches > 0, {
  path: ['min_sessions'],
  message: 'min_sessions and min_searches cannot both be 0: a user would be active without doing anything',
  when: whenFieldsParsed('min_sessions', 'min_searches'),
});
export type ActiveUsersQuery = z.input<typeof ActiveUsersQuery>;

/** The totals of the enterprise: a required range and organizations. */
export const EnterpriseMetricsQuery = withRangeChecks(z.object({ ...RequiredRange, org_ids: OrgIds }));
export type EnterpriseMetricsQuery = z.input<typeof EnterpriseMetricsQuery>;

/** The usage totals: an optional range (without it, all time). */
export const UsageMetricsQuery = withRangeChecks(z.object({ ...OptionalRange }));
export type UsageMetricsQuery = z.input<typeof UsageMetricsQuery>;

export const EnterpriseUsageMetricsQuery = withRangeChecks(z.object({ ...OptionalRange, org_ids: OrgIds }));

const VIEW =
  'Permission not shown in the spec; ViewAccountMetrics chosen (the spec’s permission for the enterprise queue).';
const RANGE = '422 when time_after is not earlier than time_before, or the range is longer than 400 days.';
const WINDOWS = 'Windows follow billing days (08:00 UTC) and are clipped to the range.';

export const metricsOperations = defineOperations({
  'metrics.usage.get': {
    id: 'metrics.usage.get',
    method: 'GET',
    path: '/v3/organizations/{org_id}/metrics/usage',
    permission: 'ViewOrgMetrics',
    scope: 'organization',
    summary: "The organization's sessions, searches and pull requests created and merged over a range",
    params: z.object({ org_id: OrgId }),
    query: UsageMetricsQuery,
    response: UsageMetrics,
    note: `Query names from api-facts. Without a range: all time. ${RANGE}`,
  },
  'metrics.enterprise.usage.get': {
    id: 'metrics.enterprise.usage.get',
    method: 'GET',
    path: '/v3/enterprise/metrics/usage',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: "The enterprise's sessions, searches and pull requests created and merged over a range",
    query: EnterpriseUsageMetricsQuery,
    response: UsageMetrics,
    note: `${VIEW} Without a range: all time. ${RANGE}`,
  },
  'metrics.activeUsers.get': {
    id: 'metrics.activeUsers.get',
    method: 'GET',
    path: '/v3/enterprise/metrics/active-users',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'Unique active users over a range (one count)',
    query: ActiveUsersQuery,
    response: ActiveUsers,
    note: `${VIEW} ${RANGE}`,
  },
  'metrics.dau.list': {
    id: 'metrics.dau.list',
    method: 'GET',
    path: '/v3/enterprise/metrics/dau',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'Active users per billing day of a range',
    query: ActiveUsersQuery,
    response: z.array(ActiveUsers),
    note: `${VIEW} ${WINDOWS} ${RANGE}`,
  },
  'metrics.wau.list': {
    id: 'metrics.wau.list',
    method: 'GET',
    path: '/v3/enterprise/metrics/wau',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'Active users per 7 billing days of a range',
    query: ActiveUsersQuery,
    response: z.array(ActiveUsers),
    note: `${VIEW} ${WINDOWS} ${RANGE}`,
  },
  'metrics.mau.list': {
    id: 'metrics.mau.list',
    method: 'GET',
    path: '/v3/enterprise/metrics/mau',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'Active users per calendar month (from the 1st at 08:00 UTC) of a range',
    query: ActiveUsersQuery,
    response: z.array(ActiveUsers),
    note: `${VIEW} ${WINDOWS} ${RANGE}`,
  },
  'metrics.prs.get': {
    id: 'metrics.prs.get',
    method: 'GET',
    path: '/v3/enterprise/metrics/prs',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'Pull requests created, merged, open and closed over a range',
    query: EnterpriseMetricsQuery,
    response: PrMetrics,
    note: `${VIEW} ${RANGE}`,
  },
  'metrics.sessions.get': {
    id: 'metrics.sessions.get',
    method: 'GET',
    path: '/v3/enterprise/metrics/sessions',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'Sessions created over a range, by origin and by size',
    query: EnterpriseMetricsQuery,
    response: SessionMetrics,
    note: `${VIEW} ${RANGE}`,
  },
  'metrics.searches.get': {
    id: 'metrics.searches.get',
    method: 'GET',
    path: '/v3/enterprise/metrics/searches',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'Searches made over a range',
    query: EnterpriseMetricsQuery,
    response: SearchMetrics,
    note: `${VIEW} ${RANGE}`,
  },
});
