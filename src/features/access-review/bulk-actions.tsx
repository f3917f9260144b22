/**
 * The stale-access screen's bulk change: the bar (the enterprise role to give, "Change role of N selected",
 * "Remove N selected" and why a button is disabled), the confirmation listing exactly who, and the outcome of the
 * last change row by row (a partial failure names who failed and why).
 */
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Select } from '@/components/ui/select';
import type { Role } from '@/api/operations/members';
import type { BulkAction, BulkOutcome } from './api';
import type { ReviewRow } from './review';

export function Outcomes({ outcomes }: { outcomes: BulkOutcome[] }) {
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

/** The role to give and the two bulk buttons; each says in text why it is disabled. */
export function BulkActionBar({
  roles,
  rolesFailed,
  roleId,
  onRoleChange,
  selected,
  busy,
  onAction,
}: {
  roles: readonly Role[] | undefined;
  rolesFailed: boolean;
  roleId: string;
  onRoleChange: (roleId: string) => void;
  selected: number;
  busy: boolean;
  onAction: (action: BulkAction) => void;
}) {
  const roleSelectId = useId();
  const role = roles?.find((r) => r.role_id === roleId);
  const noSelection = selected === 0 ? 'Select at least one row first.' : undefined;
  const roleReason = noSelection ?? (role ? undefined : 'Pick the role to give first.');
  return (
    <div className="mb-3 flex flex-wrap items-end gap-3 rounded-md border border-line bg-surface p-3">
      <div className="flex flex-col gap-1">
        <label htmlFor={roleSelectId} className="text-sm font-medium">
          Enterprise role
        </label>
        <Select
          id={roleSelectId}
          className="w-56"
          value={roleId}
          onValueChange={onRoleChange}
          placeholder={rolesFailed ? 'Roles could not be read' : 'Pick a role'}
          options={(roles ?? [])
            .slice()
            .sort((a, b) => a.role_name.localeCompare(b.role_name))
            .map((r) => ({ value: r.role_id, label: r.role_name }))}
        />
      </div>
      <Button
        disabled={!!roleReason || busy}
        aria-describedby="access-review-action-reason"
        onClick={() => role && onAction({ kind: 'role', roleId: role.role_id, roleName: role.role_name })}
      >
        Change role of {selected} selected
      </Button>
      <Button
        variant="danger"
        disabled={!!noSelection || busy}
        aria-describedby="access-review-action-reason"
        onClick={() => onAction({ kind: 'remove' })}
      >
        Remove {selected} selected
      </Button>
      <p id="access-review-action-reason" className="text-sm text-muted">
        {roleReason ?? (noSelection ? noSelection : '')}
      </p>
    </div>
  );
}

/** The confirmation of a bulk change: its title and button name the count, its list names exactly who. */
export function BulkConfirm({
  pending,
  selected,
  busy,
  onCancel,
  onConfirm,
}: {
  pending: BulkAction | null;
  selected: readonly ReviewRow[];
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(o) => !o && !busy && onCancel()}
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
      pending={busy}
      onConfirm={onConfirm}
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
  );
}
