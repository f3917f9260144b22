/**
 * A screen's filters: inline on a wide screen; on a phone or a narrow window, folded into a sheet behind one
 * button that says how many filters are set, so the list starts above the fold. The fields screens repeat
 * live here too: the search landmark that lays them out, a labelled text filter, and Clear filters.
 */
import { SlidersHorizontal, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { NARROW, useMediaQuery } from '@/lib/use-media-query';
import { Button } from './ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from './ui/dialog';
import { Input } from './ui/input';

export function FilterBar({
  active,
  label = 'Filters',
  showLabel = 'Show results',
  children,
}: {
  /** How many filters are set (shown on the folded button). */
  active: number;
  label?: string;
  showLabel?: string;
  /** The filters; `narrow` tells them to stack. */
  children: (narrow: boolean) => ReactNode;
}) {
  const narrow = useMediaQuery(NARROW);
  const [open, setOpen] = useState(false);
  if (!narrow) return <>{children(false)}</>;
  return (
    <div className="mb-3">
      <Button size="sm" onClick={() => setOpen(true)}>
        <SlidersHorizontal className="size-3.5" aria-hidden />
        {label}
        {active ? ` (${active})` : ''}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent side="right" className="gap-3 overflow-y-auto p-4">
          <DialogTitle>{label}</DialogTitle>
          <DialogDescription className="sr-only">Each change applies at once.</DialogDescription>
          {children(true)}
          <div className="mt-auto flex justify-end">
            <DialogClose asChild>
              <Button variant="primary">{showLabel}</Button>
            </DialogClose>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** The filters as a search landmark: in a row that wraps, or stacked in the narrow sheet. */
export function FilterFields({ label, narrow, children }: { label: string; narrow: boolean; children: ReactNode }) {
  return (
    <div
      role="search"
      aria-label={label}
      className={narrow ? 'flex flex-col items-stretch gap-3' : 'mb-3 flex flex-wrap items-end gap-3'}
    >
      {children}
    </div>
  );
}

/** A labelled text filter; `search` makes it the screen's free-text search box. */
export function FilterText({
  label,
  value,
  onChange,
  placeholder,
  search = false,
  className = 'min-w-48 flex-1',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  search?: boolean;
  /** The field's width. */
  className?: string;
}) {
  return (
    <label className={cn('flex flex-col gap-1 text-sm font-medium', className)}>
      {label}
      <Input
        type={search ? 'search' : undefined}
        className="font-normal"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/** Clears every filter; shown only while one is set. */
export function ClearFilters({ shown, onClear }: { shown: boolean; onClear: () => void }) {
  if (!shown) return null;
  return (
    <Button onClick={onClear}>
      <X className="size-4" aria-hidden /> Clear filters
    </Button>
  );
}
