/**
 * The queue indicator of the shell's header: queued sessions and the indicator (normal, elevated, high), read
 * every 30 s while the tab is visible and not at all while it is hidden. Kept tiny: no chart code, no schemas.
 * Without the permission (or on any error) it stays out of the way.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { cn } from '@/lib/cn';
import { useDocumentVisible } from '@/lib/use-document-visible';
import { queueQueryOptions } from './api';

const TONE: Record<string, string> = {
  normal: 'bg-success',
  elevated: 'bg-warn',
  high: 'bg-danger',
};

export function QueueIndicator() {
  const visible = useDocumentVisible();
  const q = useQuery(queueQueryOptions(visible));
  if (!q.data) return null;
  const { queue_size: size, status } = q.data;
  const label = `Session queue: ${size} queued, ${status}`;
  return (
    <Link
      to="/capacity"
      title={`${label}. Open capacity`}
      aria-label={`${label}. Open capacity`}
      data-testid="queue-indicator"
      data-status={status}
      className="inline-flex h-9 items-center gap-1.5 rounded-md border border-line px-2.5 text-sm hover:bg-surface-2"
    >
      <span className={cn('size-2 rounded-full', TONE[status] ?? 'bg-muted')} aria-hidden />
      <span className="tabular-nums">{size}</span>
      <span className="hidden text-muted sm:inline">queued · {status}</span>
    </Link>
  );
}
