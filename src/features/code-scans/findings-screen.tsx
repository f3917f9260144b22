/**
 * Code-scan findings across the enterprise: the data table with severity, status, repository and organization
 * filters in the URL; Remediate on a selection (one call each; each launched remediation links to its session, a
 * 409 shows as "already being remediated" with the existing session); live status of remediation sessions.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { Wrench } from 'lucide-react';
import { useMemo, useState } from 'react';
import { CODE_SCAN_LIMITS, type CodeScanFinding } from '@/api/operations/code-scans';
import { DataTable } from '@/components/data-table';
import { useOrganizationNames } from '@/components/organization-names';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { findingsInfiniteQueryOptions, scansQueryOptions, useLiveRemediations, type LiveSession } from './api';
import { findingColumns } from './finding-columns';
import { FindingsFilters } from './findings-filters';
import { RemediationResults, useRemediation } from './parts';
import { remediationRunning } from './remediate';
import { hasFilters, toFilters, type FindingsSearch } from './search';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The findings of the filters, the remediation sessions to follow live, and every repository to filter by. */
function useFindings(search: FindingsSearch, started: readonly string[]) {
  const filters = useMemo(() => toFilters(search), [search]);
  const query = useInfiniteQuery(findingsInfiniteQueryOptions(filters));
  const scans = useQuery(scansQueryOptions());
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const sessions = useMemo(
    () => [
      ...rows
        .filter((f) => f.remediation_session_id)
        .map((f) => ({ id: f.remediation_session_id!, status: f.remediation_session_status })),
      ...started.map((id) => ({ id, status: null })),
    ],
    [rows, started],
  );
  const live = useLiveRemediations(sessions);
  const repositories = useMemo(() => {
    const set = new Set<string>();
    for (const s of scans.data ?? []) set.add(s.repository);
    for (const f of rows) set.add(f.repository);
    if (search.repository) set.add(search.repository);
    return [...set].sort();
  }, [scans.data, rows, search.repository]);
  return { query, rows, live, repositories };
}

/** The selected findings, and why Remediate cannot run on them (none when it can). */
function useRemediationSelection(
  rows: CodeScanFinding[],
  live: ReadonlyMap<string, LiveSession>,
  remediationRunningNow: boolean,
) {
  const [selection, setSelection] = useState<RowSelectionState>({});
  const selected = useMemo(() => rows.filter((f) => selection[f.finding_id]), [rows, selection]);
  const canRemediate = useHasPermission('UseAccountCodeScans');
  // Findings whose remediation session still works: launching again would only answer "already remediated".
  const running = selected.filter(
    (f) =>
      f.remediation_session_id &&
      remediationRunning(
        f.remediation_session_id,
        live.get(f.remediation_session_id)?.status ?? f.remediation_session_status,
      ),
  ).length;
  const allRunning = selected.length > 0 && running === selected.length;
  const why =
    canRemediate === false
      ? missingPermissionTitle('UseAccountCodeScans', canRemediate)
      : remediationRunningNow
        ? undefined
        : selected.length === 0
          ? 'Select the findings to remediate in the list.'
          : allRunning
            ? `${selected.length === 1 ? 'The selected finding is' : 'Every selected finding is'} being remediated already: remediate again once ${selected.length === 1 ? 'its session ends' : 'their sessions end'}.`
            : undefined;
  const disabled = selected.length === 0 || remediationRunningNow || allRunning || canRemediate === false;
  return { selection, setSelection, selected, why, disabled };
}

/** Remediate with the count selected, and below it why it cannot run. */
function RemediateAction({
  count,
  running,
  disabled,
  why,
  onClick,
}: {
  count: number;
  running: boolean;
  disabled: boolean;
  why: string | undefined;
  onClick: () => void;
}) {
  return (
    <span className="flex flex-col items-end gap-1">
      <Button
        variant="primary"
        disabled={disabled}
        aria-describedby={why ? 'remediate-why' : undefined}
        onClick={onClick}
      >
        <Wrench className="size-4" aria-hidden />
        {running ? 'Remediating…' : count === 0 ? 'Remediate' : `Remediate ${plural(count, 'finding')}`}
      </Button>
      {why && (
        <span id="remediate-why" className="max-w-xs text-right text-xs text-muted">
          {why}
        </span>
      )}
    </span>
  );
}

/** Whether remediation sessions in view are followed live. */
function LiveNote({ liveCount, paused }: { liveCount: number; paused: boolean }) {
  return (
    <p className="mb-2 text-xs text-muted" data-testid="live-remediations">
      {liveCount === 0
        ? 'No remediation session in view is still running.'
        : paused
          ? `Live updates paused while the tab is hidden (${liveCount} running).`
          : `Live: ${plural(liveCount, 'remediation session')} running, checked every 5 s.`}
    </p>
  );
}

export function FindingsScreen({
  search,
  onSearchChange,
}: {
  search: FindingsSearch;
  onSearchChange: (patch: Partial<FindingsSearch>) => void;
}) {
  const remediation = useRemediation();
  const started = useMemo(
    () => remediation.outcomes.flatMap((o) => (o.kind === 'started' ? [o.sessionId] : [])),
    [remediation.outcomes],
  );
  const { query, rows, live, repositories } = useFindings(search, started);
  const orgs = useOrganizationNames();
  const columns = useMemo(() => findingColumns(orgs.names, live.seen), [orgs.names, live.seen]);
  const { selection, setSelection, selected, why, disabled } = useRemediationSelection(
    rows,
    live.seen,
    remediation.running,
  );
  const [confirm, setConfirm] = useState(false);

  return (
    <>
      <PageHeader
        title="Code-scan findings"
        description="Security findings of the enterprise's code scans, most severe first. Remediate launches an agent session that fixes the code and opens a pull request."
        actions={
          <RemediateAction
            count={selected.length}
            running={remediation.running}
            disabled={disabled}
            why={why}
            onClick={() => setConfirm(true)}
          />
        }
      />
      <FindingsFilters
        search={search}
        onSearchChange={onSearchChange}
        repositories={repositories}
        organizations={orgs.organizations}
        orgNames={orgs.names}
      />
      <LiveNote liveCount={live.liveCount} paused={live.paused} />
      <RemediationResults outcomes={remediation.outcomes} live={live.seen} onDismiss={remediation.clear} />
      <DataTable
        label="Code-scan findings"
        tableId="code-scan-findings"
        columns={columns}
        query={query}
        getRowId={(f) => f.finding_id}
        selection={{
          state: selection,
          onChange: setSelection,
          max: CODE_SCAN_LIMITS.remediateSelection,
          rowLabel: (f) => `Select ${f.finding_id}: ${f.title}`,
        }}
        estimateRowHeight={56}
        minWidth="72rem"
        empty={{
          title: hasFilters(search) ? 'No finding matches these filters' : 'No findings',
          hint: hasFilters(search) ? 'Change or clear the filters.' : 'Findings appear here when code scans complete.',
        }}
        className="h-[calc(100dvh-19rem)] min-h-96"
      />
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title={`Remediate ${plural(selected.length, 'finding')}?`}
        description={
          <>
            Each finding gets its own agent session, attributed to the console&apos;s credential, that analyzes the
            code, implements a fix and opens a pull request. Findings that already have a remediation session keep it.
          </>
        }
        confirmLabel={`Launch ${plural(selected.length, 'remediation')}`}
        pending={remediation.running}
        onConfirm={() => {
          const list = selected;
          setConfirm(false);
          void remediation.run(list).then(() => setSelection({}));
        }}
      />
    </>
  );
}
