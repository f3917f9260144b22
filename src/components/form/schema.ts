/**
 * What a form field reads from the contract's request schema: the schema of one field path, its documented
 * maximum (`z.string().max(n)`: characters, `z.array().max(n)`: items) and whether the API requires it. The
 * schema is the contract's own (src/api/), so a limit is written once and the form shows it before the server
 * enforces it. A limit checked by a `.refine` cannot be read, so the contract writes every limit as `.max()`.
 */
import type { z } from 'zod';

type Schema = z.core.$ZodType;
interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  checks?: Array<{ _zod: { def: { check: string; maximum?: number | bigint } } }>;
}

const def = (s: Schema) => s._zod.def as unknown as Def;

/** Wrappers that do not change what a value may be, only whether it may be absent. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

function unwrap(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const d = def(s);
    if (WRAPPERS.has(d.type) && d.innerType) s = d.innerType;
    // A preprocess or transform pipe is read on the side that describes the value.
    else if (d.type === 'pipe' && d.in && d.out) s = def(d.in).type === 'transform' ? d.out : d.in;
    else break;
  }
  return s;
}

/** The schema of a dotted field path (`session_secrets.0.value`), or undefined when the schema has none. */
export function schemaAt(schema: Schema, path: string): Schema | undefined {
  let s: Schema | undefined = schema;
  for (const part of path.split('.')) {
    if (!s) return undefined;
    const d = def(unwrap(s));
    if (d.type === 'object' && d.shape) s = d.shape[part];
    else if (d.type === 'array' && d.element && /^\d+$/.test(part)) s = d.element;
    else return undefined;
  }
  return s;
}

/** The `.max()` of a string (characters) or an array (items) at a path. */
export function maxOf(schema: Schema, path: string): number | undefined {
  const s = schemaAt(schema, path);
  if (!s) return undefined;
  let max: number | undefined;
  for (const check of def(unwrap(s)).checks ?? []) {
    const d = check._zod.def;
    if (d.check === 'max_length' && d.maximum !== undefined) max = Math.min(max ?? Infinity, Number(d.maximum));
  }
  return max;
}

/** Whether the API requires the field: it is in the schema and may not be left out. */
export function isRequired(schema: Schema, path: string): boolean {
  const s = schemaAt(schema, path);
  return s !== undefined && s._zod.optin !== 'optional' && def(s).type !== 'boolean';
}
