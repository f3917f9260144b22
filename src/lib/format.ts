/** Formatting of the API's Unix-second timestamps and other values for people. */

// Built on first use, not at load: the shell imports this module, and building `Intl` formatters (locale data)
// cost the first screen's script run tens of milliseconds before anything needed them.
let dateTime: Intl.DateTimeFormat | undefined;
let relative: Intl.RelativeTimeFormat | undefined;

/**
 * The last strings formatted, by timestamp: a list formats the same instants again as rows re-render and come
 * back into view. Bounded; cleared whole when full.
 */
const dateTimeCache = new Map<number, string>();
const DATE_TIME_CACHE_MAX = 5_000;

export function formatDateTime(unixSeconds: number | null | undefined): string {
  if (unixSeconds === null || unixSeconds === undefined) return '—';
  let text = dateTimeCache.get(unixSeconds);
  if (text === undefined) {
    dateTime ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
    text = dateTime.format(new Date(unixSeconds * 1000));
    if (dateTimeCache.size >= DATE_TIME_CACHE_MAX) dateTimeCache.clear();
    dateTimeCache.set(unixSeconds, text);
  }
  return text;
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

/** "5 minutes ago" by unit and amount: a list's times repeat a few dozen phrases. */
const relativeCache = new Map<string, string>();

function relativePhrase(amount: number, unit: Intl.RelativeTimeFormatUnit): string {
  const key = `${amount} ${unit}`;
  let text = relativeCache.get(key);
  if (text === undefined) {
    relative ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
    text = relative.format(amount, unit);
    if (relativeCache.size >= 1_000) relativeCache.clear();
    relativeCache.set(key, text);
  }
  return text;
}

export function formatRelative(unixSeconds: number | null | undefined, nowMs = Date.now()): string {
  if (unixSeconds === null || unixSeconds === undefined) return '—';
  const diff = unixSeconds - nowMs / 1000;
  const abs = Math.abs(diff);
  if (abs < 5) return 'just now';
  for (const [unit, secs] of UNITS) {
    if (abs >= secs || unit === 'second') return relativePhrase(Math.round(diff / secs), unit);
  }
  return relativePhrase(Math.round(diff), 'second');
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

/**
 * One formatter per number of digits: `toLocaleString` with options builds a new `Intl.NumberFormat` on every
 * call (tens of microseconds), which a list's cells pay per row.
 */
const numberFormats = new Map<number, Intl.NumberFormat>();

export function formatNumber(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined) return '—';
  let format = numberFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { maximumFractionDigits: digits });
    numberFormats.set(digits, format);
  }
  return format.format(n);
}
