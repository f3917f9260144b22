/**
 * What a page shows while its data loads (the router's pending view): the page's shape — a heading, a line
 * of actions and a few rows — inside the shell, which is already on screen. Not a blank page with "Loading…".
 */
import { Skeleton } from '@/components/ui/skeleton';

export function PagePending() {
  return (
    <div role="status" aria-label="Loading the page" className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Skeleton className="h-7 w-72 max-w-full" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      <div className="flex gap-2">
        <Skeleton className="h-8 w-28" />
        <Skeleton className="h-8 w-28" />
        <Skeleton className="h-8 w-40" />
      </div>
      <div className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className={i % 2 ? 'h-5 w-3/4' : 'h-5 w-full'} />
        ))}
      </div>
    </div>
  );
}
