/**
 * "Add ranges": the API's append (ranges merged into the list, nothing removed) as a screen action. The admin
 * pastes or types ranges; the dialog shows, before anything is sent, which are new, which the list already
 * holds and which are not valid. The merged list goes through the console's checked apply (the proxy refuses
 * direct writes to this list), so it is version-checked, kept in the history and refused if it would lock the
 * console out: adding ranges to an empty list makes it a restriction, so that case asks for the enterprise's
 * name like any other lockout.
 */
import { useId, useState } from 'react';
import { lockedOutAddresses, type ConsoleIpAccessList } from '@/api/console/ip-access-list';
import { IP_ACCESS_LIST_LIMITS } from '@/api/operations/ip-access-list';
import { Field } from '@/components/field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { isApiError } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import { conflictOf, egressUnknownOf, lockoutOf, useIpAccessListChange, type IpChangeBase } from './api';
import { mergeRanges, splitRanges } from './ranges';

/** What an add did, for the editor to show once it is back on the list. */
export interface AddedRanges {
  added: string[];
  alreadyListed: string[];
  revision: number | null;
}

interface AddRangesProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  current: ConsoleIpAccessList;
  /** The list the merge is made on (its version goes with the apply). */
  base: IpChangeBase;
  /** The list changed meanwhile: the editor starts again from the current one (the merge is then made on it). */
  onConflict: (next: IpChangeBase) => void;
  onAdded: (next: IpChangeBase, added: AddedRanges) => void;
}

