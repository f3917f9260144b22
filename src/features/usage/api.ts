/**
 * Usage and consumption: query keys and options. Every figure is read from the API (consumption per billing
 * day, the billing cycles, the ACU limits, active users, sessions and pull requests); what the screens compute
 * on top (top organizations, the forecast) is done from these answers only.
 */
import { queryOptions } from '@tanstack/react-query';
import type { BillingCycle, TimeRange } from '@/api/billing-day';
import type { ConsumptionResponse } from '@/api/operations/consumption';
import type { AcuLimit } from '@/api/operations/acu-limits';
import { readAllPages } from '@/api/page-walk';
import { apiCall } from '@/lib/api-client';
import { pool } from '@/api/pool';
import { readPrincipalConsumption } from '@/lib/principal-consumption';
import { memberNaming, serviceUserNaming } from '@/lib/principal-names';
import { personRow, sortRows, type CycleWindows, type PersonRow, type Principal } from './people-data';

/** Where the figures come from: the whole enterprise, or one organization. */
export type UsageScope = { kind: 'enterprise' } | { kind: 'org'; orgId: string };

const scopeKey = (s: UsageScope) => (s.kind === 'enterprise' ? 'enterprise' : `org:${s.orgId}`);
const rangeKey = (r: TimeRange) => [r.time_after, r.time_before] as const;

export const usageKeys = {
  all: ['usage'] as const,
  cycles: () => [...usageKeys.all, 'cycles'] as const,
  limits: () => [...usageKeys.all, 'acu-limits'] as const,
  daily: (scope: UsageScope, range: TimeRange) =>
    [...usageKeys.all, 'daily', scopeKey(scope), ...rangeKey(range)] as const,
  byOrganization: (range: TimeRange) => [...usageKeys.all, 'by-organization', ...rangeKey(range)] as const,
  activeUsers: (scope: UsageScope, range: TimeRange) =>
    [...usageKeys.all, 'active-users', scopeKey(scope), ...rangeKey(range)] as const,
  activeUsersCount: (scope: UsageScope, range: TimeRange) =>
    [...usageKeys.all, 'active-users-count', scopeKey(scope), ...rangeKey(range)] as const,
  activity: (scope: UsageScope, range: TimeRange) =>
    [...usageKeys.all, 'activity', scopeKey(scope), ...rangeKey(range)] as const,
  people: (w: CycleWindows) =>
    [
      ...usageKeys.all,
      'people',
      ...rangeKey(w.current),
      ...rangeKey(w.previous),
      ...rangeKey(w.previousSameDays),
    ] as const,
  orgMetrics: (orgId: string, range: TimeRange) =>
    [...usageKeys.all, 'org-metrics', orgId, ...rangeKey(range)] as const,
};

const STALE = 60_000;
const MAX_PAGES = 50;

/** The billing cycles, current first (at most a few years' worth). */
export const cyclesQueryOptions = () =>
  queryOptions({
    queryKey: usageKeys.cycles(),
    queryFn: ({ signal }): Promise<BillingCycle[]> =>
      readAllPages(
        (after, s) => apiCall('consumption.cycles.list', { query: { first: 200, after }, signal: s ?? signal }),
        { maxPages: 5, signal, what: 'The billing cycles' },
      ),
    staleTime: 10 * 60_000,
    retry: false,
  });

/** Every ACU limit (enterprise, organizations, users). */
export const acuLimitsQueryOptions = () =>
  queryOptions({
    queryKey: usageKeys.limits(),
    queryFn: ({ signal }): Promise<AcuLimit[]> =>
      readAllPages((after, s) => apiCall('acuLimits.list', { query: { first: 200, after }, signal: s ?? signal }), {
        maxPages: MAX_PAGES,
        signal,
        what: 'The ACU limits',
      }),
    staleTime: STALE,
    retry: false,
  });

function readDaily(scope: UsageScope, range: TimeRange, signal: AbortSignal): Promise<ConsumptionResponse> {
  return scope.kind === 'enterprise'
    ? apiCall('consumption.daily.get', { query: range, signal })
    : apiCall('consumption.daily.organization.get', { params: { org_id: scope.orgId }, query: range, signal });
}

export const dailyConsumptionQueryOptions = (scope: UsageScope, range: TimeRange) =>
  queryOptions({
    queryKey: usageKeys.daily(scope, range),
    queryFn: ({ signal }) => readDaily(scope, range, signal),
    staleTime: STALE,
  });

export interface OrgConsumption {
  org_id: string;
  name: string;
  total_acus: number;
  /** The organization's ACUs per billing day. */
  days: ConsumptionResponse['consumption_by_date'];
  /** Its ACU limit per billing cycle, or null for none. */
  max_cycle_acu_limit: number | null;
}

