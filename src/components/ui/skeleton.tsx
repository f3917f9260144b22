/** A placeholder block while content loads; hidden from assistive technology (announce loading elsewhere). */
import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden data-loading className={cn('animate-pulse rounded-md bg-surface-2', className)} {...props} />;
}
