/**
 * The enterprise's ACU limit and every organization's in one table, each editable in place: Edit opens a
 * number box in the cell (a whole number, 0 or more, checked against the contract before sending), Enter or
 * Save sends it, Escape or Cancel leaves it, and an empty box removes the limit. Beside each limit, the ACUs
 * consumed in the current cycle (`useCycleConsumption`, "—" while unknown or not readable). The limits list is
 * read whole, so a scope absent from it has no limit; an organization's session limit is "No limit" only when
 * the answer says null, and "Not published" when it leaves the field out.
 */
import { useQuery } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { AcuLimitBody } from '@/api/operations/acu-limits';
import { ORGANIZATION_LIMITS } from '@/api/operations/organizations';
import { columnHelper, DataTable } from '@/components/data-table';
import { Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { isApiError } from '@/lib/api-error';
import { acuLimitsQueryOptions } from '@/lib/enterprise-limits';
import { formatNumber } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { allOrganizationsQueryOptions, useSetAcuLimit } from './api';
import { useCycleConsumption } from './consumption';

export interface LimitRow {
  /** `enterprise`, or the organization's id. */
  id: string;
  orgId: string | null;
  name: string;
  cycleLimit: number | null;
  /** undefined: the organization's answer does not carry it. */
  sessionLimit: number | null | undefined;
  consumed: number | undefined;
}

const col = columnHelper<LimitRow>();

/** The value of the box: a number to set, null to remove, or the reason it cannot be sent. */
export function readLimit(text: string): { value: number | null } | { error: string } {
  const t = text.trim();
  if (t === '') return { value: null };
  if (!/^-?\d+(\.\d*)?$|^-?\.\d+$/.test(t)) return { error: 'ACU limit per cycle must be a whole number of ACUs' };
  const parsed = AcuLimitBody.safeParse({ cycle_acu_limit: Number(t) });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Not a valid limit' };
  return { value: parsed.data.cycle_acu_limit };
}

function LimitCell({ row, canEdit, reason }: { row: LimitRow; canEdit: boolean; reason: string | undefined }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const set = useSetAcuLimit();
  const errorId = useId();
  const what = row.orgId === null ? 'the enterprise' : row.name;

  const start = () => {
    setText(row.cycleLimit === null ? '' : String(row.cycleLimit));
    setError(undefined);
    set.reset();
    setEditing(true);
  };
  const save = () => {
    const read = readLimit(text);
    if ('error' in read) return setError(read.error);
    if (read.value === row.cycleLimit) return setEditing(false);
    setError(undefined);
    set.mutate(
      { orgId: row.orgId, value: read.value },
      {
        onSuccess: () => {
          setEditing(false);
          toast({
            title:
              read.value === null
                ? `ACU limit of ${what} removed`
                : `ACU limit of ${what} set to ${formatNumber(read.value)}`,
            tone: 'success',
          });
        },
        onError: (e) => {
          if (isApiError(e) && e.status === 422) setError(e.fieldErrors[0]?.msg ?? e.problem.detail ?? undefined);
        },
      },
    );
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setEditing(false);
    }
  };

  if (!editing) {
    return (
      <div className="flex items-center justify-between gap-2">
        <span className="tabular-nums" data-testid="acu-limit">
          {row.cycleLimit === null ? <span className="text-muted">No limit</span> : formatNumber(row.cycleLimit)}
        </span>
        <Button
          size="sm"
          variant="ghost"
          disabled={!canEdit}
          title={reason}
          aria-label={`Edit the ACU limit of ${what}`}
          onClick={start}
        >
          <Pencil className="size-3.5" aria-hidden /> Edit
        </Button>
      </div>
    );
  }
  const shownError = error ?? (set.error && !(isApiError(set.error) && set.error.status === 422) ? null : undefined);
  return (
    <div className="flex w-full flex-col gap-1 py-1">
      <div className="flex items-center gap-1.5">
        <Input
          autoFocus
          type="number"
          inputMode="numeric"
          min={0}
          max={ORGANIZATION_LIMITS.acuLimit}
          step={1}
          placeholder="No limit"
          aria-label={`ACU limit per cycle of ${what}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          className="h-8 w-32"
        />
        <Button size="sm" variant="primary" disabled={set.isPending} onClick={save}>
          {set.isPending ? 'Saving…' : 'Save'}
        </Button>
        <Button size="sm" variant="ghost" disabled={set.isPending} onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
      {shownError ? (
        <p id={errorId} role="alert" className="text-xs font-medium text-danger">
          {shownError}
        </p>
      ) : (
        <p className="text-xs text-muted">
          Whole ACUs, 0–{formatNumber(ORGANIZATION_LIMITS.acuLimit)}; empty removes the limit.
        </p>
      )}
      {set.error && !(isApiError(set.error) && set.error.status === 422) && <ProblemView compact error={set.error} />}
    </div>
  );
}

export function AcuLimitsTable() {
  const canEdit = useHasPermission('ManageBilling');
  const reason = missingPermissionTitle('ManageBilling', canEdit);
  const limits = useQuery(acuLimitsQueryOptions());
  const orgs = useQuery(allOrganizationsQueryOptions());
  const consumption = useCycleConsumption();

  const rows = useMemo<LimitRow[] | undefined>(() => {
    if (!limits.data || !orgs.data) return undefined;
    const orgLimit = new Map(limits.data.filter((l) => l.scope === 'org').map((l) => [l.org_id, l.cycle_acu_limit]));
    const enterprise = limits.data.find((l) => l.scope === 'enterprise');
    return [
      {
        id: 'enterprise',
        orgId: null,
        name: 'Enterprise (all organizations)',
        cycleLimit: enterprise?.cycle_acu_limit ?? null,
        sessionLimit: null,
        consumed: consumption.enterprise,
      },
      ...orgs.data
        .map((o) => ({
          id: o.org_id,
          orgId: o.org_id,
          name: o.name,
          cycleLimit: orgLimit.get(o.org_id) ?? null,
          sessionLimit: o.max_session_acu_limit,
          consumed: consumption.byOrg?.get(o.org_id),
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ];
  }, [limits.data, orgs.data, consumption]);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: 'Scope',
          enableHiding: false,
          meta: { width: 'minmax(12rem,1.5fr)', className: 'truncate font-medium' },
          cell: ({ row: { original: r } }) =>
            r.orgId === null ? <span className="font-semibold">{r.name}</span> : r.name,
        }),
        col.display({
          id: 'cycle_acu_limit',
          header: 'ACU limit per cycle',
          enableHiding: false,
          meta: { width: 'minmax(17rem,1.3fr)', label: 'ACU limit per cycle' },
          cell: ({ row: { original: r } }) => <LimitCell row={r} canEdit={canEdit !== false} reason={reason} />,
        }),
        // From useCycleConsumption: the current billing cycle, per organization and enterprise-wide.
        col.display({
          id: 'cycle_consumption',
          header: 'Consumed this cycle',
          meta: { width: '10rem', align: 'end', className: 'tabular-nums', label: 'Consumed this cycle' },
          cell: ({ row: { original: r } }) => (r.consumed === undefined ? '—' : formatNumber(r.consumed)),
        }),
        col.display({
          id: 'session_limit',
          header: 'ACU limit per session',
          meta: { width: '10rem', align: 'end', className: 'tabular-nums', label: 'ACU limit per session' },
          cell: ({ row: { original: r } }) =>
            r.orgId === null ? (
              ''
            ) : r.sessionLimit === undefined ? (
              <span
                className="text-xs text-muted italic"
                title="This API does not publish the organization's session limit"
              >
                Not published
              </span>
            ) : r.sessionLimit === null ? (
              'No limit'
            ) : (
              formatNumber(r.sessionLimit)
            ),
        }),
      ]),
    [canEdit, reason],
  );

  const error = limits.error ?? orgs.error;
  if (error && !rows) {
    return <ProblemView error={error} onRetry={() => void Promise.all([limits.refetch(), orgs.refetch()])} />;
  }
  if (!rows) return <Spinner label="Loading the limits…" />;
  return (
    <DataTable
      label="ACU limits"
      tableId="acu-limits"
      columns={columns}
      data={rows}
      getRowId={(r) => r.id}
      minWidth="46rem"
      estimateRowHeight={52}
      className="max-h-[32rem]"
      empty={{ title: 'No organizations' }}
    />
  );
}
