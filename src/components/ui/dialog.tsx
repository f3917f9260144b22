/**
 * A modal dialog (Radix Dialog): focus is trapped inside while open and goes back to the trigger on close;
 * Escape and the overlay close it. `side="right"` makes it a sheet along the right edge (details panes).
 *
 *   <Dialog open={open} onOpenChange={setOpen}>
 *     <DialogContent>
 *       <DialogTitle>…</DialogTitle><DialogDescription>…</DialogDescription>
 *       <DialogFooter><DialogClose asChild><Button>Close</Button></DialogClose></DialogFooter>
 *     </DialogContent>
 *   </Dialog>
 */
import { Dialog as DialogPrimitive } from 'radix-ui';
import { forwardRef, useRef, type ComponentPropsWithoutRef, type HTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClass = 'fixed inset-0 z-40 bg-black/40';

const SIDES = {
  center:
    'top-1/2 left-1/2 max-h-[90vh] w-[min(92vw,32rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border p-5',
  right: 'inset-y-0 right-0 flex w-[min(100vw,36rem)] flex-col border-l',
} as const;

interface AutoFocusHandlers {
  onOpenAutoFocus?: (event: Event) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/**
 * Where focus goes back on close: Radix returns it to a `DialogTrigger`; a dialog opened from state (no
 * trigger) returns it to the element that had it when the dialog opened. Wraps the caller's own handlers.
 */
export function useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus }: AutoFocusHandlers): Required<AutoFocusHandlers> {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (e) => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      onOpenAutoFocus?.(e);
    },
    onCloseAutoFocus: (e) => {
      onCloseAutoFocus?.(e);
      const el = opener.current;
      if (e.defaultPrevented || !el?.isConnected) return;
      e.preventDefault();
      el.focus();
    },
  };
}

export const DialogContent = forwardRef<
  HTMLDivElement,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Content> & { side?: keyof typeof SIDES }
>(function DialogContent({ className, side = 'center', onOpenAutoFocus, onCloseAutoFocus, ...props }, ref) {
  const focus = useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={cn(overlayClass, side === 'right' && 'bg-black/30')} />
      <DialogPrimitive.Content
        ref={ref}
        className={cn('fixed z-50 border-line bg-surface text-fg shadow-xl', SIDES[side], className)}
        {...focus}
        {...props}
      />
    </DialogPrimitive.Portal>
  );
});

export const DialogTitle = forwardRef<HTMLHeadingElement, ComponentPropsWithoutRef<typeof DialogPrimitive.Title>>(
  function DialogTitle({ className, ...props }, ref) {
    return <DialogPrimitive.Title ref={ref} className={cn('text-base font-semibold', className)} {...props} />;
  },
);

export const DialogDescription = forwardRef<
  HTMLParagraphElement,
  ComponentPropsWithoutRef<typeof DialogPrimitive.Description>
>(function DialogDescription({ className, ...props }, ref) {
  return <DialogPrimitive.Description ref={ref} className={cn('mt-1 text-sm text-muted', className)} {...props} />;
});

export function DialogFooter({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('mt-5 flex justify-end gap-2', className)} {...props} />;
}
