/**
 * Local date-time ↔ the API's Unix seconds, for `<input type="datetime-local">`: the admin types local time,
 * the API takes UTC seconds, and the UTC value is shown beside the input (`formatUtc` in ./format).
 */
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Unix seconds → the value of a datetime-local input, in local time: `2026-03-01T14:05:09`, or to the minute
 * (`2026-03-01T14:05`) for inputs that do not show seconds. Empty for no value.
 */
export function toLocalInput(
  unixSeconds: number | null | undefined,
  precision: 'second' | 'minute' = 'second',
): string {
  if (unixSeconds === null || unixSeconds === undefined || !Number.isFinite(unixSeconds)) return '';
  const d = new Date(unixSeconds * 1000);
  const minute = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return precision === 'minute' ? minute : `${minute}:${pad(d.getSeconds())}`;
}

/** A datetime-local value (local time) → Unix seconds; undefined when empty or not a date-time. */
export function fromLocalInput(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return undefined;
  const ms = new Date(value).getTime(); // a date-time without an offset is read as local time
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * What an admin typed as a local date-time (`2026-03-01 14:05`, with seconds or a `T`, or a date alone for its
 * midnight) → the datetime-local value it means (`2026-03-01T14:05`); '' for nothing typed; null when it is not
 * a date-time (an impossible day such as Feb 30 included).
 */
export function parseTypedDateTime(text: string): string | null {
  const t = text.trim();
  if (t === '') return '';
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s] = m.slice(1).map((x) => x ?? undefined) as [
    string,
    string,
    string,
    string?,
    string?,
    string?,
  ];
  const n = (x: string) => Number(x);
  const date = new Date(n(y), n(mo) - 1, n(d), n(h), n(mi), n(s ?? '0'));
  if (date.getFullYear() !== n(y) || date.getMonth() !== n(mo) - 1 || date.getDate() !== n(d)) return null;
  if (n(h) > 23 || n(mi) > 59 || n(s ?? '0') > 59) return null;
  const base = `${y}-${pad(n(mo))}-${pad(n(d))}T${pad(n(h))}:${pad(n(mi))}`;
  return s === undefined ? base : `${base}:${s}`;
}
