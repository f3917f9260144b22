/**
 * URL search values stay readable: `?archived=false&status=running`, not `?archived=%22false%22`. Numbers and
 * JSON lists or objects are JSON in the URL; every other value is a plain string, `true` and `false`
 * included (the screens' search schemas read those words). A string that would read back as a number or as
 * JSON is quoted, so every value round-trips.
 */
const JSON_START = /^(?:["[{]|-?\d)/;

function readValue(value: string): unknown {
  if (!JSON_START.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function writeValue(value: unknown): string {
  if (typeof value === 'string') return readValue(value) === value ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

export function parseSearch(searchStr: string): Record<string, unknown> {
  // A Map, then own properties: a `__proto__` key is a plain key, never the object's prototype.
  const out = new Map<string, unknown>();
  for (const [key, raw] of new URLSearchParams(searchStr.startsWith('?') ? searchStr.slice(1) : searchStr)) {
    const value = readValue(raw);
    const prev = out.get(key);
    // A repeated key (`?tag=a&tag=b`) reads as a list.
    out.set(key, prev === undefined ? value : Array.isArray(prev) ? [...(prev as unknown[]), value] : [prev, value]);
  }
  return Object.fromEntries(out);
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined) params.set(key, writeValue(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
