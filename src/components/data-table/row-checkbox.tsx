/**
 * A row's selection box: the same markup and look as the shared Checkbox (components/ui/checkbox.tsx, a Radix
 * Checkbox: a `button role="checkbox"` with `aria-checked` and `data-state`, a check mark when checked), without
 * the Radix machinery (context, controllable state, presence) that every row would otherwise pay as it scrolls
 * into view. Keep its classes in step with the shared Checkbox.
 */
import { Check } from 'lucide-react';
import type { MouseEvent } from 'react';

const CLASS =
  'peer inline-flex size-4 shrink-0 items-center justify-center rounded-[4px] border border-muted/70 bg-surface text-white transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent data-[state=checked]:border-accent data-[state=checked]:bg-accent dark:text-bg disabled:cursor-not-allowed disabled:opacity-50';

export function RowCheckbox({
  label,
  checked,
  disabled,
  onToggle,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  /** A click or Space on the box; `shiftKey` asks for the range from the last toggled row. */
  onToggle: (shiftKey: boolean) => void;
}) {
  return (
    <button
      type="button"
      role="checkbox"
      aria-checked={checked}
      aria-label={label}
      data-state={checked ? 'checked' : 'unchecked'}
      disabled={disabled}
      className={CLASS}
      onClick={(e: MouseEvent<HTMLButtonElement>) => onToggle(e.shiftKey)}
      // As a checkbox (and the Radix one): Space toggles it, Enter does not.
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.preventDefault();
      }}
    >
      {checked ? (
        <span data-state="checked" className="flex items-center justify-center" style={{ pointerEvents: 'none' }}>
          <Check className="size-3" strokeWidth={3} aria-hidden />
        </span>
      ) : null}
    </button>
  );
}
