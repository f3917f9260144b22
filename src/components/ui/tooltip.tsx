/**
 * A short hint on hover and keyboard focus (Radix Tooltip). It repeats what the control's name says or adds
 * a detail: never the only place something is said. `<Tooltip>` brings its own provider, so it can be used
 * anywhere; wrap a screen in one `TooltipProvider` to share the open delay between neighbours.
 *
 *   <Tooltip content="Light theme"><Button aria-label="…">…</Button></Tooltip>
 */
import { Tooltip as TooltipPrimitive } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';
import { cn } from '@/lib/cn';

export const TooltipProvider = TooltipPrimitive.Provider;

export function Tooltip({
  content,
  children,
  side = 'top',
  className,
}: {
  content: ReactNode;
  /** One focusable element (it receives the tooltip's `aria-describedby`). */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  className?: string;
}) {
  return (
    <TooltipPrimitive.Provider delayDuration={400}>
      <TooltipPrimitive.Root>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content
            side={side}
            sideOffset={4}
            className={cn(
              'z-50 max-w-xs rounded-md border border-line bg-fg px-2 py-1 text-xs text-bg shadow-md',
              className,
            )}
          >
            {content}
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
