/**
 * The OpenAPI document shows every limit the contract enforces on what a request sends. Walking the operation
 * table, each string and array of a body or a query that the contract bounds — found by asking the schema itself
 * what it accepts, so a limit written as a refinement counts too — must carry the same `maxLength` or `maxItems`
 * in the document. A limit only a refinement knows is invisible to the document and to the form kit: it fails here.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildOpenApiDocument } from './openapi';
import { operationList } from './operations';

type Schema = z.core.$ZodType;
type Json = Record<string, unknown>;
interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  options?: Schema[];
  checks?: Array<{ _zod: { def: { check: string; maximum?: number | bigint } } }>;
}
const def = (s: Schema) => s._zod.def as unknown as Def;
const safeParse = (s: Schema, v: unknown) => (s as unknown as z.ZodType).safeParse(v).success;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

interface Bounded {
  path: string[];
  kind: 'string' | 'array';
  limit: number;
}

/** The largest n in [lo, hi] for which `ok(n)` holds (true up to the limit, false past it). */
function largest(ok: (n: number) => boolean, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const declaredMax = (s: Schema) =>
  (def(s).checks ?? [])
    .map((c) => c._zod.def)
    .filter((d) => d.check === 'max_length' && d.maximum !== undefined)
    .reduce<number | undefined>((m, d) => Math.min(m ?? Infinity, Number(d.maximum)), undefined);

const HUGE = 300_000;

/** The limit a node enforces: its `.max()`, or what probing finds (a refinement's limit). */
function limitOf(node: Schema, outer: Schema, kind: 'string' | 'array'): number | undefined {
  const declared = declaredMax(node);
  const make =
    kind === 'string' ? (n: number) => 'a'.repeat(n) : (n: number) => Array.from({ length: n }, (_, i) => `x${i}`);
  const small = kind === 'string' ? 16 : 1;
  let probed: number | undefined;
  if (safeParse(outer, make(small)) && !safeParse(outer, make(kind === 'string' ? HUGE : 20_000))) {
    probed = largest((n) => safeParse(outer, make(n)), small, kind === 'string' ? HUGE : 20_000);
  }
  if (declared === undefined) return probed;
  return probed === undefined ? declared : Math.min(declared, probed);
}

/** Every bounded string and array under a schema, by property path (`[]` for an array's items). */
function bounded(schema: Schema, path: string[] = [], out: Bounded[] = [], depth = 0): Bounded[] {
  if (depth > 12) return out;
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const d = def(s);
    if (WRAPPERS.has(d.type) && d.innerType) s = d.innerType;
    else if (d.type === 'pipe' && d.in && d.out) s = def(d.in).type === 'transform' ? d.out : d.in;
    else break;
  }
  const d = def(s);
  if (d.type === 'object' && d.shape) {
    for (const [key, child] of Object.entries(d.shape)) bounded(child, [...path, key], out, depth + 1);
  } else if (d.type === 'union' && d.options) {
    for (const option of d.options) bounded(option, path, out, depth + 1);
  } else if (d.type === 'array' && d.element) {
    const limit = limitOf(s, schema, 'array');
    if (limit !== undefined) out.push({ path, kind: 'array', limit });
    bounded(d.element, [...path, '[]'], out, depth + 1);
  } else if (d.type === 'string') {
    const limit = limitOf(s, schema, 'string');
    if (limit !== undefined) out.push({ path, kind: 'string', limit });
  }
  return out;
}

/** The document's schemas at a property path, through anyOf/oneOf/allOf and local references. */
function at(node: Json | undefined, path: string[], root: Json): Json[] {
  if (!node) return [];
  if (typeof node.$ref === 'string') {
    const ref =
      node.$ref === '#' ? root : (root.$defs as Record<string, Json> | undefined)?.[node.$ref.split('/').pop()!];
    return at(ref, path, root);
  }
  const branches = ['anyOf', 'oneOf', 'allOf'].flatMap((k) => (Array.isArray(node[k]) ? (node[k] as Json[]) : []));
  const viaBranches = branches.flatMap((b) => at(b, path, root));
  if (path.length === 0) return [node, ...viaBranches];
  const [head, ...rest] = path;
  const next =
    head === '[]' ? (node.items as Json | undefined) : (node.properties as Record<string, Json> | undefined)?.[head!];
  return [...at(next, rest, root), ...viaBranches];
}

const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Json>> };

describe('the OpenAPI document shows every limit', () => {
  it('every bounded body and query field carries its maxLength or maxItems', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const op of operationList) {
      const entry = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(entry, `${op.id} is in the document`).toBeDefined();
      const targets: Array<{ where: string; schema: Schema; json: (path: string[]) => Json[] }> = [];
      if (op.body) {
        const json = (entry!.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content?.[
          'application/json'
        ]?.schema;
        targets.push({ where: 'body', schema: op.body, json: (p) => at(json, p, json ?? {}) });
      }
      if (op.query) {
        const params = (entry!.parameters as Array<{ name: string; in: string; schema: Json }>).filter(
          (p) => p.in === 'query',
        );
        targets.push({
          where: 'query',
          schema: op.query,
          json: ([name, ...rest]) => {
            const schema = params.find((p) => p.name === name)?.schema;
            return at(schema, rest, schema ?? {});
          },
        });
      }
      for (const { where, schema, json } of targets) {
        for (const b of bounded(schema)) {
          checked += 1;
          const key = b.kind === 'string' ? 'maxLength' : 'maxItems';
          if (!json(b.path).some((j) => j[key] === b.limit)) {
            missing.push(`${op.id} ${where}.${b.path.join('.')}: ${key} ${b.limit}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('shows the git-permission replace body’s 200 as maxItems', () => {
    const put = operationList.find((o) => o.id === 'gitPermissions.replace');
    expect(put, 'the replace operation').toBeDefined();
    const body = (doc.paths[put!.path]!.put!.requestBody as { content: Record<string, { schema: Json }> }).content[
      'application/json'
    ]!.schema;
    expect(at(body, ['permissions'], body).some((j) => j.maxItems === 200)).toBe(true);
  });
});
