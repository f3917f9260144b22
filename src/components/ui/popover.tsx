/** A non-modal floating panel anchored to its trigger (Radix Popover): Escape and an outside click close it. */
import { Popover as PopoverPrimitive } from 'radix-ui';
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { cn } from '@/lib/cn';

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
export const PopoverAnchor = PopoverPrimitive.Anchor;
export const PopoverClose = PopoverPrimitive.Close;

export const PopoverContent = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof PopoverPrimitive.Content>>(
  function PopoverContent({ className, align = 'start', sideOffset = 4, ...props }, ref) {
    return (
      <PopoverPrimitive.Portal>
        <PopoverPrimitive.Content
          ref={ref}
          align={align}
          sideOffset={sideOffset}
          className={cn(
            'z-50 max-h-[var(--radix-popover-content-available-height)] overflow-auto rounded-md border border-line bg-surface p-2 text-fg shadow-lg outline-none',
            className,
          )}
          {...props}
        />
      </PopoverPrimitive.Portal>
    );
  },
);
