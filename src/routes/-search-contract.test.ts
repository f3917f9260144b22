/**
 * Every screen's search definition (src/features/<area>/search.ts) held to the contract: a free-text or list
 * filter at the contract's limit stays in the URL and reaches the list's query, which the API accepts; one past
 * the limit is dropped from the URL instead of being sent and refused. The limits are found by asking the
 * contract's own query schema what it accepts, never restated here, so changing a limit is one edit in the
 * contract and a definition that did not follow fails here.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { operations } from '@/api/operations';
import type { SearchDefinition, SearchField } from '@/lib/search-params';

type Definition = SearchDefinition<Record<string, unknown>, Record<string, unknown>>;

const modules = import.meta.glob<Record<string, unknown>>(['../features/*/search.ts', '../features/*/*-search.ts'], {
  eager: true,
});

const isDefinition = (v: unknown): v is Definition =>
  typeof v === 'object' && v !== null && 'parse' in v && 'fields' in v && 'filters' in v;

// A definition re-exported by the screen's helpers (search.ts) is counted once.
const definitions = [
  ...new Map(
    Object.entries(modules).flatMap(([file, exports]) =>
      Object.entries(exports)
        .filter((e): e is [string, Definition] => isDefinition(e[1]))
        .map(([name, def]) => [def, { name: `${file.replace('../features/', '')} ${name}`, def }] as const),
    ),
  ).values(),
];

/** The largest n in [lo, hi] for which `ok(n)` holds (ok is monotone: true up to the limit); hi when unbounded. */
function largest(ok: (n: number) => boolean, lo: number, hi: number): number {
  if (ok(hi)) return hi;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const UNBOUNDED_TEXT = 100_000;
const UNBOUNDED_COUNT = 2_000;

/** The query keys a filter changes, with the value it gives them. */
function paramsOf(def: Definition, field: string, value: string): string[] {
  const base = def.filters(def.parse({}));
  const probed = def.filters(def.parse({ [field]: value }));
  return Object.keys(probed).filter((k) => JSON.stringify(probed[k]) !== JSON.stringify(base[k]));
}

describe('search definitions and the contract', () => {
  it('finds the screens’ definitions', () => {
    expect(definitions.length).toBeGreaterThan(10);
  });

  const linked = definitions.filter(({ def }) => def.operation !== undefined);
  let probed = 0;

  for (const { name, def } of linked) {
    it(`${name}: ${def.operation} is an operation of the contract with a query`, () => {
      const op = (operations as Record<string, { query?: z.ZodObject }>)[def.operation!];
      expect(op?.query, `${def.operation} is not a list operation of the contract`).toBeDefined();
    });

    const op = (operations as Record<string, { query?: z.ZodObject }>)[def.operation!];
    const query = op?.query;
    if (!query) continue;
    const fields = def.fields as Record<string, SearchField<unknown>>;

    for (const [field, reader] of Object.entries(fields)) {
      if (!reader.kind) continue;
      it(`${name}: ${field} is kept up to the contract's limit and dropped past it`, () => {
        for (const param of paramsOf(def, field, 'org-abc')) {
          if (!(param in query.shape)) continue; // a path parameter or a filter applied in the browser
          const asList = Array.isArray(def.filters(def.parse({ [field]: 'org-abc' }))[param]);
          const accepts = (values: string[]) => query.safeParse({ [param]: asList ? values : values[0] }).success;
          const prefix = ['', 'org-'].find((p) => accepts([`${p}abc`]));
          if (prefix === undefined) continue; // the contract takes only values of a shape this probe does not make
          const make = (n: number, i = 0) => `${prefix}${String(i)}`.padEnd(n, 'a');
          const readBack = (value: string) => def.filters(def.parse({ [field]: value }))[param];

          // Characters of one value.
          const min = make(0).length + 1;
          const chars = largest((n) => accepts([make(n)]), min, UNBOUNDED_TEXT);
          const atLimit = readBack(make(chars));
          expect(asList ? atLimit : [atLimit], `${field} of ${chars} characters`).toEqual([make(chars)]);
          expect(accepts([make(chars)])).toBe(true);
          if (chars < UNBOUNDED_TEXT) {
            expect(def.parse({ [field]: make(chars + 1) })[field], `${field} of ${chars + 1} characters`).toBe(
              undefined,
            );
          }

          // Values of one list filter.
          if (reader.kind === 'list') {
            const list = (k: number) => Array.from({ length: k }, (_, i) => make(12, i));
            const count = largest((k) => accepts(list(k)), 1, UNBOUNDED_COUNT);
            expect(readBack(list(count).join(',')), `${count} ${field} values`).toEqual(list(count));
            if (count < UNBOUNDED_COUNT) {
              expect(def.parse({ [field]: list(count + 1).join(',') })[field], `${count + 1} values`).toBe(undefined);
            }
          }
          probed += 1;
        }
      });
    }
  }

  it('probed the limited filters', () => {
    expect(probed).toBeGreaterThan(5);
  });
});
