/**
 * Repository indexing in the sandbox: each organization's repositories with their indexing state, branches
 * and index-job history; the listing extension and the all-or-nothing bulk removal.
 */
import type { RepoIndexJob, RepositoryIndexing } from '../../../api/operations/indexing';
import type { SandboxModule } from '../../context';
import { paginate } from '../../cursor';
import type { Db } from '../../../node/db';
import { HttpProblem } from '../../../node/problem-writer';
import { seedRepositoryPathsForOrg } from './seed-data';

interface RepoRow extends Record<string, unknown> {
  org_id: string;
  repository_path: string;
  indexing_enabled: number;
  branches: string;
}

interface JobRow {
  job_id: string;
  kind: 'search' | 'wiki';
  status: string;
  commit_sha: string;
  branch_name: string | null;
  created_at: number;
}

/** How many of the newest jobs `latest_indexes` holds. */
const LATEST_JOBS = 5;

const toJob = (j: JobRow): RepoIndexJob => ({
  job_id: j.job_id,
  status: j.status,
  commit: j.commit_sha,
  branch_name: j.branch_name,
  created_at: j.created_at,
});

function toRepository(db: Db, r: RepoRow): RepositoryIndexing {
  const jobs = db
    .prepare(
      `SELECT job_id, kind, status, commit_sha, branch_name, created_at FROM repo_index_jobs
       WHERE org_id = ? AND repository_path = ? ORDER BY created_at DESC, job_id DESC`,
    )
    .all(r.org_id, r.repository_path) as JobRow[];
  const enabled = r.indexing_enabled === 1;
  const latestCompleted = (kind: JobRow['kind']) => {
    const j = jobs.find((x) => x.kind === kind && x.status === 'completed');
    return j ? toJob(j) : null;
  };
  return {
    repository_path: r.repository_path,
    indexing_enabled: enabled,
    branches: JSON.parse(r.branches) as string[],
    // A repository that was never indexed has no status yet.
    indexing_status:
      jobs.length === 0 && !enabled
        ? null
        : {
            indexing_enabled: enabled,
            latest_indexes: jobs.slice(0, LATEST_JOBS).map(toJob),
            latest_completed_search_index_job: latestCompleted('search'),
            latest_completed_wiki_index_job: latestCompleted('wiki'),
          },
  };
}

const BRANCH_SETS = [
  ['main'],
  ['main'],
  ['main', 'develop'],
  ['main', 'release/2026.11'],
  ['master'],
  ['trunk', 'staging'],
];

export const indexingModule: SandboxModule = {
  name: 'indexing',
  migrations: [
    {
      id: 'indexing-001-create',
      sql: `CREATE TABLE indexed_repositories (
        org_id TEXT NOT NULL,
        repository_path TEXT NOT NULL,
        indexing_enabled INTEGER NOT NULL,
        branches TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (org_id, repository_path)
      );
      CREATE TABLE repo_index_jobs (
        job_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL,
        repository_path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('search', 'wiki')),
        status TEXT NOT NULL,
        commit_sha TEXT NOT NULL,
        branch_name TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX repo_index_jobs_repo ON repo_index_jobs (org_id, repository_path, created_at);`,
    },
  ],
  seed({ db, rng, now, orgIds }) {
    const insertRepo = db.prepare(
      'INSERT INTO indexed_repositories (org_id, repository_path, indexing_enabled, branches) VALUES (?, ?, ?, ?)',
    );
    const insertJob = db.prepare(
      `INSERT INTO repo_index_jobs (job_id, org_id, repository_path, kind, status, commit_sha, branch_name, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const t = now();
    orgIds().forEach((orgId, orgIndex) => {
      seedRepositoryPathsForOrg(orgIndex).forEach((path, i) => {
        // Most repositories are indexed; some were indexed once and turned off, a few never were.
        const kind = i % 9 === 8 ? 'never' : i % 7 === 6 ? 'disabled' : 'enabled';
        const branches = kind === 'enabled' ? rng.pick(BRANCH_SETS) : [];
        insertRepo.run(orgId, path, kind === 'enabled' ? 1 : 0, JSON.stringify(branches));
        if (kind === 'never') return;
        const jobBranches = kind === 'enabled' ? branches : ['main'];
        const count = rng.int(3, 12);
        let at = t - rng.int(20, 120) * 86_400;
        for (let j = 0; j < count; j++) {
          at += rng.int(1, 10) * 86_400 + rng.int(0, 80_000);
          const last = j === count - 1;
          // The newest job of some enabled repositories is still running; failures are rare.
          const status =
            last && kind === 'enabled' && rng.chance(0.25) ? 'in_progress' : rng.chance(0.12) ? 'failed' : 'completed';
          const createdAt = status === 'in_progress' ? t - rng.int(60, 1_800) : Math.min(at, t - 3_600);
          for (const jobKind of j % 3 === 2 ? (['search', 'wiki'] as const) : (['search'] as const)) {
            insertJob.run(
              `job-${rng.hex(12)}`,
              orgId,
              path,
              jobKind,
              status,
              rng.hex(40),
              rng.chance(0.1) ? null : rng.pick(jobBranches),
              createdAt + (jobKind === 'wiki' ? 120 : 0),
            );
          }
        }
      });
    });
  },
  handlers: {
    'indexing.list': ({ params, query }, { db }) =>
      paginate<RepoRow, RepositoryIndexing>(db, {
        scope: `indexing:${params.org_id}`,
        select: 'SELECT * FROM indexed_repositories',
        where: [['org_id = ?', params.org_id]],
        order: [{ col: 'repository_path', dir: 'asc' }],
        first: query.first,
        after: query.after,
        map: (r) => toRepository(db, r),
      }),
    'indexing.remove': ({ params, body, principal }, ctx) => {
      const { db } = ctx;
      const paths = [...new Set(body.repository_paths)];
      const find = db.prepare('SELECT * FROM indexed_repositories WHERE org_id = ? AND repository_path = ?');
      return db.transaction(() => {
        const rows = paths.map((p) => [p, find.get(params.org_id, p) as RepoRow | undefined] as const);
        const missing = rows.filter(([, r]) => !r).map(([p]) => p);
        if (missing.length > 0) {
          // All or nothing: one unknown path and no repository changes.
          throw new HttpProblem(
            404,
            `${missing.length === 1 ? 'This repository was' : `These ${missing.length} repositories were`} not found in organization ${params.org_id}: ${missing.join(', ')}. Nothing was changed.`,
            { not_found_repository_paths: missing },
          );
        }
        const update = db.prepare(
          `UPDATE indexed_repositories SET indexing_enabled = 0, branches = '[]' WHERE org_id = ? AND repository_path = ?`,
        );
        for (const p of paths) update.run(params.org_id, p);
        ctx.audit({
          action: 'remove_repository_indexing',
          org_id: params.org_id,
          principal,
          data: { repository_paths: paths },
        });
        return paths.map((p) => toRepository(db, find.get(params.org_id, p) as RepoRow));
      })();
    },
  },
};
