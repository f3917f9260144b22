/**
 * The IP access list's edit step: the list as rows (checked and normalized as the admin types), a summary of
 * what the edit changes, the buttons that add ranges, clear the list, discard the edits or open the review
 * (each disabled one says why), and the steps that replace it — the review and a conflict.
 */
import { Plus } from 'lucide-react';
import { useEffect, useId, useReducer, useRef, useState, type Ref, type RefObject } from 'react';
import type { ConsoleIpAccessList, IpAccessListConflict } from '@/api/console/ip-access-list';
import { IP_ACCESS_LIST_LIMITS } from '@/api/operations/ip-access-list';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { isApiError } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import { conflictOf, useIpAccessListChange, type IpChangeBase } from './api';
import { AddRangesDialog, type AddedRanges } from './add-ranges';
import { ConflictView } from './conflict-view';
import { editorReducer, startEditor } from './editor-state';
import { LockoutWarning } from './lockout-warning';
import { RangeRows } from './range-rows';
import { ReviewStep } from './review-step';
import { useEditedList, type EditedList } from './use-edited-list';

type Step = { kind: 'edit' } | { kind: 'review' } | { kind: 'conflict'; conflict: IpAccessListConflict };

export function Editor({ current }: { current: ConsoleIpAccessList }) {
  // The list the edit started from: its version goes with the apply (a different current list answers 409).
  const [base, setBase] = useState<IpChangeBase>(() => ({ version: current.version, ip_ranges: current.ip_ranges }));
  const [state, dispatch] = useReducer(editorReducer, current.ip_ranges, startEditor);
  const [step, setStep] = useState<Step>({ kind: 'edit' });
  const [clearing, setClearing] = useState(false);
  const [adding, setAdding] = useState(false);
  /** What the last "Add ranges" added: shown above the list until the next edit. */
  const [lastAdded, setLastAdded] = useState<AddedRanges | null>(null);
  const change = useIpAccessListChange();
  const edited = useEditedList(state.rows, base, current);
  const { list, lockedOut, changed, tooMany } = edited;
  const { reviewButton, summary, focusLater } = useReturnFocus();

  const startOver = (next: IpChangeBase) => {
    setLastAdded(null);
    setBase(next);
    dispatch({ type: 'reset', list: next.ip_ranges });
    setStep({ kind: 'edit' });
    focusLater('summary');
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
      <EditSummary ref={summary} edited={edited} />
      {lastAdded && !changed && <AddedNotice added={lastAdded} />}
      {list.length > 0 && lockedOut.length > 0 && <LockoutWarning addresses={lockedOut} />}
      {tooMany && (
        <p role="alert" className="text-sm text-danger">
          The list holds at most {formatNumber(IP_ACCESS_LIST_LIMITS.entries)} entries; this one has{' '}
          {formatNumber(list.length)}.
        </p>
      )}
      <RangeRows state={state} checks={edited.checks} dispatch={dispatch} protectedBy={edited.protectedBy} />
      <EditorFooter
        edited={edited}
        empty={base.ip_ranges.length === 0}
        pending={change.isPending}
        reviewButton={reviewButton}
        onClear={() => setClearing(true)}
        onAdd={() => setAdding(true)}
        onDiscard={() => startOver(base)}
        onReview={() => setStep({ kind: 'review' })}
      />
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
      <ClearListDialog
        open={clearing}
        onOpenChange={setClearing}
        current={current}
        base={base}
        change={change}
        onCleared={startOver}
        onConflict={(conflict) => setStep({ kind: 'conflict', conflict })}
      />
    </section>
  );
}

/**
 * Where focus goes when the edit step comes back: the button that opened the review (Back to editing), or the
 * list's summary after an apply or a start-over (the buttons that had focus are gone), never the page's body.
 */
function useReturnFocus() {
  const reviewButton = useRef<HTMLButtonElement>(null);
  const summary = useRef<HTMLParagraphElement>(null);
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
  return { reviewButton, summary, focusLater };
}

