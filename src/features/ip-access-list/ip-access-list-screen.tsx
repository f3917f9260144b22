/**
 * The IP access list editor (enterprise settings). The admin edits the list as rows (checked and normalized as
 * they type), reviews what is added and removed, and applies it through the console's checked endpoint:
 * a list changed meanwhile answers 409 and the screen shows what changed; a list that no longer admits the
 * console's own addresses is refused unless the enterprise's name is typed; clearing the list asks for the
 * name too. When the console cannot tell its own address (a 422 `egress_unknown`), the admin types the list's
 * range that admits it, and the apply is sent again with it. The history (with restore) is one link away.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { History, Plus, ShieldAlert } from 'lucide-react';
import { useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  ConsoleIpApplyRequest,
  diffIpRanges,
  lockedOutAddresses,
  type ConsoleIpAccessList,
  type IpAccessListConflict,
} from '@/api/console/ip-access-list';
import { ipListAllows } from '@/api/ip-ranges';
import { IP_ACCESS_LIST_LIMITS } from '@/api/operations/ip-access-list';
import { DataTable, columnHelper } from '@/components/data-table';
import { Form, SubmitButton, TextField } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Badge } from '@/components/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/toast';
import { isApiError } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import {
  conflictOf,
  egressUnknownOf,
  ipAccessListQueryOptions,
  lockoutOf,
  useIpAccessListChange,
  type EgressUnknownRefusal,
  type IpChangeBase,
} from './api';
import { AddRangesDialog, type AddedRanges } from './add-ranges';
import { editorReducer, startEditor } from './editor-state';
import { RangeRows } from './range-rows';
import { checkRows, listOf, unreadableEntries } from './ranges';

const DESCRIPTION =
  'Addresses and CIDR ranges allowed to call the Agent Platform API for this enterprise. An empty list accepts every address.';

export function IpAccessListScreen() {
  const query = useQuery(ipAccessListQueryOptions());
  return (
    <div className="mx-auto flex max-w-4xl flex-col">
      <PageHeader
        title="IP access list"
        description={DESCRIPTION}
        actions={
          <Link to="/settings/ip-access-list/history" className={buttonClass()}>
            <History className="size-4" aria-hidden /> History
          </Link>
        }
      />
      {query.data ? (
        <Editor current={query.data} />
      ) : query.error ? (
        <LockedOutOrError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <div className="flex flex-col gap-2" aria-busy="true" aria-label="Loading the IP access list">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
      )}
    </div>
  );
}

/** A 401 whose reason is the IP access list itself: the console is locked out, and this is how to recover. */
export function LockedOutOrError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const lockedOut =
    isApiError(error) && error.status === 401 && (error.problem as { reason?: unknown }).reason === 'ip_not_allowed';
  if (!lockedOut) return <ProblemView error={error} onRetry={onRetry} />;
  return (
    <div role="alert" className="rounded-lg border border-danger/40 bg-danger/5 p-4 text-sm">
      <p className="font-semibold text-danger">The IP access list locks the console out</p>
      <p className="mt-1">{isApiError(error) ? error.message : ''}</p>
      <p className="mt-2">
        The API refuses every request from the address the console uses. With the embedded sandbox, stop the console and
        run <code className="font-mono">npm start -- --reset-ip-access-list</code> (or{' '}
        <code className="font-mono">npm run sandbox -- --reset-ip-access-list</code>) with the same DATA_DIR: it clears
        the list. Against the real API, change the list from an address it admits, or ask support.
      </p>
      <Button className="mt-3" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

type Step = { kind: 'edit' } | { kind: 'review' } | { kind: 'conflict'; conflict: IpAccessListConflict };

function Editor({ current }: { current: ConsoleIpAccessList }) {
  // The list the edit started from: its version goes with the apply (a different current list answers 409).
  const [base, setBase] = useState<IpChangeBase>(() => ({ version: current.version, ip_ranges: current.ip_ranges }));
  const [state, dispatch] = useReducer(editorReducer, current.ip_ranges, startEditor);
  const [step, setStep] = useState<Step>({ kind: 'edit' });
  const [clearing, setClearing] = useState(false);
  const [adding, setAdding] = useState(false);
  /** What the last "Add ranges" added: shown above the list until the next edit. */
  const [lastAdded, setLastAdded] = useState<AddedRanges | null>(null);
  const footerReasonId = useId();
  const change = useIpAccessListChange();
  const texts = useMemo(() => state.rows.map((r) => r.text), [state.rows]);
  // Entries the API holds that the console cannot read: kept as they are, not counted as errors or removals.
  const unreadable = useMemo(() => unreadableEntries(base.ip_ranges), [base.ip_ranges]);
  const checks = useMemo(() => checkRows(texts, unreadable), [texts, unreadable]);
  const list = useMemo(() => listOf(texts, checks), [texts, checks]);
  const diff = useMemo(() => diffIpRanges(base.ip_ranges, list), [base.ip_ranges, list]);
  const invalid = checks.filter((c) => c.state === 'invalid').length;
  const kept = checks.filter((c) => c.state === 'kept' && c.duplicateOf === undefined).length;
  const repeated = checks.filter((c) => c.duplicateOf !== undefined).length;
  const contained = checks.filter((c) => c.containedIn !== undefined).length;
  const lockedOut = lockedOutAddresses(list, current.protected_addresses);
  const rewritten = list.length === base.ip_ranges.length && list.some((e, i) => e !== base.ip_ranges[i]);
  const changed = diff.added.length + diff.removed.length > 0 || rewritten || list.length !== base.ip_ranges.length;
  const tooMany = list.length > IP_ACCESS_LIST_LIMITS.entries;
  const protectedBy = useMemo(() => {
    const m = new Map<number, string[]>();
    texts.forEach((t, i) => {
      if (checks[i]?.state !== 'ok') return;
      const admits = current.protected_addresses.filter((a) => ipListAllows([t.trim()], a));
      if (admits.length > 0) m.set(i, admits);
    });
    return m;
  }, [texts, checks, current.protected_addresses]);
  const reviewButton = useRef<HTMLButtonElement>(null);
  const summary = useRef<HTMLParagraphElement>(null);
  /**
   * Where focus goes when the edit step comes back: the button that opened the review (Back to editing), or the
   * list's summary after an apply or a start-over (the buttons that had focus are gone), never the page's body.
   */
  const returnTo = useRef<'review-button' | 'summary'>('summary');
  const [focusTick, setFocusTick] = useState(0);
  const focusLater = (where: 'review-button' | 'summary') => {
    returnTo.current = where;
    setFocusTick((n) => n + 1);
  };
  useEffect(() => {
    if (focusTick === 0) return;
    const button = reviewButton.current;
    (returnTo.current === 'review-button' && button && !button.disabled ? button : summary.current)?.focus();
  }, [focusTick]);

  const startOver = (next: IpChangeBase) => {
    setLastAdded(null);
    setBase(next);
    dispatch({ type: 'reset', list: next.ip_ranges });
    setStep({ kind: 'edit' });
    focusLater('summary');
  };

  const clear = async () => {
    try {
      const result = await change.mutateAsync({ change: { action: 'apply', ip_ranges: [] }, base });
      setClearing(false);
      toast({ title: 'The IP access list is cleared: every address is accepted', tone: 'success' });
      startOver({ version: result.version, ip_ranges: result.ip_ranges });
    } catch (error) {
      const conflict = conflictOf(error);
      setClearing(false);
      if (conflict) setStep({ kind: 'conflict', conflict });
      else
        toast({
          title: 'The list was not cleared',
          description: isApiError(error) ? error.message : String(error),
          tone: 'danger',
        });
    }
  };

  if (step.kind === 'conflict') {
    return (
      <ConflictView
        conflict={step.conflict}
        onKeepEdits={() => {
          setBase({ version: step.conflict.current_version, ip_ranges: step.conflict.current });
          setStep({ kind: 'review' });
        }}
        onStartOver={() => startOver({ version: step.conflict.current_version, ip_ranges: step.conflict.current })}
      />
    );
  }

  if (step.kind === 'review') {
    return (
      <ReviewStep
        current={current}
        base={base}
        list={list}
        lockedOut={lockedOut}
        onBack={() => {
          setStep({ kind: 'edit' });
          focusLater('review-button');
        }}
        onConflict={(conflict) => setStep({ kind: 'conflict', conflict })}
        onApplied={(result) => startOver({ version: result.version, ip_ranges: result.ip_ranges })}
      />
    );
  }

  return (
    <section aria-label="Edit the list" className="flex flex-col gap-4">
      <p ref={summary} tabIndex={-1} className="text-sm text-muted outline-none" aria-live="polite">
        {formatNumber(list.length)} {list.length === 1 ? 'range' : 'ranges'}
        {changed
          ? ` · ${formatNumber(diff.added.length)} added, ${formatNumber(diff.removed.length)} removed since loaded`
          : ' · no changes'}
        {invalid > 0 && ` · ${formatNumber(invalid)} not valid`}
        {kept > 0 && ` · ${formatNumber(kept)} kept as loaded (the console cannot read ${kept === 1 ? 'it' : 'them'})`}
        {repeated > 0 && ` · ${formatNumber(repeated)} repeated`}
        {contained > 0 && ` · ${formatNumber(contained)} inside another range`}
      </p>
      {lastAdded && !changed && <AddedNotice added={lastAdded} />}
      {list.length > 0 && lockedOut.length > 0 && <LockoutWarning addresses={lockedOut} />}
      {tooMany && (
        <p role="alert" className="text-sm text-danger">
          The list holds at most {formatNumber(IP_ACCESS_LIST_LIMITS.entries)} entries; this one has{' '}
          {formatNumber(list.length)}.
        </p>
      )}
      <RangeRows state={state} checks={checks} dispatch={dispatch} protectedBy={protectedBy} />
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-line pt-4">
        <div className="flex flex-wrap gap-2">
          <Button
            variant="danger"
            disabled={base.ip_ranges.length === 0 || change.isPending}
            aria-describedby={base.ip_ranges.length === 0 ? footerReasonId : undefined}
            onClick={() => setClearing(true)}
          >
            Clear the list…
          </Button>
          <Button
            disabled={changed || change.isPending}
            aria-describedby={changed ? footerReasonId : undefined}
            onClick={() => setAdding(true)}
          >
            <Plus className="size-4" aria-hidden /> Add ranges…
          </Button>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            disabled={!changed}
            aria-describedby={!changed ? footerReasonId : undefined}
            onClick={() => startOver(base)}
          >
            Discard edits
          </Button>
          <Button
            ref={reviewButton}
            variant="primary"
            disabled={!changed || invalid > 0 || tooMany}
            aria-describedby={!changed || invalid > 0 || tooMany ? footerReasonId : undefined}
            onClick={() => setStep({ kind: 'review' })}
          >
            Review changes
          </Button>
        </div>
      </div>
      <p id={footerReasonId} className="-mt-2 text-xs text-muted">
        {footerReasons({ changed, invalid, tooMany, empty: base.ip_ranges.length === 0 })}
      </p>
      <AddRangesDialog
        open={adding}
        onOpenChange={setAdding}
        current={current}
        base={base}
        onConflict={(next) => {
          setBase(next);
          dispatch({ type: 'reset', list: next.ip_ranges });
        }}
        onAdded={(next, added) => {
          startOver(next);
          setLastAdded(added);
          toast({
            title: `Added ${formatNumber(added.added.length)} ${added.added.length === 1 ? 'range' : 'ranges'}`,
            description: added.revision ? `Recorded as revision #${added.revision} in the history.` : undefined,
            tone: 'success',
          });
        }}
      />
      <ConfirmDialog
        open={clearing}
        onOpenChange={setClearing}
        title="Clear the IP access list?"
        description={
          <p>
            An empty list accepts requests from every address: the {formatNumber(base.ip_ranges.length)}{' '}
            {base.ip_ranges.length === 1 ? 'range' : 'ranges'} now listed stop restricting access. The change is kept in
            the history and can be restored.
          </p>
        }
        confirmLabel="Clear the list"
        destructive
        typeToConfirm={current.enterprise_name ?? 'clear'}
        pending={change.isPending}
        onConfirm={() => void clear()}
      />
    </section>
  );
}

/** Why the editor's disabled buttons are disabled, in words (a greyed-out button alone says nothing). */
export function footerReasons(s: { changed: boolean; invalid: number; tooMany: boolean; empty: boolean }): string {
  const out: string[] = [];
  if (!s.changed) out.push('Nothing to review or discard: the list is as loaded.');
  else {
    out.push('Add ranges merges into the list as loaded: apply or discard your edits first.');
    if (s.invalid > 0) out.push('Fix or remove the rows that are not valid to review the change.');
    if (s.tooMany) out.push('Remove entries to review the change.');
  }
  if (s.empty) out.push('The list is already empty: there is nothing to clear.');
  return out.join(' ');
}

/** What the last "Add ranges" added (and what it left out as already listed). */
function AddedNotice({ added }: { added: AddedRanges }) {
  return (
    <div role="status" className="rounded-lg border border-success/40 bg-success/10 p-3 text-sm">
      <p>
        <span className="font-semibold">
          Added {formatNumber(added.added.length)} {added.added.length === 1 ? 'range' : 'ranges'}:
        </span>{' '}
        <span className="font-mono">{added.added.join(', ')}</span>
        {added.revision !== null && ` (revision #${added.revision} in the history)`}.
      </p>
      {added.alreadyListed.length > 0 && (
        <p className="mt-1 text-muted">
          Already listed, not added again: <span className="font-mono">{added.alreadyListed.join(', ')}</span>.
        </p>
      )}
    </div>
  );
}

function LockoutWarning({ addresses }: { addresses: readonly string[] }) {
  return (
    <div role="alert" className="flex gap-2 rounded-lg border border-warn/40 bg-warn/10 p-3 text-sm">
      <ShieldAlert className="mt-0.5 size-4 shrink-0 text-warn" aria-hidden />
      <p>
        This list does not admit {addresses.length === 1 ? 'the address' : 'the addresses'}{' '}
        <strong className="font-mono">{addresses.join(', ')}</strong> the console reaches the API from. Applied, it
        would lock the console out: every later request would be refused. Add {addresses.length === 1 ? 'it' : 'them'}{' '}
        to the list, or be ready to type the enterprise’s name to apply it anyway.
      </p>
    </div>
  );
}

interface DiffRow {
  kind: 'added' | 'removed';
  range: string;
}

const diffCol = columnHelper<DiffRow>();
const DIFF_COLUMNS = diffCol.columns([
  diffCol.accessor('kind', {
    header: 'Change',
    meta: { width: '7rem' },
    cell: ({ getValue }) =>
      getValue() === 'added' ? <Badge tone="success">Added</Badge> : <Badge tone="danger">Removed</Badge>,
  }),
  diffCol.accessor('range', {
    header: 'Range',
    cell: ({ getValue }) => <span className="font-mono text-sm">{getValue()}</span>,
  }),
]);

export function DiffTable({
  added,
  removed,
  label,
}: {
  added: readonly string[];
  removed: readonly string[];
  label: string;
}) {
  const rows = useMemo<DiffRow[]>(
    () => [
      ...added.map((range) => ({ kind: 'added' as const, range })),
      ...removed.map((range) => ({ kind: 'removed' as const, range })),
    ],
    [added, removed],
  );
  return (
    <DataTable
      label={label}
      tableId="ip-access-list-diff"
      columns={DIFF_COLUMNS}
      data={rows}
      getRowId={(r) => `${r.kind}:${r.range}`}
      empty={{ title: 'No range added or removed', hint: 'Only how entries are written changes.' }}
      className="max-h-80"
    />
  );
}

interface OverrideValues {
  override_enterprise_name: string;
  /** Sent as a header, not in the body: the range typed as admitting the console (see `ConfirmedRangeField`). */
  confirmed_range: string;
}

function ReviewStep({
  current,
  base,
  list,
  lockedOut,
  onBack,
  onConflict,
  onApplied,
}: {
  current: ConsoleIpAccessList;
  base: IpChangeBase;
  list: string[];
  lockedOut: string[];
  onBack: () => void;
  onConflict: (c: IpAccessListConflict) => void;
  onApplied: (result: { version: string; ip_ranges: string[] }) => void;
}) {
  const change = useIpAccessListChange();
  const diff = diffIpRanges(base.ip_ranges, list);
  /** Set by a lockout refusal: the override field shows, with the server's explanation. */
  const [refusal, setRefusal] = useState<string | null>(null);
  /** Set by an `egress_unknown` refusal: the confirmed-range field shows; `asked` counts them, to refocus it. */
  const [egress, setEgress] = useState<{ refusal: EgressUnknownRefusal; asked: number } | null>(null);
  const showOverride = lockedOut.length > 0 || refusal !== null;
  // The review replaces the editor: focus goes to its heading (not to the body the Review button left).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const toBody = useMemo(
    () => (v: OverrideValues) => ({
      base_version: base.version,
      base: [...base.ip_ranges],
      ip_ranges: list,
      override_enterprise_name: v.override_enterprise_name === '' ? undefined : v.override_enterprise_name,
    }),
    [base, list],
  );
  return (
    <section aria-labelledby="ip-review-heading" className="flex flex-col gap-4">
      <h2 id="ip-review-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
        Review the change
      </h2>
      <p className="text-sm text-muted">
        {formatNumber(diff.added.length)} added, {formatNumber(diff.removed.length)} removed: the list will hold{' '}
        {formatNumber(list.length)} {list.length === 1 ? 'entry' : 'entries'}
        {list.length === 0 && ' (no restriction: every address is accepted)'}.
      </p>
      <DiffTable added={diff.added} removed={diff.removed} label="Changes to apply" />
      {lockedOut.length > 0 && <LockoutWarning addresses={lockedOut} />}
      {refusal && (
        <div role="alert" className="rounded-lg border border-danger/40 bg-danger/5 p-3 text-sm">
          <p className="font-semibold text-danger">Refused: this list would lock the console out</p>
          <p className="mt-1">{refusal}</p>
        </div>
      )}
      <Form
        schema={ConsoleIpApplyRequest}
        defaultValues={{ override_enterprise_name: '', confirmed_range: '' }}
        toBody={toBody}
        aria-label="Apply the IP access list"
        onSubmit={async (body, form) => {
          const confirmed = egress ? form.getValues('confirmed_range').trim() : '';
          if (egress && confirmed === '') {
            form.setError(
              'confirmed_range',
              { type: 'required', message: 'Type the range of this list that admits the console' },
              { shouldFocus: true },
            );
            return;
          }
          setRefusal(null);
          try {
            const result = await change.mutateAsync({
              change: {
                action: 'apply',
                ip_ranges: list,
                override_enterprise_name: body.override_enterprise_name,
                confirmed_range: confirmed || undefined,
              },
              base,
            });
            toast({
              title: result.unchanged
                ? 'Nothing to apply: the list was already this one'
                : `Applied: the list holds ${formatNumber(result.count)} ${result.count === 1 ? 'entry' : 'entries'}`,
              description: result.revision
                ? `Recorded as revision #${result.revision.revision_id} in the history.`
                : undefined,
              tone: 'success',
            });
            onApplied(result);
          } catch (error) {
            const conflict = conflictOf(error);
            if (conflict) return onConflict(conflict);
            const unknown = egressUnknownOf(error);
            if (unknown) {
              // Shown at the field, with the server's own words: no form-level alert repeating them.
              setEgress((e) => ({ refusal: unknown, asked: (e?.asked ?? 0) + 1 }));
              if (confirmed !== '') {
                form.setError('confirmed_range', {
                  type: 'server',
                  message: unknown.message ?? 'Not one of this list’s ranges',
                });
              }
              return;
            }
            const lockout = lockoutOf(error);
            if (lockout) setRefusal(lockout.detail);
            throw error;
          }
        }}
        actions={
          <div className="flex flex-wrap justify-end gap-2">
            <Button onClick={onBack}>Back to editing</Button>
            {showOverride ? (
              <ApplyAnywayButton enterpriseName={current.enterprise_name} />
            ) : (
              <SubmitButton pendingLabel="Applying…">{egress ? 'Confirm the range and apply' : 'Apply'}</SubmitButton>
            )}
          </div>
        }
      >
        {showOverride &&
          (current.enterprise_name !== null ? (
            <TextField
              name="override_enterprise_name"
              label={
                <>
                  To apply it anyway, type the enterprise’s name:{' '}
                  <strong className="font-mono">{current.enterprise_name}</strong>
                </>
              }
              description="Exactly as shown, with the same capitals and spaces. Recover from a lockout with the reset described in the README."
              autoComplete="off"
            />
          ) : (
            <p className="text-sm text-muted">
              The console does not know the enterprise’s name (CONSOLE_ENTERPRISE_NAME is not set), so it cannot apply a
              list that locks it out. Add the console’s addresses to the list.
            </p>
          ))}
        {egress && <ConfirmedRangeField refusal={egress.refusal} asked={egress.asked} list={list} />}
      </Form>
    </section>
  );
}

