/**
 * A confirmation before a destructive action, on the AlertDialog primitive: Cancel has the first focus and
 * focus returns to what opened it. With `typeToConfirm`, the action stays disabled until the admin types the
 * given word (and says so beside it). The action does not close the dialog by itself: the caller closes it when the work is done
 * (`pending` shows it running), so a failure can be shown inside.
 */
import { useId, useState, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from './alert-dialog';
import { Button } from './button';
import { Input } from './input';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  destructive?: boolean;
  typeToConfirm?: string;
  pending?: boolean;
  children?: ReactNode;
  /** On close, before focus returns to what opened the dialog; `preventDefault()` to put it elsewhere. */
  onCloseAutoFocus?: (event: Event) => void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const typeId = useId();
  const reasonId = useId();
  const blocked = props.typeToConfirm !== undefined && typed !== props.typeToConfirm;
  return (
    <AlertDialog
      open={props.open}
      onOpenChange={(o) => {
        if (!o) setTyped('');
        props.onOpenChange(o);
      }}
    >
      <AlertDialogContent onCloseAutoFocus={props.onCloseAutoFocus}>
        <AlertDialogTitle>{props.title}</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div>{props.description}</div>
        </AlertDialogDescription>
        {props.children}
        {props.typeToConfirm !== undefined && (
          <div className="mt-4 flex flex-col gap-1 text-sm">
            <label htmlFor={typeId}>
              Type <strong className="font-mono">{props.typeToConfirm}</strong> to confirm
            </label>
            <Input id={typeId} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
          </div>
        )}
        {blocked && (
          // A disabled action says why in words, not only by being greyed out.
          <p id={reasonId} className="mt-2 text-xs text-muted">
            “{props.confirmLabel}” is enabled once <span className="font-mono">{props.typeToConfirm}</span> is typed
            exactly.
          </p>
        )}
        <div className="mt-5 flex justify-end gap-2">
          <AlertDialogCancel asChild>
            <Button>Cancel</Button>
          </AlertDialogCancel>
          <Button
            variant={props.destructive ? 'danger' : 'primary'}
            disabled={blocked || props.pending}
            aria-describedby={blocked ? reasonId : undefined}
            onClick={() => props.onConfirm()}
          >
            {props.pending ? 'Working…' : props.confirmLabel}
          </Button>
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}
