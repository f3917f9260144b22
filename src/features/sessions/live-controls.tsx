/** The refresh interval control and the "live" indicator shared by the sessions screens. */
import { useId } from 'react';
import { useNow } from '@/lib/use-now';
import { ChoiceSelect } from './deferred-controls';
import { REFRESH_OPTIONS, useRefreshInterval } from './live';

const OPTIONS = REFRESH_OPTIONS.map((o) => ({ value: String(o.ms), label: o.label }));

export function RefreshIntervalSelect() {
  const [ms, setMs] = useRefreshInterval();
  const id = useId();
  return (
    <span className="flex items-center gap-1.5 text-xs font-medium text-muted">
      <label htmlFor={id}>Refresh every</label>
      <ChoiceSelect
        id={id}
        className="w-auto"
        value={String(ms)}
        onValueChange={(v) => setMs(Number(v))}
        options={OPTIONS}
      />
    </span>
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