export function AddRangesDialog(props: AddRangesProps) {
  const { open, current } = props;
  const add = useAddRanges(props);
  const { merge, reason, nameNeeded, pending } = add;
  const reasonId = useId();
  return (
    <Dialog open={open} onOpenChange={add.close}>
      <DialogContent className="w-[min(92vw,36rem)]">
        <DialogTitle>Add ranges to the IP access list</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted">
          The ranges are merged into the list as it is now: nothing is removed, and a range the list already holds
          (however it is written) is not added again.
        </DialogDescription>
        <form
          className="mt-4 flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (reason === null && !pending) void add.submit();
          }}
        >
          <Field
            label="Ranges to add"
            hint="Addresses or CIDR ranges, one per line or separated by commas or spaces."
            required
          >
            <Textarea
              value={add.text}
              onChange={(e) => add.setText(e.target.value)}
              rows={4}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
            />
          </Field>
          <MergePreview merge={merge} />
          <ConfirmFields add={add} enterpriseName={current.enterprise_name} />
          {add.problem && (
            <p role="alert" className="rounded-lg border border-danger/40 bg-danger/5 p-3 text-sm">
              {add.problem}
            </p>
          )}
          <div className="mt-2 flex flex-wrap items-center justify-end gap-2">
            {reason && (
              <p id={reasonId} className="mr-auto text-sm text-muted">
                {reason}
              </p>
            )}
            <Button onClick={() => add.close(false)}>Cancel</Button>
            <Button
              type="submit"
              variant={nameNeeded ? 'danger' : 'primary'}
              disabled={reason !== null || pending}
              aria-describedby={reason ? reasonId : undefined}
            >
              {pending
                ? 'Adding…'
                : merge.added.length > 0
                  ? `Add ${formatNumber(merge.added.length)} ${merge.added.length === 1 ? 'range' : 'ranges'}`
                  : 'Add ranges'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The add's state: what is typed, the merge it makes, why Add is disabled (or `null`), and the apply with what
 * its refusals ask for next — the enterprise's name for a lockout, the range that admits the console when the
 * console cannot tell its own address, a fresh merge after a conflict.
 */
function useAddRanges({ onOpenChange, current, base, onConflict, onAdded }: AddRangesProps) {
  const change = useIpAccessListChange();
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [confirmed, setConfirmed] = useState('');
  const [askRange, setAskRange] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const merge = mergeRanges(base.ip_ranges, splitRanges(text));
  const lockedOut = merge.added.length > 0 ? lockedOutAddresses(merge.merged, current.protected_addresses) : [];
  const tooMany = merge.merged.length > IP_ACCESS_LIST_LIMITS.entries;
  const nameNeeded = lockedOut.length > 0;
  const reason =
    merge.added.length === 0
      ? 'Add is enabled once at least one valid range the list does not hold yet is typed.'
      : merge.invalid.length > 0
        ? 'Fix or remove the entries that are not valid first.'
        : tooMany
          ? `The list holds at most ${formatNumber(IP_ACCESS_LIST_LIMITS.entries)} entries.`
          : nameNeeded && current.enterprise_name === null
            ? 'These ranges would lock the console out, and the console does not know the enterprise’s name to confirm it.'
            : nameNeeded && name !== current.enterprise_name
              ? 'Add is enabled once the enterprise’s name is typed exactly.'
              : askRange && confirmed.trim() === ''
                ? 'Add is enabled once the range that admits this console is typed.'
                : null;

  const close = (o: boolean) => {
    if (!o) {
      setText('');
      setName('');
      setConfirmed('');
      setAskRange(false);
      setProblem(null);
    }
    onOpenChange(o);
  };

  const submit = async () => {
    setProblem(null);
    try {
      const result = await change.mutateAsync({
        change: {
          action: 'apply',
          ip_ranges: merge.merged,
          override_enterprise_name: nameNeeded ? name : undefined,
          confirmed_range: askRange ? confirmed : undefined,
        },
        base,
      });
      onAdded(
        { version: result.version, ip_ranges: result.ip_ranges },
        {
          added: merge.added,
          alreadyListed: merge.alreadyListed.map((a) => a.typed),
          revision: result.revision?.revision_id ?? null,
        },
      );
      close(false);
    } catch (error) {
      const conflict = conflictOf(error);
      if (conflict) {
        onConflict({ version: conflict.current_version, ip_ranges: conflict.current });
        setProblem(
          `The list changed since it was loaded (${conflict.detail}). What is shown below is now merged into the current list: check it and add again.`,
        );
        return;
      }
      const unknown = egressUnknownOf(error);
      if (unknown) {
        setAskRange(true);
        setProblem(unknown.message ?? unknown.detail);
        return;
      }
      const lockout = lockoutOf(error);
      setProblem(lockout ? lockout.detail : isApiError(error) ? error.message : String(error));
    }
  };

  return {
    text,
    setText,
    name,
    setName,
    confirmed,
    setConfirmed,
    askRange,
    problem,
    merge,
    lockedOut,
    nameNeeded,
    reason,
    close,
    submit,
    pending: change.isPending,
  };
}

/** What an add that would lock the console out, or that the console cannot check, asks the admin to type. */
function ConfirmFields({
  add,
  enterpriseName,
}: {
  add: ReturnType<typeof useAddRanges>;
  enterpriseName: string | null;
}) {
  const { nameNeeded, lockedOut, askRange } = add;
  return (
    <>
      {nameNeeded && (
        <div role="alert" className="rounded-lg border border-warn/40 bg-warn/10 p-3 text-sm">
          The list is empty, so it accepts every address: with these ranges only they are accepted, and not{' '}
          <strong className="font-mono">{lockedOut.join(', ')}</strong>, which the console reaches the API from. It
          would lock the console out.
        </div>
      )}
      {nameNeeded && enterpriseName !== null && (
        <Field
          label={
            <>
              To add them anyway, type the enterprise’s name: <strong className="font-mono">{enterpriseName}</strong>
            </>
          }
        >
          <Input value={add.name} onChange={(e) => add.setName(e.target.value)} autoComplete="off" />
        </Field>
      )}
      {askRange && (
        <Field
          label="Type the range that admits this console"
          hint="The console cannot tell the address it reaches the API from: type, exactly as the list has it, the entry that admits it."
          required
        >
          <Input
            value={add.confirmed}
            onChange={(e) => add.setConfirmed(e.target.value)}
            autoComplete="off"
            className="font-mono"
          />
        </Field>
      )}
    </>
  );
}

/** Before anything is sent: which entries are new, which the list holds already, which are not valid. */
function MergePreview({ merge }: { merge: ReturnType<typeof mergeRanges> }) {
  if (merge.added.length + merge.alreadyListed.length + merge.invalid.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-sm" aria-label="What will be added" aria-live="polite">
      {merge.added.length > 0 && (
        <li>
          <span className="font-medium text-success">New: </span>
          <span className="font-mono">{merge.added.join(', ')}</span>
        </li>
      )}
      {merge.alreadyListed.length > 0 && (
        <li>
          <span className="font-medium">Already listed, not added again: </span>
          <span className="font-mono">
            {merge.alreadyListed
              .map((a) => (a.typed === a.listed ? a.typed : `${a.typed} (as ${a.listed})`))
              .join(', ')}
          </span>
        </li>
      )}
      {merge.invalid.map((i) => (
        <li key={i.typed} className="text-danger">
          Not valid: {i.error}
        </li>
      ))}
    </ul>
  );
}
