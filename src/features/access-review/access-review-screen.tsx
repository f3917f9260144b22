/**
 * Stale access: members and service users with no compute units in the last N days, or whose credential expires
 * within M days. Select rows, then change their enterprise role or remove them: the confirmation lists exactly
 * who, the change is applied to exactly them, one by one, and each row's outcome is reported (a partial failure
 * names who failed and why). Fields the API does not send read "Not published".
 */
import { useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useId, useMemo, useState } from 'react';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable } from '@/components/data-table';
import { FilterSelect } from '@/components/filter-select';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import {
  accessReviewQueryOptions,
  enterpriseRolesQueryOptions,
  useBulkAccessChange,
  type BulkAction,
  type BulkOutcome,
} from './api';
import { needsReview, type ReviewRow } from './review';
import { EXPIRING_DAYS, UNUSED_DAYS, type AccessReviewFilters } from './search';

const dayFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

function Expiry({ row, now }: { row: ReviewRow; now: number }) {
  if (row.expires_at === undefined) return <span className="text-muted">Not published</span>;
  if (row.expires_at === null) return <span className="text-muted">Never</span>;
  const expired = row.expires_at <= now;
  return (
    <span className={expired ? 'text-danger' : row.expiring ? 'text-warn' : undefined}>
      {expired ? 'Expired ' : ''}
      {formatDateTime(row.expires_at)}
    </span>
  );
}

function reasons(row: ReviewRow, days: number): string[] {
  const out: string[] = [];
  if (row.unused) out.push(`No compute units in ${days} days`);
  if (row.expiring) out.push('Credential expires soon');
  if (row.usage_error) out.push('Usage could not be read');
  return out;
}

const col = columnHelper<ReviewRow>();
function columnsFor(days: number, now: number) {
  return col.columns([
    col.accessor('name', {
      header: 'Name',
      enableHiding: false,
      enableSorting: true,
      meta: { width: 'minmax(12rem,2fr)', card: 'title' },
      cell: ({ row }) => (
        <div className="min-w-0">
          <div className="truncate font-medium">{row.original.name}</div>
          {row.original.secondary && (
            <div className="truncate font-mono text-xs text-muted">{row.original.secondary}</div>
          )}
        </div>
      ),
    }),
    col.accessor('kind', {
      header: 'Kind',
      enableSorting: true,
      meta: { width: '7.5rem', card: 'aside' },
      cell: ({ getValue }) => (
        <Badge tone={getValue() === 'member' ? 'info' : 'neutral'}>
          {getValue() === 'member' ? 'Member' : 'Service user'}
        </Badge>
      ),
    }),
    col.accessor((r) => r.roles.join(', '), {
      id: 'roles',
      header: 'Roles',
      meta: { width: 'minmax(10rem,1.5fr)', className: 'truncate' },
      cell: ({ getValue }) => getValue() || <span className="text-muted">None</span>,
    }),
    col.accessor((r) => r.last_used ?? 0, {
      id: 'last_used',
      header: 'Last used',
      enableSorting: true,
      meta: { width: '9rem' },
      cell: ({ row }) =>
        row.original.usage_error ? (
          <span className="text-danger" title={row.original.usage_error}>
            Not read
          </span>
        ) : row.original.last_used === null ? (
          <span className="text-muted">Not in {days} days</span>
        ) : (
          dayFormat.format(row.original.last_used * 1000)
        ),
    }),
    col.accessor((r) => (typeof r.expires_at === 'number' ? r.expires_at : Number.MAX_SAFE_INTEGER), {
      id: 'expires_at',
      header: 'Credential expires',
      enableSorting: true,
      meta: { width: '10rem' },
      cell: ({ row }) => <Expiry row={row.original} now={now} />,
    }),
    col.accessor((r) => reasons(r, days).join('; '), {
      id: 'why',
      header: 'Why listed',
      meta: { width: 'minmax(10rem,1.3fr)' },
    }),
  ]);
}