/** Each organization's ACUs over the range (one call per organization, six at a time), largest first. */
export const consumptionByOrganizationQueryOptions = (range: TimeRange) =>
  queryOptions({
    queryKey: usageKeys.byOrganization(range),
    queryFn: async ({ signal }): Promise<OrgConsumption[]> => {
      const orgs = await readAllPages(
        (after, s) => apiCall('organizations.list', { query: { first: 200, after }, signal: s ?? signal }),
        { maxPages: MAX_PAGES, signal, what: 'The organizations list' },
      );
      const totals = await pool(orgs, 6, (o) =>
        apiCall('consumption.daily.organization.get', { params: { org_id: o.org_id }, query: range, signal }),
      );
      return orgs
        .map((o, i) => ({
          org_id: o.org_id,
          name: o.name,
          total_acus: totals[i]!.total_acus,
          days: totals[i]!.consumption_by_date,
          max_cycle_acu_limit: o.max_cycle_acu_limit ?? null,
        }))
        .sort((a, b) => b.total_acus - a.total_acus || a.name.localeCompare(b.name));
    },
    staleTime: STALE,
  });

const orgFilter = (scope: UsageScope) => (scope.kind === 'org' ? { org_ids: [scope.orgId] } : {});

/** Daily, weekly and monthly active users over the range. */
export const activeUsersQueryOptions = (scope: UsageScope, range: TimeRange) =>
  queryOptions({
    queryKey: usageKeys.activeUsers(scope, range),
    queryFn: async ({ signal }) => {
      const query = { ...range, ...orgFilter(scope) };
      const [dau, wau, mau] = await Promise.all([
        apiCall('metrics.dau.list', { query, signal }),
        apiCall('metrics.wau.list', { query, signal }),
        apiCall('metrics.mau.list', { query, signal }),
      ]);
      return { dau, wau, mau };
    },
    staleTime: STALE,
  });

/**
 * Unique active users over the whole range, one count (`GET /v3/enterprise/metrics/active-users`): a person with
 * at least one session or one search in it, in the organization when the scope is one.
 */
export const enterpriseActiveUsersQueryOptions = (scope: UsageScope, range: TimeRange) =>
  queryOptions({
    queryKey: usageKeys.activeUsersCount(scope, range),
    queryFn: ({ signal }) =>
      apiCall('metrics.activeUsers.get', {
        query: { ...range, ...orgFilter(scope), min_sessions: 1, min_searches: 1 },
        signal,
      }),
    staleTime: STALE,
  });

/** The range before `range`, as long as it. */
export function previousRange(range: TimeRange): TimeRange {
  const len = range.time_before - range.time_after;
  return { time_after: range.time_after - len, time_before: range.time_after };
}

/** Sessions and pull requests created and merged, over the range and over the range before it. */
export const activityQueryOptions = (scope: UsageScope, range: TimeRange) =>
  queryOptions({
    queryKey: usageKeys.activity(scope, range),
    queryFn: async ({ signal }) => {
      const read = (r: TimeRange) =>
        Promise.all([
          apiCall('metrics.sessions.get', { query: { ...r, ...orgFilter(scope) }, signal }),
          apiCall('metrics.prs.get', { query: { ...r, ...orgFilter(scope) }, signal }),
        ]).then(([sessions, prs]) => ({ sessions, prs }));
      const [current, previous] = await Promise.all([read(range), read(previousRange(range))]);
      return { current, previous };
    },
    staleTime: STALE,
  });

/** The organization's four usage metrics over the range (`ViewOrgMetrics`). */
export const orgUsageMetricsQueryOptions = (orgId: string, range: TimeRange) =>
  queryOptions({
    queryKey: usageKeys.orgMetrics(orgId, range),
    queryFn: ({ signal }) => apiCall('metrics.usage.get', { params: { org_id: orgId }, query: range, signal }),
    staleTime: STALE,
  });

/** Every member and every service user (also expired ones: they may have consumed in these cycles). */
async function readPrincipals(signal: AbortSignal): Promise<Principal[]> {
  const [users, serviceUsers] = await Promise.all([
    readAllPages((after, s) => apiCall('members.users.list', { query: { first: 200, after }, signal: s ?? signal }), {
      maxPages: MAX_PAGES,
      signal,
      what: 'The members list',
    }),
    readAllPages(
      (after, s) =>
        apiCall('serviceUsers.list', { query: { first: 200, after, include_inactive: 'true' }, signal: s ?? signal }),
      { maxPages: MAX_PAGES, signal, what: 'The service users list' },
    ),
  ]);
  return [...users.map(memberNaming), ...serviceUsers.map(serviceUserNaming)];
}

/**
 * Each member's and service user's ACUs in this cycle and the previous one: one read of everyone's daily
 * consumption over both cycles (src/lib/principal-consumption.ts). A principal that could not be read leaves its
 * row without figures (and says why); a missing permission fails the whole read, as it would fail every row alike.
 */
export const peopleConsumptionQueryOptions = (w: CycleWindows) =>
  queryOptions({
    queryKey: usageKeys.people(w),
    queryFn: async ({ signal }): Promise<PersonRow[]> => {
      const people = await readPrincipals(signal);
      const reads = await readPrincipalConsumption(people, w.query, signal);
      return sortRows(people.map((p, i) => personRow(p, w, reads[i]!)));
    },
    staleTime: STALE,
  });
