/**
 * A screen's filters: inline on a wide screen; on a phone or a narrow window, folded into a sheet behind one
 * button that says how many filters are set, so the list starts above the fold.
 */
import { SlidersHorizontal } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { NARROW, useMediaQuery } from '@/lib/use-media-query';
import { Button } from './ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from './ui/dialog';

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
