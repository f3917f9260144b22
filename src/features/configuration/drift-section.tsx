/**
 * The Configuration screen's drift: live state compared with the last applied revision when the admin asks
 * (it reads live state whole), the changes applying that revision again would make, and recording live state
 * as a new revision.
 */
import { useQuery } from '@tanstack/react-query';
import { DataTable } from '@/components/data-table';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { driftQueryOptions, fetchRevision, useExportRevision } from './api';
import { changeColumns } from './configuration-columns';

export function DriftSection({ onLoad }: { onLoad: (get: () => Promise<{ document: string }>) => void }) {
  const drift = useQuery({ ...driftQueryOptions(), enabled: false });
  const exportRevision = useExportRevision();
  const revision = drift.data?.revision ?? null;
  return (
    <section aria-labelledby="drift-heading" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="drift-heading" className="text-lg font-semibold">
          Drift
        </h2>
        <Button variant="secondary" onClick={() => void drift.refetch()} disabled={drift.isFetching}>
          {drift.isFetching ? 'Checking…' : 'Check for drift'}
        </Button>
        <Button variant="secondary" onClick={() => exportRevision.mutate()} disabled={exportRevision.isPending}>
          Export live state as a new revision
        </Button>
      </div>
      {drift.error ? <ProblemView error={drift.error} onRetry={() => void drift.refetch()} /> : null}
      {drift.data ? (
        revision === null ? (
          <p className="text-sm">Nothing was applied through the console yet: there is no revision to compare with.</p>
        ) : drift.data.changes.length === 0 ? (
          <p className="text-sm">Live state matches revision {revision.revision_id}.</p>
        ) : (
          <>
            <p className="text-sm">
              {drift.data.changes.length} resources drifted from revision {revision.revision_id}: applying it again
              would make these changes.
            </p>
            <DataTable
              label="Drift"
              tableId="configuration-drift"
              columns={changeColumns}
              data={drift.data.changes}
              getRowId={(c) => c.id}
              empty={{ title: 'No drift' }}
            />
            <div>
              <Button variant="secondary" onClick={() => onLoad(() => fetchRevision(revision.revision_id))}>
                Load revision {revision.revision_id} to apply it again
              </Button>
            </div>
          </>
        )
      ) : null}
    </section>
  );
}
