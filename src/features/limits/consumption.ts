/**
 * Each organization's ACU consumption in the current billing cycle, for the limits table's "Consumed this
 * cycle" column: the current cycle from the billing cycles list, then each organization's daily consumption
 * over it (one call per organization, six at a time) and the enterprise's. Days are billing days (08:00 UTC).
 * Without `ManageBilling` (or on any error) the cells stay "—".
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { billingDayEnd, cycleBounds, cycleContaining } from '@/api/billing-day';
import { apiCall } from '@/lib/api-client';
import { allOrganizationsQueryOptions } from './api';

export interface CycleConsumption {
  /** ACUs consumed per organization id in the current cycle; undefined while unknown. */
  byOrg: ReadonlyMap<string, number> | undefined;
  /** The enterprise's total in the current cycle; undefined while unknown. */
  enterprise: number | undefined;
}

const PARALLEL = 6;

export const cycleConsumptionQueryOptions = (orgIds: readonly string[]) =>
  queryOptions({
    queryKey: ['limits', 'cycle-consumption', orgIds] as const,
    queryFn: async ({ signal }) => {
      const now = Math.floor(Date.now() / 1000);
      const cycles = await apiCall('consumption.cycles.list', { query: { first: 2 }, signal });
      const cycle = cycleContaining(cycles.items, now) ?? cycleBounds(now, 1);
      const query = { time_after: cycle.after, time_before: Math.min(cycle.before, billingDayEnd(now)) };
      const byOrg = new Map<string, number>();
      const queue = [...orgIds];
      const worker = async () => {
        for (let orgId = queue.shift(); orgId !== undefined; orgId = queue.shift()) {
          const r = await apiCall('consumption.daily.organization.get', { params: { org_id: orgId }, query, signal });
          byOrg.set(orgId, r.total_acus);
        }
      };
      const [enterprise] = await Promise.all([
        apiCall('consumption.daily.get', { query, signal }),
        ...Array.from({ length: Math.min(PARALLEL, orgIds.length) }, worker),
      ]);
      return { byOrg: byOrg as ReadonlyMap<string, number>, enterprise: enterprise.total_acus };
    },
    staleTime: 60_000,
    retry: false,
  });

export function useCycleConsumption(): CycleConsumption {
  const orgs = useQuery(allOrganizationsQueryOptions());
  const ids = useMemo(() => orgs.data?.map((o) => o.org_id), [orgs.data]);
  const q = useQuery({ ...cycleConsumptionQueryOptions(ids ?? []), enabled: ids !== undefined });
  return useMemo(() => ({ byOrg: q.data?.byOrg, enterprise: q.data?.enterprise }), [q.data]);
}
