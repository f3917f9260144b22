/**
 * A Unix-seconds timestamp, relative ("5 min ago") or absolute (local date and time) as the admin chose in the
 * header; the other form, and UTC, on hover.
 *
 * Cheap enough for every row of a long list: one clock ticks for all of them (one timer, not one per cell,
 * running only while a time is on screen), the formatters are shared (lib/format), and a time re-renders only
 * when its value, the display choice or the clock changes.
 */
import { memo, useSyncExternalStore } from 'react';
import { formatDateTime, formatRelative, formatUtc } from '@/lib/format';
import { useTimeDisplay } from '@/lib/time-display';

/** How often relative times are brought up to date. */
export const RELATIVE_TIME_TICK_MS = 15_000;

const clockListeners = new Set<() => void>();
let clockNow = Date.now();
let clockTimer: ReturnType<typeof setInterval> | undefined;

function subscribeClock(listener: () => void): () => void {
  if (clockListeners.size === 0) {
    clockTimer = setInterval(() => {
      clockNow = Date.now();
      clockListeners.forEach((l) => l());
    }, RELATIVE_TIME_TICK_MS);
  }
  clockListeners.add(listener);
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size === 0 && clockTimer !== undefined) {
      clearInterval(clockTimer);
      clockTimer = undefined;
    }
  };
}

/** While no time is on screen the clock stands still: the first to read it again brings it up to date. */
function readClock(): number {
  if (clockListeners.size === 0 && Date.now() - clockNow > 1_000) clockNow = Date.now();
  return clockNow;
}

/** The shared clock's time (ms), re-rendering every RELATIVE_TIME_TICK_MS. */
export function useRelativeTimeClock(): number {
  return useSyncExternalStore(subscribeClock, readClock, readClock);
}

/** The value's fixed strings (machine-readable and UTC), by value: rows format the same instants again. */
const fixedParts = new Map<number, { iso: string; utc: string }>();

function partsOf(value: number): { iso: string; utc: string } {
  let parts = fixedParts.get(value);
  if (!parts) {
    if (fixedParts.size >= 5_000) fixedParts.clear();
    const iso = new Date(value * 1000).toISOString();
    // formatUtc's form (whole seconds), from the same string.
    parts = { iso, utc: iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : formatUtc(value) };
    fixedParts.set(value, parts);
  }
  return parts;
}

export const RelativeTime = memo(function RelativeTime({
  value,
  className,
}: {
  value: number | null | undefined;
  className?: string;
}) {
  const display = useTimeDisplay();
  const now = useRelativeTimeClock();
  if (value === null || value === undefined) return <span className={className}>—</span>;
  const relative = formatRelative(value, now);
  const absolute = formatDateTime(value);
  const { iso, utc } = partsOf(value);
  return (
    <time
      dateTime={iso}
      title={display === 'absolute' ? `${relative} (${utc})` : `${absolute} (${utc})`}
      className={className}
    >
      {display === 'absolute' ? absolute : relative}
    </time>
  );
});
