/**
 * The IP access list's review step: what the change adds and removes, and its apply through the console's
 * checked endpoint — a list that locks the console out asks for the enterprise's name (Apply anyway), and when
 * the console cannot tell its own address the admin types the list's range that admits it.
 */
import { ShieldAlert } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  ConsoleIpApplyRequest,
  diffIpRanges,
  type ConsoleIpAccessList,
  type IpAccessListConflict,
} from '@/api/console/ip-access-list';
import { Form, SubmitButton, TextField } from '@/components/form';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import {
  conflictOf,
  egressUnknownOf,
  lockoutOf,
  useIpAccessListChange,
  type EgressUnknownRefusal,
  type IpChangeBase,
} from './api';
import { DiffTable } from './diff-table';
import { LockoutWarning } from './lockout-warning';

interface OverrideValues {
  override_enterprise_name: string;
  /** Sent as a header, not in the body: the range typed as admitting the console (see `ConfirmedRangeField`). */
  confirmed_range: string;
}

export function ReviewStep({
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
