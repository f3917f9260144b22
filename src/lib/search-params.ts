/**
 * URL search values stay readable: `?archived=false&status=running`, not `?archived=%22false%22`. Numbers and
 * JSON lists or objects are JSON in the URL; every other value is a plain string, `true` and `false`
 * included (the screens' search schemas read those words). A string that would read back as a number or as
 * JSON is quoted, so every value round-trips.
 */
import type { SearchSchemaInput } from '@tanstack/react-router';

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

/**
 * Routes' `validateSearch` without zod. The route tree (and so every route's search validation) is on the first
 * screen, which loads no zod: the screens' zod schemas stay the reference for their types and are checked
 * against these readers in src/routes/-search.test.ts. Each reader takes a value as `parseSearch` (or a
 * navigation) gives it and answers the screen's value; an unreadable value falls back as `.catch` would.
 */
export type SearchField<T> = (value: unknown) => T;

/** One of `values`, else undefined (as `z.enum(values).optional().catch(undefined)`). */
export const oneOf =
  <const T extends readonly string[]>(values: T): SearchField<T[number] | undefined> =>
  (v) =>
    values.includes(v as string) ? (v as T[number]) : undefined;

/** One of `values`, else `fallback` (as `z.enum(values).default(fallback).catch(fallback)`). */
export const oneOfOr =
  <const T extends readonly string[]>(values: T, fallback: T[number]): SearchField<T[number]> =>
  (v) =>
    values.includes(v as string) ? (v as T[number]) : fallback;

/**
 * A safe integer of at least `min`, else undefined (as `z.number().int().min(min).optional().catch(undefined)`);
 * with `coerce`, any value but undefined is read through `Number()` first, as `z.coerce.number()` does.
 */
export const integer =
  ({ min = 0, coerce = false }: { min?: number; coerce?: boolean } = {}): SearchField<number | undefined> =>
  (v) => {
    if (v === undefined) return undefined;
    const n = coerce ? Number(v) : v;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= min ? n : undefined;
  };

/** A string of `min` to `max` characters (matching `pattern`), else undefined. */
export const text =
  ({ min = 0, max = Infinity, pattern }: { min?: number; max?: number; pattern?: RegExp } = {}): SearchField<
    string | undefined
  > =>
  (v) =>
    typeof v === 'string' && v.length >= min && v.length <= max && (!pattern || pattern.test(v)) ? v : undefined;

/**
 * A comma-joined list (`?status=a,b`; a repeated key or a JSON list is read too): items trimmed, kept once,
 * 1 to 200 characters and among `allowed` when given, joined again; undefined when none is left.
 */
export const commaList =
  (allowed?: readonly string[]): SearchField<string | undefined> =>
  (v) => {
    if (v === undefined || v === null || v === '') return undefined;
    const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(','));
    const kept = [...new Set(parts.map((x) => x.trim()))].filter(
      (x) => x.length > 0 && x.length <= 200 && (!allowed || allowed.includes(x)),
    );
    return kept.length ? kept.join(',') : undefined;
  };

/** A route's search validator: `In` is what links may pass (the router's input type), `Out` what the screen reads. */
export interface SearchValidator<In, Out> {
  (input: In & SearchSchemaInput): Out;
  /** The keys it reads. */
  readonly keys: readonly string[];
}

/**
 * Reads each key of `shape` from the search; anything else is dropped. As zod's objects do, a key the search
 * holds stays (undefined when unreadable) and a missing one is left out unless its reader gives a default.
 */
export function searchValidator<In, Out>(shape: { [K in keyof Out]-?: SearchField<Out[K]> }): SearchValidator<In, Out> {
  const keys = Object.keys(shape) as Array<keyof Out & string>;
  const validate = (input: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const value = shape[key](input[key]);
      if (value !== undefined || key in input) out[key] = value;
    }
    return out as Out;
  };
  return Object.assign(validate, { keys }) as unknown as SearchValidator<In, Out>;
}
