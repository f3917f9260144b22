/**
 * Stale access: members and service users with no compute units in the last N days, or whose credential expires
 * within M days. Select rows, then change their enterprise role or remove them: the confirmation lists exactly
 * who, the change is applied to exactly them, one by one, and each row's outcome is reported (a partial failure
 * names who failed and why). Fields the API does not send read "Not published". The columns are in columns.tsx,
 * the bulk change (its bar, confirmation and outcome) in bulk-actions.tsx.
 */
import { useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { DataTable } from '@/components/data-table';
import { FilterSelect } from '@/components/filter-select';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Skeleton } from '@/components/ui/skeleton';
import { useNow } from '@/lib/use-now';
import {
  accessReviewQueryOptions,
  enterpriseRolesQueryOptions,
  useBulkAccessChange,
  type BulkAction,
  type BulkOutcome,
} from './api';
import { BulkActionBar, BulkConfirm, Outcomes } from './bulk-actions';
import { columnsFor } from './columns';
import { needsReview } from './review';
import { EXPIRING_DAYS, UNUSED_DAYS, type AccessReviewFilters } from './search';

/** The two filters (in the URL) and the count of rows to review and selected. */
function ReviewFilters({
  filters,
  onFiltersChange,
  status,
}: {
  filters: AccessReviewFilters;
  onFiltersChange: (next: AccessReviewFilters) => void;
  status: string;
}) {
  return (
    <div className="mb-3 flex flex-wrap items-end gap-4">
      <FilterSelect
        className="w-52"
        label="Unused for"
        value={String(filters.days)}
        options={UNUSED_DAYS.map((d) => ({ value: String(d), label: `${d} days or more` }))}
        onValueChange={(v) => onFiltersChange({ ...filters, days: Number(v) as AccessReviewFilters['days'] })}
      />
      <FilterSelect
        className="w-52"
        label="Or expiring within"
        value={String(filters.expiring)}
        options={EXPIRING_DAYS.map((d) => ({ value: String(d), label: `${d} days` }))}
        onValueChange={(v) => onFiltersChange({ ...filters, expiring: Number(v) as AccessReviewFilters['expiring'] })}
      />
      <p role="status" className="flex min-h-9 items-center text-sm text-muted" data-testid="access-review-count">
        {status}
      </p>
    </div>
  );
}

export function AccessReviewScreen({
  filters,
  onFiltersChange,
}: {
  filters: AccessReviewFilters;
  onFiltersChange: (next: AccessReviewFilters) => void;
}) {
  const { days, expiring } = filters;
  const now = Math.floor(useNow(60 * 60_000) / 1000);
  const q = useQuery(accessReviewQueryOptions(days, expiring, now));
  const roles = useQuery(enterpriseRolesQueryOptions());
  const bulk = useBulkAccessChange();
  const rows = useMemo(() => (q.data ?? []).filter(needsReview), [q.data]);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [roleId, setRoleId] = useState('');
  const [pending, setPending] = useState<BulkAction | null>(null);
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null);
  const columns = useMemo(() => columnsFor(days, now), [days, now]);

  // Only rows on screen count as selected: a change never reaches someone the admin can no longer see.
  const shownSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries(rows.filter((r) => selection[r.key]).map((r) => [r.key, true] as const)),
    [rows, selection],
  );
  const selected = rows.filter((r) => selection[r.key]);

  const confirm = () => {
    if (!pending) return;
    bulk.mutate(
      { rows: selected, action: pending },
      {
        onSuccess: (out) => {
          setOutcomes(out);
          setSelection({});
          setPending(null);
        },
      },
    );
  };

  return (
    <>
      <PageHeader
        title="Stale access"
        description="Members and service users that have not been used lately, or whose credential expires soon: change their role or remove them in one go."
      />
      <p className="mb-3 text-xs text-muted">
        “Last used” is the last billing day with compute units from their sessions, as the API’s daily consumption gives
        it; the API publishes no sign-in time. A member record carries no credential expiry: it reads “Not published”.
      </p>
      <ReviewFilters
        filters={filters}
        onFiltersChange={onFiltersChange}
        status={
          q.isSuccess
            ? `${rows.length} of ${q.data.length} to review; ${selected.length} selected`
            : q.isFetching
              ? 'Reading each member’s and service user’s usage…'
              : ''
        }
      />
      {outcomes && <Outcomes outcomes={outcomes} />}
      <BulkActionBar
        roles={roles.data}
        rolesFailed={!!roles.error}
        roleId={roleId}
        onRoleChange={setRoleId}
        selected={selected.length}
        busy={bulk.isPending}
        onAction={setPending}
      />
      {q.error ? (
        <ProblemView error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <div role="status" aria-label="Loading stale access">
          <Skeleton className="h-64 w-full" />
        </div>
      ) : (
        <DataTable
          label="Stale access"
          tableId="access-review"
          columns={columns}
          data={rows}
          getRowId={(r) => r.key}
          selection={{ state: shownSelection, onChange: setSelection, rowLabel: (r) => `Select ${r.name}` }}
          empty={{
            title: 'Nobody to review',
            hint: 'Everyone was used in this window and no credential expires soon.',
          }}
          estimateRowHeight={52}
          minWidth="60rem"
          className="h-auto max-h-[calc(100dvh-24rem)] min-h-48"
        />
      )}
      <BulkConfirm
        pending={pending}
        selected={selected}
        busy={bulk.isPending}
        onCancel={() => setPending(null)}
        onConfirm={confirm}
      />
    </>
  );
}
