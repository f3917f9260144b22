/**
 * Buttons in the console's few variants. `asChild` gives a link (or any element) the look of a button.
 * `buttonClass` is for the rare element that cannot be a child of Button.
 */
import { Slot } from 'radix-ui';
import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'icon';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-white hover:bg-accent-strong disabled:bg-accent/50 dark:text-bg',
  secondary: 'border border-line bg-surface text-fg hover:bg-surface-2 disabled:text-muted',
  danger: 'bg-danger text-white hover:bg-danger/90 disabled:bg-danger/50 dark:text-bg',
  ghost: 'text-fg hover:bg-surface-2 disabled:text-muted',
};

const SIZES: Record<ButtonSize, string> = {
  sm: 'h-7 px-2.5 text-xs',
  md: 'h-9 px-3.5 text-sm',
  icon: 'size-9 text-sm',
};

export function buttonClass({
  variant = 'secondary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string | undefined } = {}): string {
  return cn(
    'inline-flex items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed aria-disabled:cursor-not-allowed aria-disabled:opacity-60',
    SIZES[size],
    VARIANTS[variant],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render the single child (e.g. a router Link) with the button's look and props. */
  asChild?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, className, type = 'button', asChild = false, ...props },
  ref,
) {
  const cls = buttonClass({ variant, size, className });
  if (asChild) return <Slot.Root ref={ref} className={cls} {...props} />;
  return <button ref={ref} type={type} className={cls} {...props} />;
});