function Outcomes({ outcomes }: { outcomes: BulkOutcome[] }) {
  const failed = outcomes.filter((o) => !o.ok);
  return (
    <section
      aria-label="Outcome of the last change"
      role="status"
      className={`mb-3 rounded-md border p-3 text-sm ${failed.length ? 'border-danger/40 bg-danger/5' : 'border-line bg-surface'}`}
      data-testid="access-review-outcome"
    >
      <p className="font-medium">
        {failed.length === 0
          ? `Done for all ${outcomes.length}.`
          : `${outcomes.length - failed.length} of ${outcomes.length} done; ${failed.length} failed:`}
      </p>
      <ul className="mt-1 list-disc pl-5">
        {outcomes.map((o) => (
          <li key={o.key} className={o.ok ? undefined : 'text-danger'}>
            {o.name}: {o.message}
          </li>
        ))}
      </ul>
    </section>
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
  const roleSelectId = useId();
  const columns = useMemo(() => columnsFor(days, now), [days, now]);

  // Only rows on screen count as selected: a change never reaches someone the admin can no longer see.
  const shownSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries(rows.filter((r) => selection[r.key]).map((r) => [r.key, true] as const)),
    [rows, selection],
  );
  const selected = rows.filter((r) => selection[r.key]);
  const role = roles.data?.find((r) => r.role_id === roleId);
  const noSelection = selected.length === 0 ? 'Select at least one row first.' : undefined;
  const roleReason = noSelection ?? (role ? undefined : 'Pick the role to give first.');

  const confirm = () => {
    if (!pending) return;
    const who = selected;
    bulk.mutate(
      { rows: who, action: pending },
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
      <div className="mb-3 flex flex-wrap items-end gap-4">
        <FilterSelect
          className="w-52"
          label="Unused for"
          value={String(days)}
          options={UNUSED_DAYS.map((d) => ({ value: String(d), label: `${d} days or more` }))}
          onValueChange={(v) => onFiltersChange({ ...filters, days: Number(v) as AccessReviewFilters['days'] })}
        />
        <FilterSelect
          className="w-52"
          label="Or expiring within"
          value={String(expiring)}
          options={EXPIRING_DAYS.map((d) => ({ value: String(d), label: `${d} days` }))}
          onValueChange={(v) => onFiltersChange({ ...filters, expiring: Number(v) as AccessReviewFilters['expiring'] })}
        />
        <p role="status" className="flex min-h-9 items-center text-sm text-muted" data-testid="access-review-count">
          {q.isSuccess
            ? `${rows.length} of ${q.data.length} to review; ${selected.length} selected`
            : q.isFetching
              ? 'Reading each member’s and service user’s usage…'
              : ''}
        </p>
      </div>
      {outcomes && <Outcomes outcomes={outcomes} />}
      <div className="mb-3 flex flex-wrap items-end gap-3 rounded-md border border-line bg-surface p-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={roleSelectId} className="text-sm font-medium">
            Enterprise role
          </label>
          <Select
            id={roleSelectId}
            className="w-56"
            value={roleId}
            onValueChange={setRoleId}
            placeholder={roles.error ? 'Roles could not be read' : 'Pick a role'}
            options={(roles.data ?? [])
              .slice()
              .sort((a, b) => a.role_name.localeCompare(b.role_name))
              .map((r) => ({ value: r.role_id, label: r.role_name }))}
          />
        </div>
        <Button
          disabled={!!roleReason || bulk.isPending}
          aria-describedby="access-review-action-reason"
          onClick={() => role && setPending({ kind: 'role', roleId: role.role_id, roleName: role.role_name })}
        >
          Change role of {selected.length} selected
        </Button>
        <Button
          variant="danger"
          disabled={!!noSelection || bulk.isPending}
          aria-describedby="access-review-action-reason"
          onClick={() => setPending({ kind: 'remove' })}
        >
          Remove {selected.length} selected
        </Button>
        <p id="access-review-action-reason" className="text-sm text-muted">
          {roleReason ?? (noSelection ? noSelection : '')}
        </p>
      </div>
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
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(o) => !o && !bulk.isPending && setPending(null)}
        title={
          pending?.kind === 'remove'
            ? `Remove ${selected.length} ${selected.length === 1 ? 'person' : 'people'}?`
            : `Give ${selected.length} the role ${pending?.kind === 'role' ? pending.roleName : ''}?`
        }
        description={
          pending?.kind === 'remove'
            ? 'Members lose access to the enterprise; a service user’s credential answers 401 from then on. Exactly these:'
            : 'Their enterprise role becomes this one. Exactly these:'
        }
        confirmLabel={pending?.kind === 'remove' ? `Remove ${selected.length}` : `Change ${selected.length}`}
        destructive={pending?.kind === 'remove'}
        pending={bulk.isPending}
        onConfirm={confirm}
      >
        <ul
          className="mt-3 max-h-60 list-disc overflow-auto pl-5 text-sm"
          data-testid="access-review-confirm-list"
          tabIndex={0}
        >
          {selected.map((r) => (
            <li key={r.key}>
              {r.name}
              {r.secondary ? ` (${r.secondary})` : ''} · {r.kind === 'member' ? 'member' : 'service user'}
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </>
  );
}
