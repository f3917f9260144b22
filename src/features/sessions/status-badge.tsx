/** A session's status as a badge: the status and its detail in words; unknown values are shown as they are. */
import { Badge, type Tone } from '@/components/badge';

const TONES: Record<string, Tone> = {
  new: 'info',
  creating: 'info',
  claimed: 'info',
  running: 'accent',
  resuming: 'accent',
  exit: 'success',
  error: 'danger',
  suspended: 'warn',
};

const words = (s: string) => s.replaceAll('_', ' ');

export function SessionStatusBadge({ status, detail }: { status: string; detail?: string | null }) {
  const tone = TONES[status] ?? 'neutral';
  const live = status === 'running' || status === 'resuming' || status === 'claimed' || status === 'new';
  return (
    <Badge tone={tone} title={detail ? `${status}: ${words(detail)}` : status} className="max-w-full">
      {live && <span className="size-1.5 shrink-0 animate-pulse rounded-full bg-current" aria-hidden />}
      <span data-testid="session-status">{status}</span>
      {detail && <span className="truncate font-normal">· {words(detail)}</span>}
    </Badge>
  );
}