/**
 * The apply of a list that locks the console out: disabled until the enterprise's name is typed exactly (as the
 * server requires), with the reason beside it in words, not only a greyed-out button.
 */
function ApplyAnywayButton({ enterpriseName }: { enterpriseName: string | null }) {
  const typed = useWatch<OverrideValues, 'override_enterprise_name'>({ name: 'override_enterprise_name' });
  const reasonId = useId();
  const ready = enterpriseName !== null && typed === enterpriseName;
  const reason =
    enterpriseName === null
      ? 'Apply anyway is unavailable: the console does not know the enterprise’s name.'
      : typed === ''
        ? 'Apply anyway is enabled once the enterprise’s name is typed above.'
        : 'Apply anyway is enabled once the name typed matches the enterprise’s name exactly.';
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      {!ready && (
        <p id={reasonId} className="text-sm text-muted">
          {reason}
        </p>
      )}
      <SubmitButton
        pendingLabel="Applying…"
        variant="danger"
        disabled={!ready}
        aria-describedby={ready ? undefined : reasonId}
      >
        Apply anyway
      </SubmitButton>
    </div>
  );
}

/** How many of the list's ranges the field's explanation names before "and N more". */
const RANGES_NAMED = 8;

/**
 * Shown in place when the console cannot tell the address it reaches the API from: the admin types the range
 * of this list that admits the console, sent with the apply as `console-confirmed-range`; the server checks it
 * is one of the list's entries and answers here when it is not.
 */
