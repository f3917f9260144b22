/** Formatting of the API's Unix-second timestamps and other values for people. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export function formatDateTime(unixSeconds: number | null | undefined): string {
  if (unixSeconds === null || unixSeconds === undefined) return '—';
  return dateTime.format(new Date(unixSeconds * 1000));
}

export function formatUtc(unixSeconds: number | null | undefined): string {
  if (unixSeconds === null || unixSeconds === undefined) return '—';
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

export function formatRelative(unixSeconds: number | null | undefined, nowMs = Date.now()): string {
  if (unixSeconds === null || unixSeconds === undefined) return '—';
  const diff = unixSeconds - nowMs / 1000;
  const abs = Math.abs(diff);
  if (abs < 5) return 'just now';
  for (const [unit, secs] of UNITS) {
    if (abs >= secs || unit === 'second') return relative.format(Math.round(diff / secs), unit);
  }
  return relative.format(Math.round(diff), 'second');
}

/** "3 min 20 s" for durations in seconds. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min ${rest} s`;
  return `${rest} s`;
}

export function formatNumber(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined) return '—';
  return n.toLocaleString(undefined, { maximumFractionDigits: digits });
}
