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
