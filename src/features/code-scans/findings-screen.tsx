/**
 * Code-scan findings across the enterprise: the data table with severity, status, repository and organization
 * filters in the URL; Remediate on a selection (one call each; each launched remediation links to its session, a
 * 409 shows as "already being remediated" with the existing session); live status of remediation sessions.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { RowSelectionState } from '@tanstack/react-table';
import { Wrench } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import {
  CODE_SCAN_LIMITS,
  FINDING_SEVERITIES,
  FINDING_STATUSES,
  type CodeScanFinding,
} from '@/api/operations/code-scans';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { FilterBar } from '@/components/filter-bar';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FilterSelect } from '@/components/filter-select';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { findingsInfiniteQueryOptions, scansQueryOptions, useLiveRemediations, type LiveSession } from './api';
import { FindingStatusBadge, RemediationResults, RemediationStatus, SeverityBadge, useRemediation } from './parts';
import { remediationRunning } from './remediate';
import { hasFilters, joinList, splitList, toFilters, type FindingsSearch } from './search';

const col = columnHelper<CodeScanFinding>();

function findingColumns(orgNames: ReadonlyMap<string, string>, live: ReadonlyMap<string, LiveSession>) {
  return col.columns([
    col.accessor('severity', {
      header: 'Severity',
      meta: { width: '6.5rem' },
      cell: ({ getValue }) => <SeverityBadge severity={getValue()} />,
    }),
    col.accessor('title', {
      header: 'Finding',
      enableHiding: false,
      meta: { width: 'minmax(14rem,3fr)' },
      cell: ({ row: { original: f } }) => (
        <span className="flex min-w-0 flex-col">
          <Link
            to="/code-scans/$findingId"
            params={{ findingId: f.finding_id }}
            className="truncate font-medium text-accent underline underline-offset-2 hover:no-underline"
            title={f.title}
            data-row-link
          >
            {f.title}
          </Link>
          <span className="truncate font-mono text-xs text-muted">
            {f.category} · {f.finding_id}
          </span>
        </span>
      ),
    }),
    col.accessor('repository', {
      header: 'Repository',
      meta: { width: 'minmax(9rem,1.2fr)', className: 'truncate font-mono text-xs' },
    }),
    col.accessor((f) => orgNames.get(f.org_id) ?? f.org_id, {
      id: 'organization',
      header: 'Organization',
      meta: { width: 'minmax(8rem,1fr)', className: 'truncate text-xs' },
    }),
    col.accessor('status', {
      header: 'Status',
      meta: { width: '6.5rem' },
      cell: ({ getValue }) => <FindingStatusBadge status={getValue()} />,
    }),
    col.display({
      id: 'remediation',
      header: 'Remediation',
      meta: { width: 'minmax(14rem,2fr)' },
      cell: ({ row: { original: f } }) => (
        <RemediationStatus
          finding={f}
          live={f.remediation_session_id ? live.get(f.remediation_session_id) : undefined}
        />
      ),
    }),
    col.accessor('created_at', { header: 'Found', ...timeColumn() }),
  ]);
}

function ToggleGroup({
  label,
  values,
  selected,
  onChange,
}: {
  label: string;
  values: readonly string[];
  selected: string[];
  onChange: (next: string[]) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <span id={id} className="text-sm font-medium">
        {label}
      </span>
      <div role="group" aria-labelledby={id} className="flex flex-wrap gap-1">
        {values.map((v) => {
          const on = selected.includes(v);
          return (
            <Button
              key={v}
              size="sm"
              variant={on ? 'primary' : 'secondary'}
              aria-pressed={on}
              onClick={() => onChange(on ? selected.filter((x) => x !== v) : [...selected, v])}
            >
              {v}
            </Button>
          );
        })}
      </div>
    </div>
  );
}

export function FindingsScreen({
  search,
  onSearchChange,
}: {
  search: FindingsSearch;
  onSearchChange: (patch: Partial<FindingsSearch>) => void;
}) {
  const filters = useMemo(() => toFilters(search), [search]);
  const query = useInfiniteQuery(findingsInfiniteQueryOptions(filters));
  const scans = useQuery(scansQueryOptions());
  const orgs = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const orgList = useMemo(() => orgs.data?.pages.flatMap((p) => p.items) ?? [], [orgs.data]);
  const orgNames = useMemo(() => new Map(orgList.map((o) => [o.org_id, o.name])), [orgList]);
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const remediation = useRemediation();
  const sessions = useMemo(
    () => [
      ...rows
        .filter((f) => f.remediation_session_id)
        .map((f) => ({ id: f.remediation_session_id!, status: f.remediation_session_status })),
      ...remediation.outcomes.flatMap((o) => (o.kind === 'started' ? [{ id: o.sessionId, status: null }] : [])),
    ],
    [rows, remediation.outcomes],
  );
  const live = useLiveRemediations(sessions);
  const columns = useMemo(() => findingColumns(orgNames, live.seen), [orgNames, live.seen]);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const selected = useMemo(() => rows.filter((f) => selection[f.finding_id]), [rows, selection]);
  const [confirm, setConfirm] = useState(false);
  const canRemediate = useHasPermission('UseAccountCodeScans');
  // Findings whose remediation session still works: launching again would only answer "already remediated".
  const running = selected.filter(
    (f) =>
      f.remediation_session_id &&
      remediationRunning(
        f.remediation_session_id,
        live.seen.get(f.remediation_session_id)?.status ?? f.remediation_session_status,
      ),
  ).length;
  const allRunning = selected.length > 0 && running === selected.length;
  const why =
    canRemediate === false
      ? missingPermissionTitle('UseAccountCodeScans', canRemediate)
      : remediation.running
        ? undefined
        : selected.length === 0
          ? 'Select the findings to remediate in the list.'
          : allRunning
            ? `${selected.length === 1 ? 'The selected finding is' : 'Every selected finding is'} being remediated already: remediate again once ${selected.length === 1 ? 'its session ends' : 'their sessions end'}.`
            : undefined;

  const repositories = useMemo(() => {
    const set = new Set<string>();
    for (const s of scans.data ?? []) set.add(s.repository);
    for (const f of rows) set.add(f.repository);
    if (search.repository) set.add(search.repository);
    return [...set].sort();
  }, [scans.data, rows, search.repository]);
  const orgFilter = splitList(search.org)[0] ?? '';
  const active = [search.severity, search.status, search.repository, search.org].filter(Boolean).length;

  return (
    <>
      <PageHeader
        title="Code-scan findings"
        description="Security findings of the enterprise's code scans, most severe first. Remediate launches an agent session that fixes the code and opens a pull request."
        actions={
          <span className="flex flex-col items-end gap-1">
            <Button
              variant="primary"
              disabled={selected.length === 0 || remediation.running || allRunning || canRemediate === false}
              aria-describedby={why ? 'remediate-why' : undefined}
              onClick={() => setConfirm(true)}
            >
              <Wrench className="size-4" aria-hidden />
              {remediation.running
                ? 'Remediating…'
                : selected.length === 0
                  ? 'Remediate'
                  : `Remediate ${selected.length} finding${selected.length === 1 ? '' : 's'}`}
            </Button>
            {why && (
              <span id="remediate-why" className="max-w-xs text-right text-xs text-muted">
                {why}
              </span>
            )}
          </span>
        }
      />
      <FilterBar active={active} showLabel="Show findings">
        {(narrow) => (
          <section
            aria-label="Filters"
            className={
              narrow
                ? 'flex flex-col gap-3'
                : 'mb-3 flex flex-wrap items-end gap-3 rounded-lg border border-line bg-surface p-3'
            }
          >
            <ToggleGroup
              label="Severity"
              values={FINDING_SEVERITIES}
              selected={splitList(search.severity)}
              onChange={(v) => onSearchChange({ severity: joinList(v) })}
            />
            <ToggleGroup
              label="Status"
              values={FINDING_STATUSES}
              selected={splitList(search.status)}
              onChange={(v) => onSearchChange({ status: joinList(v) })}
            />
            <FilterSelect
              className="w-full sm:w-60"
              label="Repository"
              value={search.repository ?? ''}
              options={[{ value: '', label: 'All repositories' }, ...repositories.map((r) => ({ value: r, label: r }))]}
              onValueChange={(v) => onSearchChange({ repository: v || undefined })}
            />
            <FilterSelect
              className="w-full sm:w-52"
              label="Organization"
              value={orgFilter}
              options={[
                { value: '', label: 'All organizations' },
                ...orgList.map((o) => ({ value: o.org_id, label: o.name })),
                ...(orgFilter && !orgNames.has(orgFilter) ? [{ value: orgFilter, label: orgFilter }] : []),
              ]}
              onValueChange={(v) => onSearchChange({ org: v || undefined })}
            />
            {hasFilters(search) && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  onSearchChange({ severity: undefined, status: undefined, repository: undefined, org: undefined })
                }
              >
                Clear filters
              </Button>
            )}
          </section>
        )}
      </FilterBar>
      <p className="mb-2 text-xs text-muted" data-testid="live-remediations">
        {live.liveCount === 0
          ? 'No remediation session in view is still running.'
          : live.paused
            ? `Live updates paused while the tab is hidden (${live.liveCount} running).`
            : `Live: ${live.liveCount} remediation session${live.liveCount === 1 ? '' : 's'} running, checked every 5 s.`}
      </p>
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
        title={`Remediate ${selected.length} finding${selected.length === 1 ? '' : 's'}?`}
        description={
          <>
            Each finding gets its own agent session, attributed to the console&apos;s credential, that analyzes the
            code, implements a fix and opens a pull request. Findings that already have a remediation session keep it.
          </>
        }
        confirmLabel={`Launch ${selected.length} remediation${selected.length === 1 ? '' : 's'}`}
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
