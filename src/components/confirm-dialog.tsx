/**
 * A confirmation before a destructive action (Radix AlertDialog). With `typeToConfirm`, the action stays
 * disabled until the admin types the given word.
 */
import { AlertDialog } from 'radix-ui';
import { useState, type ReactNode } from 'react';
import { Button } from './button';
import { inputClass } from './field';

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
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const blocked = props.typeToConfirm !== undefined && typed !== props.typeToConfirm;
  return (
    <AlertDialog.Root
      open={props.open}
      onOpenChange={(o) => {
        if (!o) setTyped('');
        props.onOpenChange(o);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,32rem)] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-line bg-surface p-5 shadow-xl">
          <AlertDialog.Title className="text-base font-semibold">{props.title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-sm text-muted">{props.description}</div>
          </AlertDialog.Description>
          {props.children}
          {props.typeToConfirm !== undefined && (
            <label className="mt-4 flex flex-col gap-1 text-sm">
              <span>
                Type <strong className="font-mono">{props.typeToConfirm}</strong> to confirm
              </span>
              <input
                className={inputClass}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
              />
            </label>
          )}
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </AlertDialog.Cancel>
            <Button
              variant={props.destructive ? 'danger' : 'primary'}
              disabled={blocked || props.pending}
              onClick={() => props.onConfirm()}
            >
              {props.pending ? 'Working…' : props.confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
