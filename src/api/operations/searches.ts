/**
 * Searches: the enterprise's and one organization's (spec: `GET /v3/enterprise/searches`,
 * `/v3/organizations/{org_id}/searches`, permission and shapes "not shown"; api-facts: "record shape unknown;
 * show what arrives"). The record schema is open: any fields pass; the sandbox sends `search_id`, `org_id`,
 * `user_id`, `query`, `created_at`, `result_count` and `repositories`. Newest first, cursor pages.
 *
 * Permissions (chosen): a search holds what a person asked, as a session holds its prompt, so reading searches
 * takes the permissions that read sessions: `ViewAccountSessions` across the enterprise, `ViewOrgSessions` (spec)
 * in one organization. The counts alone are in the metrics (`ViewAccountMetrics` / `ViewOrgMetrics`).
 */
import { z } from 'zod';
import { OrgId, PageQuery, queryArray } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { MAX_ORG_IDS } from './metrics';
import { OptionalRange, withRangeChecks } from './time-range';

export const Search = z.looseObject({
  search_id: z.string().optional(),
  created_at: z.number().int().nullish(),
});
export type Search = z.infer<typeof Search>;

export const SearchesQuery = withRangeChecks(z.object({ ...PageQuery.shape, ...OptionalRange }));
export type SearchesQuery = z.input<typeof SearchesQuery>;

export const EnterpriseSearchesQuery = withRangeChecks(
  z.object({
    ...PageQuery.shape,
    ...OptionalRange,
    org_ids: queryArray(OrgId, { count: MAX_ORG_IDS, what: 'organization ids per filter' }),
  }),
);
export type EnterpriseSearchesQuery = z.input<typeof EnterpriseSearchesQuery>;

const NOTE =
  'Permission not shown in the spec; chosen as for sessions (a search holds what a person asked). Record shape not shown: any fields pass. Filters time_after/time_before (on created_at, half-open) are sandbox extensions.';

export const searchOperations = defineOperations({
  'searches.list': {
    id: 'searches.list',
    method: 'GET',
    path: '/v3/organizations/{org_id}/searches',
    permission: 'ViewOrgSessions',
    scope: 'organization',
    summary: "The organization's searches, newest first",
    params: z.object({ org_id: OrgId }),
    query: SearchesQuery,
    response: pageOf(Search),
    paginated: true,
    note: NOTE,
  },
  'searches.enterprise.list': {
    id: 'searches.enterprise.list',
    method: 'GET',
    path: '/v3/enterprise/searches',
    permission: 'ViewAccountSessions',
    scope: 'enterprise',
    summary: "The enterprise's searches across organizations, newest first",
    query: EnterpriseSearchesQuery,
    response: pageOf(Search),
    paginated: true,
    note: `${NOTE} org_ids filter: sandbox extension.`,
  },
});
