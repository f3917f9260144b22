/**
 * The organization switcher's button, shared by the switcher in the shell and its menu (which is loaded on
 * demand): in a file of its own so the menu does not import the switcher that loads it.
 */
import { ChevronsUpDown } from 'lucide-react';
import { forwardRef, type ComponentPropsWithoutRef } from 'react';

interface SwitcherButtonProps extends ComponentPropsWithoutRef<'button'> {
  label: string;
}

/** The button: its visible text (the organization) is part of its accessible name. */
export const SwitcherButton = forwardRef<HTMLButtonElement, SwitcherButtonProps>(function SwitcherButton(
  { label, ...props },
  ref,
) {
  return (
    <button
      ref={ref}
      type="button"
      aria-haspopup="listbox"
      className="flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-line bg-surface px-2.5 text-left text-sm hover:bg-surface-2"
      {...props}
    >
      <span className="truncate">
        <span className="sr-only">Switch organization: </span>
        {label}
      </span>
      <ChevronsUpDown className="size-4 shrink-0 text-muted" aria-hidden />
    </button>
  );
});
