/**
 * A searchable select: a `role="combobox"` button that opens a popover with a search box and the options
 * that match it (Radix Popover + a filtered listbox). Arrow keys move through the matches, Enter chooses,
 * Escape closes and focus returns to the button. For long lists (folders, repositories, users); for a handful
 * of fixed choices use `Select`. An option whose value is `''` is the "none" choice.
 */
import { Popover as PopoverPrimitive } from 'radix-ui';
import { Check, ChevronsUpDown } from 'lucide-react';
import { forwardRef, useState, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { PopoverContent } from './popover';
import { useActiveOption } from './use-active-option';

export interface ComboboxOption {
  value: string;
  label: ReactNode;
  /** What the search matches and what the option is called; the label when it is a string. */
  textValue?: string;
  /** Indentation level, for a tree shown as a list. */
  depth?: number;
}

export interface ComboboxProps {
  value: string;
  onValueChange: (value: string) => void;
  options: readonly ComboboxOption[];
  placeholder?: ReactNode;
  /** The search box's accessible name, e.g. "Search folders". */
  searchLabel: string;
  emptyText?: ReactNode;
  id?: string;
  disabled?: boolean;
  className?: string;
  onBlur?: () => void;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  'aria-required'?: boolean;
}

/** Most options rendered at once; the search narrows the rest. */
const MAX_SHOWN = 200;

const textOf = (o: ComboboxOption) => o.textValue ?? (typeof o.label === 'string' ? o.label : o.value);

export const Combobox = forwardRef<HTMLButtonElement, ComboboxProps>(function Combobox(
  {
    value,
    onValueChange,
    options,
    placeholder,
    searchLabel,
    emptyText = 'No match',
    disabled,
    className,
    onBlur,
    ...aria
  },
  ref,
) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const selected = options.find((o) => o.value === value);
  const q = query.trim().toLowerCase();
  const matches = q ? options.filter((o) => textOf(o).toLowerCase().includes(q)) : options;
  const shown = matches.slice(0, MAX_SHOWN);
  const choose = (o: ComboboxOption) => {
    onValueChange(o.value);
    setOpen(false);
  };
  const { activeIndex, setActive, onKeyDown, listRef, listId, optionId, activeDescendant } = useActiveOption(shown, {
    open,
    onChoose: choose,
  });

  const openWith = (next: boolean) => {
    if (next) {
      setQuery('');
      setActive(
        Math.max(
          0,
          options.findIndex((o) => o.value === value),
        ),
      );
    }
    setOpen(next);
  };

  return (
    <PopoverPrimitive.Root open={open} onOpenChange={openWith}>
      <PopoverPrimitive.Trigger asChild>
        <button
          ref={ref}
          type="button"
          role="combobox"
          disabled={disabled}
          onBlur={onBlur}
          onKeyDown={(e) => {
            if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !open) {
              e.preventDefault();
              openWith(true);
            }
          }}
          className={cn(
            'inline-flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-line bg-surface px-2.5 text-left text-sm text-fg',
            'focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-accent/30 aria-[invalid=true]:border-danger',
            'disabled:cursor-not-allowed disabled:text-muted',
            !selected && 'text-muted',
            className,
          )}
          {...aria}
        >
          <span className="min-w-0 truncate">{selected ? selected.label : placeholder}</span>
          <ChevronsUpDown className="size-3.5 shrink-0 text-muted" aria-hidden />
        </button>
      </PopoverPrimitive.Trigger>
      <PopoverContent className="flex w-[max(16rem,var(--radix-popover-trigger-width))] flex-col p-0">
        <input
          type="text"
          role="combobox"
          aria-expanded
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeDescendant}
          aria-label={searchLabel}
          placeholder={`${searchLabel}…`}
          autoComplete="off"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="h-9 border-b border-line bg-transparent px-2.5 text-sm outline-none placeholder:text-muted"
        />
        <ul ref={listRef} id={listId} role="listbox" aria-label={searchLabel} className="max-h-72 overflow-y-auto p-1">
          {shown.map((o, i) => (
            <li
              key={o.value}
              id={optionId(i)}
              data-index={i}
              role="option"
              aria-selected={o.value === value}
              data-active={i === activeIndex || undefined}
              onMouseMove={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(o)}
              className="relative flex cursor-default items-center rounded py-1.5 pr-2 pl-7 text-sm select-none data-[active]:bg-surface-2"
            >
              {o.value === value && <Check className="absolute left-2 size-3.5 text-accent" aria-hidden />}
              <span className="truncate" style={o.depth ? { paddingLeft: `${o.depth * 0.75}rem` } : undefined}>
                {o.label}
              </span>
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p className="px-3 pb-3 text-sm text-muted">{emptyText}</p>}
        {matches.length > shown.length && (
          <p className="border-t border-line px-3 py-1.5 text-xs text-muted">
            {shown.length} of {matches.length} shown; type to narrow.
          </p>
        )}
      </PopoverContent>
    </PopoverPrimitive.Root>
  );
});
