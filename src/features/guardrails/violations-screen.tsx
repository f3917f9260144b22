/**
 * Guardrail violations, enterprise-wide or of one organization: filters in the URL (guardrail, action, session,
 * time range, order), the violations on the data table (confidence as a bar, the triggering message expandable,
 * a link to the session), a chart of violations per billing day by guardrail with a table as its text
 * alternative, and a CSV export of the filtered list.
 */
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Download, RefreshCw } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { downloadText } from '@/lib/download';
import { formatNumber } from '@/lib/format';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { ENTERPRISE, everyViolation, guardrailKeys, violationsInfiniteQueryOptions, type ViolationScope } from './api';
import { exportFileName, violationsCsv } from './export';
import { hasFilters, resolveBounds, toFilters, type ViolationSearch } from './search';
import { violationColumns } from './violation-columns';
import { ViolationFilterBar } from './violation-filters';
import { ChartSection } from './violations-per-day';

export function ViolationsScreen({
  scope,
  orgName,
  search,
  onSearchChange,
}: {
  scope: ViolationScope;
  /** The organization's name, on its page. */
  orgName?: string;
  search: ViolationSearch;
  onSearchChange: (patch: Partial<ViolationSearch>) => void;
}) {
  const filters = useMemo(() => toFilters(search), [search]);
  const query = useInfiniteQuery(violationsInfiniteQueryOptions(scope, filters));
  const queryClient = useQueryClient();
  const orgs = useInfiniteQuery({ ...organizationsInfiniteQueryOptions(), enabled: scope === ENTERPRISE });
  const orgNames = useMemo(
    () => new Map(orgs.data?.pages.flatMap((p) => p.items).map((o) => [o.org_id, o.name]) ?? []),
    [orgs.data],
  );
  const columns = useMemo(() => violationColumns(scope, orgNames), [scope, orgNames]);
  const sorting = useMemo(() => [{ id: 'created_at', desc: search.order === 'desc' }], [search.order]);
  const [exporting, setExporting] = useState<{ state: 'idle' | 'running' | 'done' | 'error'; text?: string }>({
    state: 'idle',
  });

  const runExport = async () => {
    setExporting({ state: 'running' });
    try {
      const bounds = query.data?.pages[0]?.bounds ?? resolveBounds(filters, Date.now());
      const items = await everyViolation(scope, filters, bounds);
      downloadText(exportFileName(scope, Date.now()), violationsCsv(items));
      setExporting({
        state: 'done',
        text: `Exported ${formatNumber(items.length)} ${items.length === 1 ? 'violation' : 'violations'}.`,
      });
    } catch (err) {
      setExporting({ state: 'error', text: `Export failed: ${errorMessage(err)}` });
    }
  };

  const title = orgName ? `Guardrail violations · ${orgName}` : 'Guardrail violations';
  return (
    <>
      <PageHeader
        title={title}
        description={
          scope === ENTERPRISE
            ? 'Which guardrails fired, on which sessions, and what the platform did, across the enterprise.'
            : 'Which guardrails fired in this organization, on which sessions, and what the platform did.'
        }
        actions={
          <>
            <Button
              size="sm"
              onClick={() => void queryClient.resetQueries({ queryKey: guardrailKeys.violations() })}
              disabled={query.isFetching}
            >
              <RefreshCw className={cn('size-3.5', query.isFetching && 'animate-spin')} aria-hidden />
              Refresh
            </Button>
            <Button size="sm" onClick={() => void runExport()} disabled={exporting.state === 'running'}>
              <Download className="size-3.5" aria-hidden />
              {exporting.state === 'running' ? 'Exporting…' : 'Export CSV'}
            </Button>
          </>
        }
      />
      {exporting.text ? (
        <p
          role="status"
          className={cn('mb-2 text-sm', exporting.state === 'error' ? 'text-danger' : 'text-muted')}
          data-testid="export-status"
        >
          {exporting.text}
        </p>
      ) : null}
      <ViolationFilterBar search={search} onSearchChange={onSearchChange} loaded={query.data?.pages} />
      <ChartSection scope={scope} search={search} onSearchChange={onSearchChange} />
      <DataTable
        label="Guardrail violations"
        tableId={scope === ENTERPRISE ? 'guardrail-violations' : 'guardrail-violations-org'}
        columns={columns}
        query={query}
        getRowId={(v) => v.violation_id}
        manualSorting
        sorting={sorting}
        onSortingChange={(next) => onSearchChange({ order: next[0]?.desc === false ? 'asc' : 'desc' })}
        estimateRowHeight={52}
        minWidth={scope === ENTERPRISE ? '72rem' : '64rem'}
        empty={{
          title: hasFilters(search) ? 'No violation matches these filters' : 'No guardrail violations',
          hint: hasFilters(search)
            ? 'Widen the time range or clear a filter.'
            : 'Violations appear here as guardrails fire.',
        }}
        className="h-[calc(100dvh-20rem)] min-h-96"
      />
    </>
  );
}
