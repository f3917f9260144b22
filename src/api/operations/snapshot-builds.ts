/**
 * Snapshot builds (v3beta1): the list of an organization's environment snapshot builds. Query names, `status`
 * and `trigger` come from api-facts (the spec shows only their constraints).
 */
import { z } from 'zod';
import { After, First, OrgId, QueryBoolean, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';

import { SNAPSHOT_BUILD_STATUSES } from '../values';

export { SNAPSHOT_BUILD_STATUSES, type SnapshotBuildStatus } from '../values';
/** Statuses of a build that has not finished: the console refreshes while any is shown. */
export const IN_FLIGHT_BUILD_STATUSES: readonly string[] = ['pending', 'running'];

export const BUILD_TRIGGERS = ['manual', 'auto'] as const;

export const SnapshotBuild = z.looseObject({
  build_id: z.string(),
  /** One of SNAPSHOT_BUILD_STATUSES; kept open so an unknown status shows as-is. */
  status: z.string(),
  /** `manual` or `auto`. */
  trigger: z.string().nullish(),
  created_at: UnixSeconds,
  /** Absent or null until the build starts. */
  started_at: UnixSeconds.nullish(),
  /** Absent or null until the build ends. */
  completed_at: UnixSeconds.nullish(),
  updated_at: UnixSeconds,
  pinned: z.boolean(),
  triggered_by_user_id: z.string().nullish(),
});
export type SnapshotBuild = z.infer<typeof SnapshotBuild>;

export const SnapshotBuildsQuery = z.object({
  first: First,
  after: After,
  status: z
    .enum(SNAPSHOT_BUILD_STATUSES, { message: `status must be one of ${SNAPSHOT_BUILD_STATUSES.join(', ')}` })
    .nullish(),
  /** When true: 0 or 1 item, the build whose image new sessions use. */
  active: QueryBoolean.optional(),
});
export type SnapshotBuildsQuery = z.input<typeof SnapshotBuildsQuery>;

export const snapshotBuildOperations = defineOperations({
  'snapshotBuilds.list': {
    id: 'snapshotBuilds.list',
    method: 'GET',
    path: '/v3beta1/organizations/{org_id}/snapshot-setup/builds',
    permission: 'ManageRepoBlueprints',
    scope: 'organization',
    summary: "List the organization's snapshot builds, newest first; `active=true` answers the build new sessions use",
    params: z.object({ org_id: OrgId }),
    query: SnapshotBuildsQuery,
    response: pageOf(SnapshotBuild),
    paginated: true,
  },
});
