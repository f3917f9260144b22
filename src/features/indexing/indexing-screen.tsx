/**
 * Repository indexing of one organization: each repository's indexing state, branches and latest index jobs;
 * select up to 100 (or type paths) and remove them from indexing after a confirmation. The removal is all or
 * nothing: a 404 names the paths not found, and nothing changes.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useMemo, useRef, useState } from 'react';
import type { RepositoryIndexing } from '@/api/operations/indexing';
import { Button } from '@/components/ui/button';
import { DataTable, type InfiniteRowsQuery } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { listingUnavailable, repositoriesInfiniteQueryOptions } from './api';
import { MAX_PATHS, RemovalConfirm, RemovalResult, RemoveByPath, useRemoval } from './removal';
import { repositoryColumns } from './repository-columns';

export function IndexingScreen({ orgId, orgName }: { orgId: string; orgName?: string }) {
  const query = useInfiniteQuery(repositoriesInfiniteQueryOptions(orgId));
  const fallback = listingUnavailable(query.error);
  // The table's selection: repository paths, at most one removal's worth.
  const [selection, setSelection] = useState<RowSelectionState>({});
  const removal = useRemoval(orgId, () => setSelection({}));
  // The outcome of a removal (done, or refused with what was wrong) is where the admin looks next: when the
  // confirmation closes, focus goes to it (in view), not back to the button that opened the confirmation.
  const resultRef = useRef<HTMLDivElement>(null);
  const focusResult = (e: Event) => {
    if (!resultRef.current || resultRef.current.childElementCount === 0) return;
    e.preventDefault();
    resultRef.current.scrollIntoView?.({ block: 'nearest' });
    resultRef.current.focus({ preventScroll: true });
  };

  return (
    <>
      <PageHeader
        title="Repository indexing"
        description={`Repositories of ${orgName ?? 'this organization'} indexed for search and the wiki. Removing a repository disables its indexing and clears its branches.`}
      />
      <RemovalResult ref={resultRef} removal={removal} />
      {!fallback && (
        <Repositories query={query} selection={selection} onSelectionChange={setSelection} onRemove={removal.ask} />
      )}
      <RemoveByPath removal={removal} fallback={fallback} />
      <RemovalConfirm removal={removal} onCloseAutoFocus={focusResult} />
    </>
  );
}

/** The organization's repositories, with a selection of up to one removal's worth. */
function Repositories({
  query,
  selection,
  onSelectionChange,
  onRemove,
}: {
  query: InfiniteRowsQuery<RepositoryIndexing>;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  onRemove: (paths: string[]) => void;
}) {
  const repos = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const selected = Object.keys(selection);
  const selectAllIndexed = () =>
    onSelectionChange(
      Object.fromEntries(
        repos
          .filter((r) => r.indexing_enabled)
          .slice(0, MAX_PATHS)
          .map((r) => [r.repository_path, true as const]),
      ),
    );
  return (
    <section aria-label="Repositories" className="mb-6">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted" aria-live="polite">
          {selected.length} of at most {MAX_PATHS} selected
          {selected.length >= MAX_PATHS && ' — the limit of one removal'}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={selectAllIndexed} disabled={repos.length === 0}>
            Select indexed (up to {MAX_PATHS})
          </Button>
          <Button size="sm" onClick={() => onSelectionChange({})} disabled={selected.length === 0}>
            Clear selection
          </Button>
          <Button size="sm" variant="danger" disabled={selected.length === 0} onClick={() => onRemove(selected)}>
            Remove from indexing ({selected.length})
          </Button>
        </div>
      </div>
      <DataTable
        label="Repositories"
        tableId="indexing-repositories"
        columns={repositoryColumns}
        query={query}
        getRowId={(r) => r.repository_path}
        selection={{
          state: selection,
          onChange: onSelectionChange,
          max: MAX_PATHS,
          rowLabel: (r) => `Select ${r.repository_path}`,
        }}
        minWidth="60rem"
        estimateRowHeight={110}
        empty={{ title: 'This organization has no repositories' }}
        className="h-auto max-h-[calc(100dvh-18rem)] min-h-60"
      />
    </section>
  );
}
