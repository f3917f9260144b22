/**
 * The searches' record shape is not published: the list shows whatever fields arrive. These helpers pick the
 * columns (every field seen in the loaded records, known ones first) and turn any value into text.
 */

/** Fields shown first when present, in this order. */
const PREFERRED = ['query', 'created_at', 'user_id', 'org_id', 'source', 'result_count', 'repositories', 'search_id'];
export const MAX_FIELDS = 16;

/** The fields of the records, preferred ones first, then the others in the order they were first seen. */
export function fieldsOf(records: ReadonlyArray<Record<string, unknown>>): string[] {
  const seen = new Set<string>();
  for (const r of records) {
    for (const k of Object.keys(r)) {
      seen.add(k);
      if (seen.size >= 64) break;
    }
  }
  const preferred = PREFERRED.filter((k) => seen.has(k));
  const rest = [...seen].filter((k) => !PREFERRED.includes(k));
  return [...preferred, ...rest].slice(0, MAX_FIELDS);
}

/** Headers of fields whose cells show a name beside the id. */
const LABELS: Record<string, string> = { org_id: 'Organization', user_id: 'User' };

/** A field name as a column header: `result_count` → "Result count". */
export function fieldLabel(key: string): string {
  if (LABELS[key]) return LABELS[key];
  const words = key.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

/** True for fields that hold a Unix-seconds time (`created_at`, `…_at` numbers). */
export const isTimeField = (key: string, value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && /(_at|_time)$/.test(key) && value > 0;

/** Any value as text: arrays joined, objects as JSON, empty as an em dash. */
export function fieldText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value))
    return value.length ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') : '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
