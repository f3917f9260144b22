/**
 * Repository indexing of one organization: each repository's indexing state, branches and latest index jobs;
 * select up to 100 (or type paths) and remove them from indexing after a confirmation. The removal is all or
 * nothing: a 404 names the paths not found, and nothing changes.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useMemo, useRef, useState } from 'react';
import { REPOSITORY_PATHS_LIMIT, type RepoIndexJob, type RepositoryIndexing } from '@/api/operations/indexing';
import { Badge, type Tone } from '@/components/badge';
import { Breakable } from '@/components/breakable';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { columnHelper, DataTable } from '@/components/data-table';
import { Field, textareaClass } from '@/components/field';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import {
  listingUnavailable,
  notFoundPaths,
  parsePaths,
  repositoriesInfiniteQueryOptions,
  useRemoveFromIndexing,
} from './api';

const MAX = REPOSITORY_PATHS_LIMIT.max;

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
const columns = col.columns([
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

type Outcome = { kind: 'removed'; paths: string[] } | null;

export function IndexingScreen({ orgId, orgName }: { orgId: string; orgName?: string }) {
  const query = useInfiniteQuery(repositoriesInfiniteQueryOptions(orgId));
  const repos = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const fallback = listingUnavailable(query.error);
  // The table's selection: repository paths, at most one removal's worth.
  const [selection, setSelection] = useState<RowSelectionState>({});
  const selected = Object.keys(selection);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const [pending, setPending] = useState<string[] | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const remove = useRemoveFromIndexing(orgId);
  // The outcome of a removal (done, or refused with what was wrong) is where the admin looks next: when the
  // confirmation closes, focus goes to it (in view), not back to the button that opened the confirmation.
  const resultRef = useRef<HTMLDivElement>(null);
  const focusResult = (e: Event) => {
    if (!resultRef.current || resultRef.current.childElementCount === 0) return;
    e.preventDefault();
    resultRef.current.scrollIntoView?.({ block: 'nearest' });
    resultRef.current.focus({ preventScroll: true });
  };
  const missing = remove.error ? notFoundPaths(remove.error, remove.variables ?? []) : null;

  const selectAllIndexed = () =>
    setSelection(
      Object.fromEntries(
        repos
          .filter((r) => r.indexing_enabled)
          .slice(0, MAX)
          .map((r) => [r.repository_path, true as const]),
      ),
    );

  const ask = (paths: string[]) => {
    remove.reset();
    setOutcome(null);
    setPending(paths);
  };
  const askTyped = () => {
    const paths = parsePaths(typed);
    if (paths.length === 0) return setTypedError('Enter at least one repository path.');
    if (paths.length > MAX)
      return setTypedError(`At most ${MAX} repository paths per removal; this list has ${paths.length}.`);
    setTypedError(null);
    ask(paths);
  };
  const confirm = () => {
    if (!pending) return;
    const paths = pending;
    remove.mutate(paths, {
      onSuccess: (updated) => {
        setOutcome({ kind: 'removed', paths: updated.map((r) => r.repository_path) });
        setSelection({});
        setTyped('');
        setPending(null);
      },
      onError: () => setPending(null),
    });
  };

  return (
    <>
      <PageHeader
        title="Repository indexing"
        description={`Repositories of ${orgName ?? 'this organization'} indexed for search and the wiki. Removing a repository disables its indexing and clears its branches.`}
      />
      <div
        ref={resultRef}
        tabIndex={-1}
        aria-live="polite"
        className="mb-3 flex scroll-mt-20 flex-col gap-2 outline-none"
      >
        {outcome && (
          <div role="status" className="rounded-lg border border-success/40 bg-success/10 p-3 text-sm">
            <p className="font-semibold text-success">
              Removed {outcome.paths.length} {outcome.paths.length === 1 ? 'repository' : 'repositories'} from indexing
            </p>
            <p className="mt-1 font-mono text-xs">
              <Breakable text={outcome.paths.join(', ')} />
            </p>
          </div>
        )}
        {remove.error &&
          (missing ? (
            <div role="alert" className="rounded-lg border border-danger/40 bg-danger/5 p-3 text-sm">
              <p className="font-semibold text-danger">
                {missing.length === 1 ? 'A repository was' : `${missing.length || 'Some'} repositories were`} not found
                — nothing was changed
              </p>
              {missing.length > 0 && (
                <ul className="mt-1 list-disc pl-5 font-mono text-xs" aria-label="Repositories not found">
                  {missing.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              )}
              <p className="mt-1 text-muted">{remove.error.message}</p>
            </div>
          ) : (
            <ProblemView error={remove.error} />
          ))}
      </div>

      {!fallback && (
        <section aria-label="Repositories" className="mb-6">
          <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-muted" aria-live="polite">
              {selected.length} of at most {MAX} selected
              {selected.length >= MAX && ' — the limit of one removal'}
            </p>
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={selectAllIndexed} disabled={repos.length === 0}>
                Select indexed (up to {MAX})
              </Button>
              <Button size="sm" onClick={() => setSelection({})} disabled={selected.length === 0}>
                Clear selection
              </Button>
              <Button size="sm" variant="danger" disabled={selected.length === 0} onClick={() => ask(selected)}>
                Remove from indexing ({selected.length})
              </Button>
            </div>
          </div>
          <DataTable
            label="Repositories"
            tableId="indexing-repositories"
            columns={columns}
            query={query}
            getRowId={(r) => r.repository_path}
            selection={{
              state: selection,
              onChange: setSelection,
              max: MAX,
              rowLabel: (r) => `Select ${r.repository_path}`,
            }}
            minWidth="60rem"
            estimateRowHeight={110}
            empty={{ title: 'This organization has no repositories' }}
            className="h-auto max-h-[calc(100dvh-18rem)] min-h-60"
          />
        </section>
      )}

      <section aria-label="Remove by path" className="max-w-2xl rounded-lg border border-line bg-surface p-4">
        <h2 className="text-base font-semibold">Remove repositories by path</h2>
        {fallback && (
          <p role="note" className="mt-1 text-sm text-muted">
            The API does not list repositories for indexing (the listing is not part of the API specification), so enter
            the paths of the repositories to remove.
          </p>
        )}
        <form
          className="mt-3 flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            askTyped();
          }}
        >
          <Field
            label="Repository paths"
            hint={`One per line (or separated by commas), e.g. acme/payments-api. From 1 to ${MAX} paths.`}
            error={typedError ?? undefined}
          >
            <textarea
              className={`${textareaClass} font-mono`}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder="owner/repository"
            />
          </Field>
          <div>
            <Button type="submit" variant="danger">
              Remove these from indexing
            </Button>
          </div>
        </form>
      </section>

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(o) => {
          if (!o && !remove.isPending) setPending(null);
        }}
        title={`Remove ${pending?.length ?? 0} ${pending?.length === 1 ? 'repository' : 'repositories'} from indexing?`}
        description="Indexing is disabled and every configured branch is cleared for these repositories. If any path is not found, nothing is changed."
        confirmLabel="Remove from indexing"
        destructive
        pending={remove.isPending}
        onConfirm={confirm}
        onCloseAutoFocus={focusResult}
      >
        <ul
          className="mt-3 max-h-48 overflow-auto rounded-md border border-line p-2 font-mono text-xs"
          aria-label="Repositories to remove"
        >
          {pending?.map((p) => (
            <li key={p}>
              <Breakable text={p} />
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </>
  );
}
