/**
 * The history of IP access list changes made through the console: each revision with what it added and
 * removed, and restore of the list before or after it. A restore goes through the same checked apply as an
 * edit: it is made on the current list's version (409 if the list changed meanwhile) and refused when it would
 * lock the console out, unless the enterprise's name is typed; when the console cannot tell its own address,
 * the refusal asks for the restored list's range that admits it, sent again as `console-confirmed-range`.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { diffIpRanges, lockedOutAddresses, type IpAccessListRevisionSummary } from '@/api/console/ip-access-list';
import { Badge } from '@/components/badge';
import { DataTable, columnHelper, timeColumn } from '@/components/data-table';
import { MadeByText, madeByText } from '@/components/made-by';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button, buttonClass } from '@/components/ui/button';
import { Field } from '@/components/field';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { apiCall } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import {
  conflictOf,
  egressUnknownOf,
  type EgressUnknownRefusal,
  ipAccessListKeys,
  ipAccessListQueryOptions,
  ipRevisionsInfiniteQueryOptions,
  useIpAccessListChange,
} from './api';
import { DiffTable } from './diff-table';
import { LockedOutOrError } from './ip-access-list-screen';

type Restore = { revision: IpAccessListRevisionSummary; set: 'previous' | 'result' };

/** What reconciliation found for a change left unfinished, when it was reconciliation that closed it. */
const RECONCILED_LABEL: Record<string, string> = {
  applied: 'Applied (reconciled)',
  not_applied: 'Not applied (reconciled)',
  changed_elsewhere: 'Unknown: changed since (reconciled)',
};

const ACTION_LABEL = { replace: 'Edited', clear: 'Cleared', restore: 'Restored' } as const;

/**
 * What a revision did, in words. A restore brings back the list before or after an earlier change; the record
 * keeps only that change's number, so which of its two lists came back is read from the list versions (a
 * version is the list's digest): "Restored the list before #1", not "Restored from #1".
 */
export function changeLabel(
  r: IpAccessListRevisionSummary,
  byId: ReadonlyMap<number, IpAccessListRevisionSummary>,
): string {
  if (r.action !== 'restore' || r.restored_from === null) return ACTION_LABEL[r.action];
  const source = byId.get(r.restored_from);
  const restored = r.result_version;
  if (source && restored !== null) {
    if (restored === source.previous_version) return `Restored the list before #${r.restored_from}`;
    if (restored === source.result_version) return `Restored the list after #${r.restored_from}`;
  }
  return `Restored a list of #${r.restored_from}`;
}

