/**
 * The menus behind the sessions screens' controls: the filters' checklists and quick ranges, the selects
 * (archived, refresh interval) and the saved views. This module loads the first time one of their buttons is
 * pointed at, focused or used (`deferred-controls.tsx`), so a list's first paint carries none of Radix's
 * popper, focus-trap and scroll-lock code; each control mounts here opened, in place of the plain button that
 * stood for it, and stays mounted afterwards.
 */
import { ChevronDown } from 'lucide-react';
import { useEffect, useRef, type ComponentProps } from 'react';
import { SavedViews } from '@/components/saved-views';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { SelectContent, SelectItem, SelectRoot, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { TIME_PRESETS } from './list-query';
import type { FirstUse } from './deferred-controls';
import type { SessionSearch } from './filters';

export interface MultiSelectMenuProps {
  label: string;
  /** What the button says is chosen ("All", "slack, api", "3 selected"). */
  summary: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  selected: string[];
  onChange: (values: string[]) => void;
}

/** A filter's checklist in a popover, opened on mount. */
export function MultiSelectMenu({ label, summary, options, selected, onChange }: MultiSelectMenuProps) {
  return (
    <Popover defaultOpen>
      <PopoverTrigger asChild>
        <Button
          size="sm"
          aria-label={`${label}: ${summary}`}
          className={cn(selected.length > 0 && 'border-accent text-accent')}
        >
          {label}: <span className="max-w-40 truncate font-normal">{summary}</span>
          <ChevronDown className="size-3.5" aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="max-h-80 w-60" aria-label={label}>
        <fieldset>
          <legend className="px-1 pb-1 text-xs font-semibold text-muted uppercase">{label}</legend>
          {options.map((o) => (
            <label
              key={o.value}
              className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 text-sm hover:bg-surface-2"
            >
              <Checkbox
                checked={selected.includes(o.value)}
                onCheckedChange={(checked) =>
                  onChange(checked === true ? [...selected, o.value] : selected.filter((v) => v !== o.value))
                }
              />
              {o.label}
            </label>
          ))}
        </fieldset>
        {selected.length > 0 && (
          <Button size="sm" variant="ghost" className="mt-1 w-full" onClick={() => onChange([])}>
            Clear {label.toLowerCase()}
          </Button>
        )}
      </PopoverContent>
    </Popover>
  );
}

/** The created filter's quick ranges, opened on mount. */
export function QuickRangeMenu({
  onChange,
}: {
  onChange: (range: { created_after: number | undefined; created_before: undefined }) => void;
}) {
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>
        <Button size="sm" aria-label="Created: quick range" className="font-normal">
          Quick range… <ChevronDown className="size-3.5" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuItem onSelect={() => onChange({ created_after: undefined, created_before: undefined })}>
          Any time
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        {TIME_PRESETS.map((p) => (
          <DropdownMenuItem
            key={p.seconds}
            onSelect={() =>
              onChange({ created_after: Math.floor(Date.now() / 1000) - p.seconds, created_before: undefined })
            }
          >
            {p.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export interface ChoiceSelectMenuProps {
  id?: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Values must not be empty (Radix reserves `''` for "nothing chosen"). */
  options: ReadonlyArray<{ value: string; label: string }>;
  className?: string;
}

/** A small select (the shared Select's parts), opened on mount. */
export function ChoiceSelectMenu({ id, value, onValueChange, options, className }: ChoiceSelectMenuProps) {
  return (
    <SelectRoot defaultOpen value={value} onValueChange={onValueChange}>
      <SelectTrigger id={id} size="sm" className={className}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </SelectRoot>
  );
}

/**
 * The saved views menu, opened on mount the way its stand-in was used. The shared menu has no way to start
 * open, so its trigger is sent the event that opens it (a pointer press, or Enter from the keyboard, which also
 * moves focus to the first item as a keyboard user expects).
 */
export function SavedViewsMenu({
  openWith,
  ...props
}: ComponentProps<typeof SavedViews<SessionSearch>> & { openWith: Exclude<FirstUse, null> }) {
  const ref = useRef<HTMLSpanElement>(null);
  const opened = useRef(false);
  useEffect(() => {
    const trigger = ref.current?.querySelector('button');
    // Once only: the menu's trigger toggles, and Strict Mode runs effects twice.
    if (!trigger || opened.current) return;
    opened.current = true;
    trigger.focus();
    trigger.dispatchEvent(
      openWith === 'keyboard'
        ? new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true })
        : new PointerEvent('pointerdown', { bubbles: true, cancelable: true, button: 0, pointerType: 'mouse' }),
    );
  }, [openWith]);
  return (
    <span ref={ref} className="contents">
      <SavedViews {...props} />
    </span>
  );
}
