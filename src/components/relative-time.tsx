/**
 * A Unix-seconds timestamp, relative ("5 min ago") or absolute (local date and time) as the admin chose in the
 * header; the other form, and UTC, on hover.
 */
import { formatDateTime, formatRelative, formatUtc } from '@/lib/format';
import { useTimeDisplay } from '@/lib/time-display';
import { useNow } from '@/lib/use-now';

export function RelativeTime({ value, className }: { value: number | null | undefined; className?: string }) {
  const display = useTimeDisplay();
  const now = useNow(15_000);
  if (value === null || value === undefined) return <span className={className}>—</span>;
  const relative = formatRelative(value, now);
  const absolute = formatDateTime(value);
  return (
    <time
      dateTime={new Date(value * 1000).toISOString()}
      title={display === 'absolute' ? `${relative} (${formatUtc(value)})` : `${absolute} (${formatUtc(value)})`}
      className={className}
    >
      {display === 'absolute' ? absolute : relative}
    </time>
  );
}
