/**
 * The session queue in the shell's header: how many sessions wait for a machine and how loaded the queue is
 * (normal, elevated, high), read every 30 s while the tab is visible and not at all while it is hidden. A red
 * "high" alone alarms without helping, so the indicator says what the figure means and what to do: on hover
 * and keyboard focus (a tooltip) and to assistive technology (its description), and it links to Capacity.
 * Its accessible name contains its visible text (WCAG 2.5.3, "label in name"). Kept tiny: no chart code, no
 * schemas, and the tooltip's code loads after the first screen (./later-tooltip.tsx). Without the permission
 * (or on any error) it stays out of the way.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { queueQueryOptions } from '@/features/capacity/api';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { useDocumentVisible } from '@/lib/use-document-visible';
import { LaterTooltip } from './later-tooltip';

const TONE: Record<string, string> = {
  normal: 'bg-success',
  elevated: 'bg-warn',
  high: 'bg-danger',
};

/** What the queue's level means for the admin, and what to do about it. */
const ADVICE: Record<string, string> = {
  normal: 'Normal: new sessions start without waiting long. Nothing to do.',
  elevated:
    'Elevated: new sessions may wait a while before they start. Keep an eye on Capacity; starting fewer sessions at once lets the queue drain.',
  high: 'High: new sessions wait long before they start. Open Capacity to see the hypervisors; hold back sessions and schedules that can wait, or ask for more capacity.',
};

/** The explanation of a queue reading, in words an admin understands. */
export function queueExplanation(size: number, status: string): string {
  const waiting =
    size === 1
      ? '1 session is waiting for a machine to run on.'
      : `${formatNumber(size)} sessions are waiting for a machine to run on.`;
  return `${waiting} ${ADVICE[status] ?? `The queue’s level is “${status}”.`}`;
}

export function QueueStatus() {
  const visible = useDocumentVisible();
  const q = useQuery(queueQueryOptions(visible));
  const describedBy = useId();
  if (!q.data) return null;
  const { queue_size: size, status } = q.data;
  const count = formatNumber(size);
  const explanation = queueExplanation(size, status);
  return (
    <>
      <LaterTooltip content={explanation} side="bottom">
        <Link
          to="/capacity"
          // Starts with what the wide header shows ("110 queued, high"); the narrow one shows the count alone.
          aria-label={`Session queue: ${count} queued, ${status}. Open capacity`}
          aria-describedby={describedBy}
          data-testid="queue-indicator"
          data-status={status}
          className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-md border border-line px-2.5 text-sm hover:bg-surface-2"
        >
          <span className={cn('size-2 rounded-full', TONE[status] ?? 'bg-muted')} aria-hidden />
          <span className="tabular-nums">{count}</span>{' '}
          <span className="hidden text-muted sm:inline">queued, {status}</span>
        </Link>
      </LaterTooltip>
      <span id={describedBy} className="sr-only">
        {explanation}
      </span>
    </>
  );
}
