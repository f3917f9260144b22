/** The refresh interval control and the "live" indicator shared by the sessions screens. */
import { useNow } from '@/lib/use-now';
import { inputClass } from '@/components/field';
import { cn } from '@/lib/cn';
import { REFRESH_OPTIONS, useRefreshInterval } from './live';

export function RefreshIntervalSelect() {
  const [ms, setMs] = useRefreshInterval();
  return (
    <label className="flex items-center gap-1.5 text-xs font-medium text-muted">
      Refresh every
      <select
        className={cn(inputClass, 'h-7 w-auto pr-7 text-xs')}
        value={ms}
        onChange={(e) => setMs(Number(e.target.value))}
      >
        {REFRESH_OPTIONS.map((o) => (
          <option key={o.ms} value={o.ms}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "updated N s ago" from a millisecond timestamp, ticking every second. */
export function SecondsAgo({ at, prefix = 'Updated' }: { at: number | null | undefined; prefix?: string }) {
  const now = useNow(1_000);
  if (!at) return <span>{prefix} —</span>;
  const s = Math.max(0, Math.round((now - at) / 1000));
  const text =
    s < 60 ? `${s} s ago` : s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s ago` : `${Math.floor(s / 3600)} h ago`;
  return (
    <span title={new Date(at).toLocaleString()}>
      {prefix} {text}
    </span>
  );
}
