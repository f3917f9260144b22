/**
 * The confirm-and-delete action every screen that deletes shares: the row's Delete button, and the
 * confirmation that runs the delete mutation, shows its failure inside the dialog (so the admin can retry or
 * cancel), and on success closes, clears the mutation and says so in a toast. A screen gives only its own
 * words: what is deleted, what happens next, and the toast.
 */
import { Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { ProblemView } from './problem-view';
import { Button } from './ui/button';
import { ConfirmDialog } from './ui/confirm-dialog';
import { toast } from './ui/toast';

/** What the action needs of a TanStack mutation (`useMutation`'s result fits). */
export interface DeleteMutation<V> {
  mutate: (variables: V, options: { onSuccess: () => void }) => void;
  reset: () => void;
  isPending: boolean;
  error: unknown;
}

export interface ConfirmDeleteProps<T, V> {
  /** The item to delete; `null` keeps the dialog closed. */
  target: T | null;
  /** Closes the dialog (the kit also clears the mutation's error). */
  onClose: () => void;
  mutation: DeleteMutation<V>;
  /** What the mutation is called with for the item. */
  variables: (target: T) => V;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /** A word the admin types before the action is enabled. */
  typeToConfirm?: string;
  /** The toast that says it is done; none when the screen says so otherwise (for example by leaving). */
  toastTitle?: (target: T) => string;
  /** After the dialog has closed: for example, leave the page of the deleted item. */
  onDeleted?: (target: T) => void;
  /** Said inside the dialog above a failure (for example what else changes). */
  children?: ReactNode;
}

export function ConfirmDelete<T, V>(props: ConfirmDeleteProps<T, V>) {
  const { target, onClose, mutation } = props;
  const close = () => {
    onClose();
    mutation.reset();
  };
  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(o) => {
        if (!o) close();
      }}
      destructive
      title={props.title}
      description={props.description}
      typeToConfirm={props.typeToConfirm}
      confirmLabel={props.confirmLabel}
      pending={mutation.isPending}
      onConfirm={() => {
        if (target === null) return;
        mutation.mutate(props.variables(target), {
          onSuccess: () => {
            if (props.toastTitle) toast({ title: props.toastTitle(target), tone: 'success' });
            close();
            props.onDeleted?.(target);
          },
        });
      }}
    >
      {props.children}
      {mutation.error ? (
        <div className="mt-3">
          <ProblemView compact error={mutation.error} />
        </div>
      ) : null}
    </ConfirmDialog>
  );
}

/** A row's Delete button: a small danger-coloured ghost button, named for the item it deletes. */
export function DeleteButton({
  label,
  onClick,
  disabled,
  title,
  children = 'Delete',
}: {
  /** The accessible name, naming the item: "Delete secret API_KEY". */
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** Why it is disabled, when it is. */
  title?: string;
  children?: ReactNode;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      className="text-danger"
      disabled={disabled}
      title={title}
      aria-label={label}
      onClick={onClick}
    >
      <Trash2 className="size-3.5" aria-hidden /> {children}
    </Button>
  );
}
