/** A Unix-seconds timestamp shown relative ("5 min ago"), exact local and UTC time on hover. */
import { formatDateTime, formatRelative, formatUtc } from '@/lib/format';
import { useNow } from '@/lib/use-now';

export function RelativeTime({ value, className }: { value: number | null | undefined; className?: string }) {
  const now = useNow(15_000);
  if (value === null || value === undefined) return <span className={className}>—</span>;
  return (
    <time
      dateTime={new Date(value * 1000).toISOString()}
      title={`${formatDateTime(value)} (${formatUtc(value)})`}
      className={className}
    >
      {formatRelative(value, now)}
    </time>
  );
}