function ConfirmedRangeField({
  refusal,
  asked,
  list,
}: {
  refusal: EgressUnknownRefusal;
  asked: number;
  list: readonly string[];
}) {
  const { setFocus } = useFormContext<OverrideValues>();
  // Each refusal brings the admin back to the field (it appears with the first one).
  useEffect(() => setFocus('confirmed_range'), [asked, setFocus]);
  const named = list.slice(0, RANGES_NAMED);
  return (
    <div className="flex flex-col gap-3">
      <div role="alert" className="flex gap-2 rounded-lg border border-warn/40 bg-warn/10 p-3 text-sm">
        <ShieldAlert className="mt-0.5 size-4 shrink-0 text-warn" aria-hidden />
        <div>
          <p className="font-semibold">Not applied: confirm which range admits this console</p>
          <p className="mt-1">{refusal.detail}</p>
        </div>
      </div>
      <TextField
        name="confirmed_range"
        label="Type the range that admits this console"
        description={
          <>
            The console cannot tell its own address (the one it reaches the API from: CONSOLE_EGRESS_IPS is not set), so
            it cannot check that this list keeps admitting it. Type, exactly as the list has it, the entry that admits
            that address: one of <span className="font-mono">{named.join(', ')}</span>
            {list.length > named.length && ` and ${formatNumber(list.length - named.length)} more`}. If none does, go
            back and add it, or the console is locked out.
          </>
        }
        required
        autoComplete="off"
        inputClassName="font-mono"
      />
    </div>
  );
}

function ConflictView({
  conflict,
  onKeepEdits,
  onStartOver,
}: {
  conflict: IpAccessListConflict;
  onKeepEdits: () => void;
  onStartOver: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The conflict replaces the review: focus goes to what it says, not to the body.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="ip-conflict-heading" className="flex flex-col gap-4">
      <div role="alert" className="rounded-lg border border-warn/40 bg-warn/10 p-4 text-sm">
        <h2 id="ip-conflict-heading" ref={heading} tabIndex={-1} className="font-semibold outline-none">
          The list changed since you started editing
        </h2>
        <p className="mt-1">{conflict.detail}</p>
      </div>
      {conflict.changes ? (
        <DiffTable added={conflict.changes.added} removed={conflict.changes.removed} label="Changed meanwhile" />
      ) : (
        <p className="text-sm text-muted">The list now holds {formatNumber(conflict.current.length)} entries.</p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={onStartOver}>Discard my edits and start from the current list</Button>
        <Button variant="primary" onClick={onKeepEdits}>
          Review my list against the current one
        </Button>
      </div>
    </section>
  );
}
