/**
 * The indexing screen's columns: a repository, whether it is indexed, its branches, and its latest index jobs
 * (with when the search and wiki indexes last completed).
 */
import type { RepoIndexJob, RepositoryIndexing } from '@/api/operations/indexing';
import { Badge, type Tone } from '@/components/badge';
import { Breakable } from '@/components/breakable';
import { columnHelper } from '@/components/data-table';
import { RelativeTime } from '@/components/relative-time';

const JOB_TONES: Record<string, Tone> = { completed: 'success', failed: 'danger', in_progress: 'info' };
const JOB_LABELS: Record<string, string> = { completed: 'Completed', failed: 'Failed', in_progress: 'In progress' };

function JobLine({ job, label }: { job: RepoIndexJob; label?: string }) {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs">
      {label && <span className="text-muted">{label}</span>}
      <Badge tone={JOB_TONES[job.status] ?? 'neutral'}>{JOB_LABELS[job.status] ?? job.status}</Badge>
      <code className="font-mono" title={job.commit}>
        {job.commit.slice(0, 7)}
      </code>
      <span className="text-muted">{job.branch_name ?? 'no branch'}</span>
      <RelativeTime value={job.created_at} className="text-muted" />
    </span>
  );
}

const col = columnHelper<RepositoryIndexing>();
export const repositoryColumns = col.columns([
  col.accessor('repository_path', {
    header: 'Repository',
    enableSorting: true,
    enableHiding: false,
    cell: (c) => <Breakable text={c.getValue()} />,
    meta: { width: 'minmax(12rem,1.2fr)', className: 'font-mono text-sm' },
  }),
  col.accessor('indexing_enabled', {
    header: 'Indexing',
    enableSorting: true,
    meta: { width: '7.5rem' },
    cell: ({ getValue }) =>
      getValue() ? <Badge tone="success">Indexing on</Badge> : <Badge tone="neutral">Not indexed</Badge>,
  }),
  col.accessor('branches', {
    header: 'Branches',
    meta: { width: 'minmax(8rem,0.8fr)', className: 'flex flex-wrap gap-1' },
    cell: ({ getValue }) =>
      getValue().length ? (
        getValue().map((b) => (
          <Badge key={b} className="font-mono">
            {b}
          </Badge>
        ))
      ) : (
        <span className="text-xs text-muted">No branches</span>
      ),
  }),
  col.display({
    id: 'latest_jobs',
    header: 'Latest jobs',
    meta: { width: 'minmax(22rem,2fr)', className: 'flex flex-col gap-1' },
    cell: ({ row }) => <LatestJobs repo={row.original} />,
  }),
]);

function LatestJobs({ repo }: { repo: RepositoryIndexing }) {
  const status = repo.indexing_status;
  const latest = status?.latest_indexes.slice(0, 3) ?? [];
  return (
    <>
      {latest.length ? (
        latest.map((j) => <JobLine key={j.job_id} job={j} />)
      ) : (
        <span className="text-xs text-muted">Never indexed</span>
      )}
      {status && (
        <span className="text-xs text-muted">
          Last search index:{' '}
          {status.latest_completed_search_index_job ? (
            <RelativeTime value={status.latest_completed_search_index_job.created_at} />
          ) : (
            'none'
          )}
          {' · '}Last wiki index:{' '}
          {status.latest_completed_wiki_index_job ? (
            <RelativeTime value={status.latest_completed_wiki_index_job.created_at} />
          ) : (
            'none'
          )}
        </span>
      )}
    </>
  );
}
