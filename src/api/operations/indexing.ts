/**
 * Repository indexing (v3beta1): the bulk removal the spec defines, and the listing the console needs to show
 * repositories, which the spec does not show (an extension answered by the sandbox; the console falls back to
 * entering repository paths when the upstream lacks it).
 */
import { z } from 'zod';
import { OrgId, PageQuery, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';

export const INDEX_JOB_STATUSES = ['failed', 'completed', 'in_progress'] as const;
export type IndexJobStatus = (typeof INDEX_JOB_STATUSES)[number];

/** `repository_paths` of a bulk removal: 1 to 100 items (spec: Limits). */
export const REPOSITORY_PATHS_LIMIT = { min: 1, max: 100 } as const;

export const RepoIndexJob = z.looseObject({
  job_id: z.string(),
  /** One of INDEX_JOB_STATUSES; kept open so a new status shows as-is rather than failing the screen. */
  status: z.string(),
  commit: z.string(),
  branch_name: z.string().nullable(),
  created_at: UnixSeconds,
});
export type RepoIndexJob = z.infer<typeof RepoIndexJob>;

export const RepoIndexingStatus = z.looseObject({
  indexing_enabled: z.boolean(),
  latest_indexes: z.array(RepoIndexJob),
  latest_completed_search_index_job: RepoIndexJob.nullable(),
  latest_completed_wiki_index_job: RepoIndexJob.nullable(),
});
export type RepoIndexingStatus = z.infer<typeof RepoIndexingStatus>;

export const RepositoryIndexing = z.looseObject({
  repository_path: z.string(),
  indexing_enabled: z.boolean(),
  branches: z.array(z.string()),
  indexing_status: RepoIndexingStatus.nullish(),
});
export type RepositoryIndexing = z.infer<typeof RepositoryIndexing>;

export const BulkRemoveIndexingBody = z.strictObject({
  repository_paths: z
    .array(
      z.string({ message: 'each repository path must be a string' }).min(1, 'a repository path must not be empty'),
      {
        message: 'repository_paths is required: a list of repository paths',
      },
    )
    .min(REPOSITORY_PATHS_LIMIT.min, 'repository_paths needs at least 1 repository path')
    .max(REPOSITORY_PATHS_LIMIT.max, {
      error: (issue) =>
        `At most ${REPOSITORY_PATHS_LIMIT.max} repository paths per removal; this list has ${Array.isArray(issue.input) ? issue.input.length : 'more'}`,
    }),
});
export type BulkRemoveIndexingBody = z.input<typeof BulkRemoveIndexingBody>;

const OrgParams = z.object({ org_id: OrgId });
const PATH = '/v3beta1/organizations/{org_id}/repositories/indexing';

export const indexingOperations = defineOperations({
  'indexing.list': {
    id: 'indexing.list',
    method: 'GET',
    path: PATH,
    permission: 'IndexOrgRepositories',
    scope: 'organization',
    summary: "The organization's repositories and their indexing state, as a cursor page",
    params: OrgParams,
    query: PageQuery,
    response: pageOf(RepositoryIndexing),
    paginated: true,
    extension: true,
    note: 'Not in the spec or the vendor reference: answered by the sandbox so the console can show repositories. When the upstream answers 404 or 405, the indexing screen falls back to entering repository paths.',
  },
  'indexing.remove': {
    id: 'indexing.remove',
    method: 'DELETE',
    path: PATH,
    permission: 'IndexOrgRepositories',
    scope: 'organization',
    summary: 'Disable indexing and clear the branches of 1–100 repositories; 404 and no change if any is unknown',
    params: OrgParams,
    body: BulkRemoveIndexingBody,
    response: z.array(RepositoryIndexing),
  },
});
