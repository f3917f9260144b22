/** Pieces the schedule table and page share: the frequency in words, the next run, the state and its switch. */
import { Switch } from '@/components/ui/switch';
import { Badge } from '@/components/badge';
import { describeError } from '@/components/problem-view';
import { toast } from '@/components/ui/toast-store';
import type { NOTIFY_ON, Schedule } from '@/api/operations/schedules';
import { formatDateTime, formatRelative, formatUtc } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { describeFrequency, nextRuns } from './cron';
import { isoSeconds, useUpdateSchedule } from './api';

/** Whom the service tells about a run, as the form offers it (the API's `notify_on` value otherwise). */
export const NOTIFY_LABELS: Record<(typeof NOTIFY_ON)[number], string> = {
  failure: 'When a run fails',
  always: 'After every run',
  never: 'Never',
};

export function notifyLabel(value: string): string {
  return (NOTIFY_LABELS as Record<string, string | undefined>)[value] ?? value;
}

/** When a schedule runs next (Unix seconds): the API's `next_run_at`, else computed from its frequency. */
export function nextRunOf(s: Schedule, nowMs = Date.now()): number | null {
  if (!s.enabled) return null;
  if (s.next_run_at !== undefined) return isoSeconds(s.next_run_at);
  if (s.schedule_type === 'one_time') return isoSeconds(s.scheduled_at);
  const next = s.frequency ? nextRuns(s.frequency, 1, new Date(nowMs))[0] : undefined;
  return next ? Math.floor(next.getTime() / 1000) : null;
}

/** "Every weekday at 09:00 UTC", with the cron expression; a one-time schedule's date. */
export function FrequencyText({ schedule: s }: { schedule: Schedule }) {
  if (s.schedule_type === 'one_time') {
    const at = isoSeconds(s.scheduled_at);
    return (
      <span className="flex flex-col">
        <span>Once</span>
        <span className="text-xs text-muted" title={formatUtc(at)}>
          {formatDateTime(at)}
        </span>
      </span>
    );
  }
  const words = s.frequency ? describeFrequency(s.frequency) : null;
  return (
    <span className="flex flex-col">
      <span>{words ?? 'Unreadable frequency'}</span>
      <span className="font-mono text-xs text-muted">{s.frequency ?? '—'}</span>
    </span>
  );
}

/** A time in local time, with how far away it is and UTC on hover. */
export function LocalTime({ seconds, className }: { seconds: number | null; className?: string }) {
  const now = useNow(15_000);
  if (seconds === null) return <span className={className}>—</span>;
  return (
    <time
      dateTime={new Date(seconds * 1000).toISOString()}
      title={`${formatRelative(seconds, now)} (${formatUtc(seconds)})`}
      className={className}
    >
      {formatDateTime(seconds)}
    </time>
  );
}

export function StateBadge({ schedule: s }: { schedule: Schedule }) {
  if (s.enabled) return <Badge tone="success">Enabled</Badge>;
  // Paused by the service: a revoked creator or run-as principal (sandbox extension `paused_reason`).
  if (s.paused_reason) {
    return (
      <Badge tone="warn" title={s.paused_reason}>
        Paused
      </Badge>
    );
  }
  if (s.schedule_type === 'one_time' && s.last_executed_at) return <Badge tone="neutral">Ran once</Badge>;
  return <Badge tone="neutral">Disabled</Badge>;
}

export function FailuresBadge({ schedule: s }: { schedule: Schedule }) {
  if (s.consecutive_failures === 0) return <span className="text-muted">0</span>;
  return (
    <Badge tone="danger" title={s.last_error_message ?? undefined}>
      {s.consecutive_failures} failing
    </Badge>
  );
}

/** Turns a schedule on or off at once (PATCH enabled); a refusal (a one-time date now past) says why. */
export function EnabledSwitch({ orgId, schedule: s }: { orgId: string; schedule: Schedule }) {
  const update = useUpdateSchedule(orgId);
  const checked = update.isPending ? !s.enabled : s.enabled;
  return (
    <Switch
      checked={checked}
      disabled={update.isPending}
      aria-label={`Enabled: ${s.name}`}
      onCheckedChange={(enabled) =>
        update.mutate(
          { scheduleId: s.scheduled_session_id, body: { enabled } },
          {
            onSuccess: (saved) =>
              toast({
                tone: 'success',
                title: saved.enabled ? `“${saved.name}” is enabled` : `“${saved.name}” is disabled`,
              }),
            onError: (error) => {
              const { title, detail } = describeError(error);
              toast({ tone: 'danger', title: `“${s.name}” was not changed: ${title}`, description: detail });
            },
          },
        )
      }
    />
  );
}
