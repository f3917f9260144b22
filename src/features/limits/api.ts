/**
 * Limits: the enterprise's and every organization's ACU limit per billing cycle (set and removed one at a
 * time), the org group limits (replaced whole), and every organization (read whole: the limits table and the
 * group picker list them all). Changes go through the console's guarded endpoints, which record each one in
 * the settings history with who made it.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { settingsHistoryKeys } from '@/api/console/settings-history-keys';
import { OrgGroupsConfig, type OrgGroupsBody } from '@/api/operations/org-group-limits';
import { readAllPages } from '@/api/page-walk';
import { apiCall } from '@/lib/api-client';
import { acuLimitKeys, orgGroupLimitKeys } from '@/lib/enterprise-limits';
import { organizationKeys, ORGANIZATIONS_PAGE_SIZE } from '@/lib/organizations';

/** Every organization at once (an enterprise has tens, at most a few thousand). */
export const allOrganizationsQueryOptions = () =>
  queryOptions({
    queryKey: [...organizationKeys.lists(), 'all'] as const,
    queryFn: ({ signal }) =>
      readAllPages(
        (after, s) =>
          apiCall('organizations.list', { query: { first: ORGANIZATIONS_PAGE_SIZE, after }, signal: s ?? signal }),
        { maxPages: 100, signal, what: 'The organizations list' },
      ),
    staleTime: 60_000,
  });

/** Sets (a number) or removes (null) the enterprise's limit, or with `orgId` that organization's. */
export function useSetAcuLimit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ orgId, value }: { orgId: string | null; value: number | null }) =>
      apiCall('console.settings.acuLimits.set', {
        params: { level: orgId ?? 'enterprise' },
        body: { cycle_acu_limit: value },
      }),
    onSuccess: async (_r, { orgId }) => {
      void qc.invalidateQueries({ queryKey: settingsHistoryKeys.all });
      await qc.invalidateQueries({ queryKey: acuLimitKeys.all });
      // An organization's limit is its max_cycle_acu_limit: the organizations show it too.
      if (orgId !== null) void qc.invalidateQueries({ queryKey: organizationKeys.all });
    },
  });
}

export function useReplaceOrgGroups() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: OrgGroupsBody) =>
      OrgGroupsConfig.parse((await apiCall('console.settings.orgGroupLimits.replace', { body })).result),
    onSuccess: (config) => {
      qc.setQueryData(orgGroupLimitKeys.config(), config);
      void qc.invalidateQueries({ queryKey: settingsHistoryKeys.all });
    },
  });
}
