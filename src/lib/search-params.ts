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

/**
 * One screen's URL search, defined once in its feature without zod: it validates the URL (the route's
 * `validateSearch`), gives the type (`SearchOf`), the defaults the route strips from the URL and the filters
 * that key the screen's query (the route's `loaderDeps`, the screen's query). The route tree is on the first
 * screen, which loads no zod, so the readers below are plain functions; their limits are the contract's own
 * constants (src/api/values.ts, a module without schemas), and src/routes/-search-contract.test.ts holds every
 * definition that names its list operation to what the contract accepts. Each reader takes a value as
 * `parseSearch` (or a navigation) gives it and answers the screen's value; an unreadable value is no filter.
 */
export type SearchField<T> = ((value: unknown) => T) & {
  /** What the reader takes (free text, a comma-joined list): the contract test probes these at their limits. */
  readonly kind?: 'text' | 'list';
};

const withKind = <T>(kind: 'text' | 'list', read: (value: unknown) => T): SearchField<T> =>
  Object.assign(read, { kind });

/** One of `values`, else undefined. */
export const oneOf =
  <const T extends readonly string[]>(values: T): SearchField<T[number] | undefined> =>
  (v) =>
    values.includes(v as string) ? (v as T[number]) : undefined;

/** One of `values`, else `fallback`. */
export const oneOfOr =
  <const T extends readonly string[]>(values: T, fallback: T[number]): SearchField<T[number]> =>
  (v) =>
    values.includes(v as string) ? (v as T[number]) : fallback;

/**
 * A safe integer of at least `min`, else undefined; with `coerce`, any value but undefined or an empty string
 * is read through `Number()` first (`?time_after=1700000000` written as a string).
 */
export const integer =
  ({ min = 0, coerce = false }: { min?: number; coerce?: boolean } = {}): SearchField<number | undefined> =>
  (v) => {
    if (v === undefined || (coerce && v === '')) return undefined;
    const n = coerce ? Number(v) : v;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= min ? n : undefined;
  };

/**
 * A string of `min` to `max` characters (matching `pattern`), else undefined; with `trim`, read trimmed (and
 * a blank value is no filter).
 */
export const text = ({
  min = 0,
  max = Infinity,
  pattern,
  trim = false,
}: { min?: number; max?: number; pattern?: RegExp; trim?: boolean } = {}): SearchField<string | undefined> =>
  withKind('text', (v) => {
    if (typeof v !== 'string') return undefined;
    const s = trim ? v.trim() : v;
    if (trim && !s) return undefined;
    return s.length >= min && s.length <= max && (!pattern || pattern.test(s)) ? s : undefined;
  });

/**
 * A comma-joined list (`?status=a,b`; a repeated key or a JSON list is read too): items trimmed, kept once,
 * 1 to `max` characters and among `allowed` when given, joined again; undefined when none is left, or when
 * more than `count` are (the API would refuse the whole filter).
 */
export const commaList = ({
  allowed,
  max = Infinity,
  count = Infinity,
}: { allowed?: readonly string[]; max?: number; count?: number } = {}): SearchField<string | undefined> =>
  withKind('list', (v) => {
    if (v === undefined || v === null || v === '') return undefined;
    const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(','));
    const kept = [...new Set(parts.map((x) => x.trim()))].filter(
      (x) => x.length > 0 && x.length <= max && (!allowed || allowed.includes(x)),
    );
    return kept.length && kept.length <= count ? kept.join(',') : undefined;
  });

/** The items of a comma-joined list value. */
export function splitList(value: string | undefined): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

/** Values to a comma-joined list value (each once); undefined when there are none. */
export function joinList(values: readonly string[]): string | undefined {
  return values.length ? [...new Set(values)].join(',') : undefined;
}

type Fields = Record<string, SearchField<unknown>>;
type Read<F extends Fields> = { [K in keyof F]: ReturnType<F[K]> };
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** What a screen reads: a key whose reader may give undefined is optional. */
export type SearchOut<F extends Fields> = Simplify<
  { [K in Exclude<keyof F, OptionalKeys<Read<F>>>]: Read<F>[K] } & { [K in OptionalKeys<Read<F>>]?: Read<F>[K] }
>;

/** The search a screen's definition gives. */
export type SearchOf<D> = D extends SearchDefinition<infer Out, unknown> ? Out : never;

/**
 * A screen's search definition: the route's `validateSearch` as it is (a validator adapter: `types.input` is
 * what links may pass, every key optional; `parse` reads the URL).
 */
export interface SearchDefinition<Out, Filters> {
  readonly types: { input: { [K in keyof Out]?: Out[K] | undefined }; output: Out };
  parse(input: unknown): Out;
  /** The readers, one a key; anything else in the URL is dropped. */
  readonly fields: { readonly [K in keyof Out]-?: SearchField<Out[K]> };
  /** Values the URL leaves out (the route's `stripSearchParams`). */
  readonly defaults: Partial<Out>;
  /** What keys the screen's query: only what changes the answer, so equal filters give equal keys. */
  filters(search: Out): Filters;
  /** The contract's list operation whose query the filters are (`area.verb`), for the contract test. */
  readonly operation?: string;
}

const withoutUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * Defines a screen's search from its readers. As zod's objects do, a key the search holds stays (undefined
 * when unreadable) and a missing one is left out unless its reader gives a default.
 */
export function defineSearch<const F extends Fields, Filters = SearchOut<F>>(spec: {
  fields: F;
  defaults?: Partial<SearchOut<F>>;
  filters?: (search: SearchOut<F>) => Filters;
  operation?: string;
}): SearchDefinition<SearchOut<F>, Filters> {
  const keys = Object.keys(spec.fields);
  const parse = (raw: unknown) => {
    const input = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const value = spec.fields[key]!(input[key]);
      if (value !== undefined || key in input) out[key] = value;
    }
    return out as SearchOut<F>;
  };
  const filters = spec.filters ?? ((s: SearchOut<F>) => withoutUndefined(s) as unknown as Filters);
  // `types` is for the type checker only (the router reads it as a type, never at run time).
  const types = {} as SearchDefinition<SearchOut<F>, Filters>['types'];
  return {
    types,
    parse,
    // F is the readers as written; the definition names each by the value it gives (the same functions).
    fields: spec.fields as unknown as SearchDefinition<SearchOut<F>, Filters>['fields'],
    defaults: spec.defaults ?? {},
    filters,
    ...(spec.operation ? { operation: spec.operation } : {}),
  };
}