/** How many ranges the list holds and what the edit changes, in one line read out as it changes. */
function EditSummary({ edited, ref }: { edited: EditedList; ref: Ref<HTMLParagraphElement> }) {
  const { list, diff, changed, invalid, kept, repeated, contained } = edited;
  return (
    <p ref={ref} tabIndex={-1} className="text-sm text-muted outline-none" aria-live="polite">
      {formatNumber(list.length)} {list.length === 1 ? 'range' : 'ranges'}
      {changed
        ? ` · ${formatNumber(diff.added.length)} added, ${formatNumber(diff.removed.length)} removed since loaded`
        : ' · no changes'}
      {invalid > 0 && ` · ${formatNumber(invalid)} not valid`}
      {kept > 0 && ` · ${formatNumber(kept)} kept as loaded (the console cannot read ${kept === 1 ? 'it' : 'them'})`}
      {repeated > 0 && ` · ${formatNumber(repeated)} repeated`}
      {contained > 0 && ` · ${formatNumber(contained)} inside another range`}
    </p>
  );
}

/** The edit step's buttons, and below them why the disabled ones are disabled. */
function EditorFooter({
  edited: { changed, invalid, tooMany },
  empty,
  pending,
  reviewButton,
  onClear,
  onAdd,
  onDiscard,
  onReview,
}: {
  edited: EditedList;
  /** The list as loaded is empty: there is nothing to clear. */
  empty: boolean;
  /** A clear is under way. */
  pending: boolean;
  reviewButton: RefObject<HTMLButtonElement | null>;
  onClear: () => void;
  onAdd: () => void;
  onDiscard: () => void;
  onReview: () => void;
}) {
  const reasonId = useId();
  const cannotReview = !changed || invalid > 0 || tooMany;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-line pt-4">
        <div className="flex flex-wrap gap-2">
          <Button
            variant="danger"
            disabled={empty || pending}
            aria-describedby={empty ? reasonId : undefined}
            onClick={onClear}
          >
            Clear the list…
          </Button>
          <Button disabled={changed || pending} aria-describedby={changed ? reasonId : undefined} onClick={onAdd}>
            <Plus className="size-4" aria-hidden /> Add ranges…
          </Button>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button disabled={!changed} aria-describedby={!changed ? reasonId : undefined} onClick={onDiscard}>
            Discard edits
          </Button>
          <Button
            ref={reviewButton}
            variant="primary"
            disabled={cannotReview}
            aria-describedby={cannotReview ? reasonId : undefined}
            onClick={onReview}
          >
            Review changes
          </Button>
        </div>
      </div>
      <p id={reasonId} className="-mt-2 text-xs text-muted">
        {footerReasons({ changed, invalid, tooMany, empty })}
      </p>
    </>
  );
}

/** Clearing the list (an empty list accepts every address) asks for the enterprise's name, then applies `[]`. */
function ClearListDialog({
  open,
  onOpenChange,
  current,
  base,
  change,
  onCleared,
  onConflict,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  current: ConsoleIpAccessList;
  base: IpChangeBase;
  change: ReturnType<typeof useIpAccessListChange>;
  onCleared: (next: IpChangeBase) => void;
  onConflict: (conflict: IpAccessListConflict) => void;
}) {
  const clear = async () => {
    try {
      const result = await change.mutateAsync({ change: { action: 'apply', ip_ranges: [] }, base });
      onOpenChange(false);
      toast({ title: 'The IP access list is cleared: every address is accepted', tone: 'success' });
      onCleared({ version: result.version, ip_ranges: result.ip_ranges });
    } catch (error) {
      const conflict = conflictOf(error);
      onOpenChange(false);
      if (conflict) onConflict(conflict);
      else
        toast({
          title: 'The list was not cleared',
          description: isApiError(error) ? error.message : String(error),
          tone: 'danger',
        });
    }
  };
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
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