function Ranges({ items, tone, sign }: { items: readonly string[]; tone: 'success' | 'danger'; sign: string }) {
  if (items.length === 0) return <span className="text-muted">—</span>;
  return (
    <ul className="flex flex-wrap gap-1">
      {items.map((r) => (
        <li key={r}>
          <Badge tone={tone} className="font-mono">
            {sign} {r}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

export function IpAccessListHistoryScreen() {
  const revisions = useInfiniteQuery(ipRevisionsInfiniteQueryOptions());
  const current = useQuery(ipAccessListQueryOptions());
  const [restore, setRestore] = useState<Restore | null>(null);
  const byId = useMemo(
    () => new Map((revisions.data?.pages ?? []).flatMap((p) => p.items).map((r) => [r.revision_id, r])),
    [revisions.data],
  );

  const columns = useMemo(() => {
    const col = columnHelper<IpAccessListRevisionSummary>();
    return col.columns([
      col.accessor('revision_id', {
        header: 'Revision',
        meta: { width: '6rem' },
        cell: ({ getValue }) => <span className="font-mono">#{getValue()}</span>,
      }),
      col.accessor('created_at', { header: 'When', ...timeColumn({ sortable: false }) }),
      col.accessor((r) => madeByText(r), {
        id: 'made_by',
        header: 'By',
        meta: { width: 'minmax(8rem,0.8fr)', className: 'text-sm' },
        cell: ({ row }) => <MadeByText revision={row.original} />,
      }),
      col.accessor('action', {
        header: 'Change',
        meta: { width: '11rem' },
        cell: ({ row }) => {
          const r = row.original;
          return (
            <div className="flex flex-col items-start gap-1">
              <span>{changeLabel(r, byId)}</span>
              {typeof r.reconciled_outcome === 'string' ? (
                // A change left unfinished (its replica stopped mid-change), closed by reconciliation with the API.
                <Badge tone={r.reconciled_outcome === 'applied' ? 'success' : 'warn'} title={r.error ?? undefined}>
                  {RECONCILED_LABEL[r.reconciled_outcome] ?? 'Reconciled'}
                </Badge>
              ) : (
                r.status !== 'applied' && (
                  <Badge tone={r.status === 'failed' ? 'danger' : 'warn'} title={r.error ?? undefined}>
                    {r.status === 'failed' ? 'Failed' : 'Applying'}
                  </Badge>
                )
              )}
              {r.locked_out.length > 0 && (
                <Badge tone="warn" title="Applied with the enterprise’s name typed">
                  Locked out {r.locked_out.join(', ')}
                </Badge>
              )}
            </div>
          );
        },
      }),
      col.accessor('added', {
        header: 'Added',
        meta: { width: 'minmax(10rem,1fr)' },
        cell: ({ getValue }) => <Ranges items={getValue()} tone="success" sign="+" />,
      }),
      col.accessor('removed', {
        header: 'Removed',
        meta: { width: 'minmax(10rem,1fr)' },
        cell: ({ getValue }) => <Ranges items={getValue()} tone="danger" sign="−" />,
      }),
      col.display({
        id: 'restore',
        header: 'Restore',
        meta: { width: '11rem' },
        cell: ({ row }) => {
          const r = row.original;
          return (
            <div className="flex flex-wrap gap-1">
              <Button
                size="sm"
                aria-label={`Restore the list before revision ${r.revision_id}`}
                onClick={() => setRestore({ revision: r, set: 'previous' })}
              >
                Before
              </Button>
              {r.status === 'applied' && (
                <Button
                  size="sm"
                  aria-label={`Restore the list after revision ${r.revision_id}`}
                  onClick={() => setRestore({ revision: r, set: 'result' })}
                >
                  After
                </Button>
              )}
            </div>
          );
        },
      }),
    ]);
  }, [byId]);

  return (
    <div className="flex flex-col">
      <PageHeader
        title="IP access list history"
        description="Changes made through this console, newest first, with who made each one and the ranges it added and removed. Restore brings back the list before or after a change."
        actions={
          <Link to="/settings/ip-access-list" className={buttonClass()}>
            <ArrowLeft className="size-4" aria-hidden /> Back to the list
          </Link>
        }
      />
      {current.error ? <LockedOutOrError error={current.error} onRetry={() => void current.refetch()} /> : null}
      <DataTable
        label="IP access list revisions"
        tableId="ip-access-list-revisions"
        columns={columns}
        query={revisions}
        getRowId={(r) => String(r.revision_id)}
        estimateRowHeight={64}
        minWidth="60rem"
        empty={{
          title: 'No changes yet',
          hint: 'Changes applied through the IP access list screen are kept here, with restore.',
        }}
      />
      {restore && (
        <RestoreDialog
          key={`${restore.revision.revision_id}-${restore.set}`}
          restore={restore}
          onClose={() => setRestore(null)}
        />
      )}
    </div>
  );
}

function RestoreDialog({ restore, onClose }: { restore: Restore; onClose: () => void }) {
  const { revision, set } = restore;
  const current = useQuery(ipAccessListQueryOptions());
  const detail = useQuery({
    queryKey: ipAccessListKeys.revision(revision.revision_id),
    queryFn: ({ signal }) =>
      apiCall('console.ipAccessList.revisions.get', { params: { revision_id: String(revision.revision_id) }, signal }),
    staleTime: 60_000,
  });
  const change = useIpAccessListChange();
  const [error, setError] = useState<unknown>(null);
  /** The range typed as admitting the console, asked for after a 422 `egress_unknown` (sent as a header). */
  const [confirmed, setConfirmed] = useState('');
  const [rangeMissing, setRangeMissing] = useState(false);
  const rangeInput = useRef<HTMLInputElement>(null);
  /**
   * The last `egress_unknown` refusal, kept apart from `error` so the field stays while a retry is sent, with
   * the range that restore carried (the server's answer then concerns it); each refusal refocuses the field.
   */
  const [egress, setEgress] = useState<{ refusal: EgressUnknownRefusal; sent: string } | null>(null);
  const target = detail.data ? (set === 'result' ? detail.data.result : detail.data.previous) : undefined;
  const diff = current.data && target ? diffIpRanges(current.data.ip_ranges, target) : null;
  const lockedOut = current.data && target ? lockedOutAddresses(target, current.data.protected_addresses) : [];
  const name = current.data?.enterprise_name ?? null;
  const ready = current.data !== undefined && target !== undefined && target !== null;
  const cannotOverride = lockedOut.length > 0 && name === null;

  // The refusal brings the admin to the field, each time.
  useEffect(() => {
    if (egress) rangeInput.current?.focus();
  }, [egress]);

  const confirm = async () => {
    if (!current.data) return;
    const range = egress ? confirmed.trim() : '';
    setRangeMissing(egress !== null && range === '');
    if (egress && range === '') return rangeInput.current?.focus();
    setError(null);
    try {
      const result = await change.mutateAsync({
        change: {
          action: 'restore',
          revisionId: revision.revision_id,
          set,
          override_enterprise_name: lockedOut.length > 0 && name !== null ? name : undefined,
          confirmed_range: range || undefined,
        },
        base: { version: current.data.version, ip_ranges: current.data.ip_ranges },
      });
      toast({
        title: result.unchanged
          ? 'Nothing to restore: the list is already that one'
          : `Restored the list ${set === 'previous' ? 'before' : 'after'} revision #${revision.revision_id}`,
        description: result.revision ? `Recorded as revision #${result.revision.revision_id}.` : undefined,
        tone: 'success',
      });
      onClose();
    } catch (e) {
      const unknown = egressUnknownOf(e);
      if (unknown) setEgress({ refusal: unknown, sent: range });
      else setError(e);
    }
  };

  const conflict = conflictOf(error);
  return (
    <ConfirmDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Restore the list ${set === 'previous' ? 'before' : 'after'} revision #${revision.revision_id}?`}
      description={
        ready ? (
          <p>
            The list will hold {formatNumber(target.length)} {target.length === 1 ? 'entry' : 'entries'}
            {target.length === 0 && ' (no restriction)'}. Compared with the list now:
          </p>
        ) : detail.error || current.error ? (
          <ProblemView error={detail.error ?? current.error} compact />
        ) : (
          <p>Reading the revision…</p>
        )
      }
      confirmLabel={lockedOut.length > 0 ? 'Restore anyway' : 'Restore'}
      destructive={lockedOut.length > 0}
      typeToConfirm={lockedOut.length > 0 && name !== null ? name : undefined}
      pending={change.isPending || !ready || cannotOverride}
      onConfirm={() => void confirm()}
    >
      {diff && <DiffTable added={diff.added} removed={diff.removed} label="Changes the restore makes" />}
      {lockedOut.length > 0 && (
        <p role="alert" className="mt-3 rounded-md border border-warn/40 bg-warn/10 p-2 text-sm">
          This list does not admit <strong className="font-mono">{lockedOut.join(', ')}</strong>, the console’s own{' '}
          {lockedOut.length === 1 ? 'address' : 'addresses'}: restoring it would lock the console out.
          {cannotOverride &&
            ' The console does not know the enterprise’s name (CONSOLE_ENTERPRISE_NAME), so it cannot do this.'}
        </p>
      )}
      {egress && (
        <div className="mt-3 flex flex-col gap-3 text-sm">
          <p role="alert" className="rounded-md border border-warn/40 bg-warn/10 p-2">
            {egress.refusal.detail}
          </p>
          <Field
            label="Type the range that admits this console"
            required
            hint={
              <>
                The console cannot tell its own address (the one it reaches the API from: CONSOLE_EGRESS_IPS is not
                set). Type, exactly as the restored list has it, the entry that admits that address
                {target && target.length > 0 && (
                  <>
                    : one of <span className="font-mono">{target.slice(0, 8).join(', ')}</span>
                    {target.length > 8 && ` and ${formatNumber(target.length - 8)} more`}
                  </>
                )}
                .
              </>
            }
            error={
              rangeMissing
                ? 'Type the range of this list that admits the console'
                : egress.sent !== ''
                  ? (egress.refusal.message ?? 'Not one of this list’s ranges')
                  : undefined
            }
          >
            <Input
              ref={rangeInput}
              value={confirmed}
              onChange={(e) => setConfirmed(e.target.value)}
              autoComplete="off"
              className="font-mono"
            />
          </Field>
        </div>
      )}
      {error !== null && (
        <div className="mt-3">
          {conflict ? (
            <p role="alert" className="rounded-md border border-warn/40 bg-warn/10 p-2 text-sm">
              {conflict.detail} The comparison above now uses the current list; restore again if it is still wanted.
            </p>
          ) : (
            <ProblemView error={error} compact />
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}
