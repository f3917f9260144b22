/**
 * The vendor-shaped sandbox (`SANDBOX_SHAPE=vendor`): which of an operation's paths the vendor's real service
 * serves, and its answers cut down to exactly what the vendor's OpenAPI document (`reference/vendor-openapi.json`)
 * declares. Derived from that document at run time, generically, so that the sandbox can stand in for the real
 * service: a console that works against this shape does not depend on anything only the sandbox says.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SandboxShape } from '../node/sandbox-shape';

/** `spec`: the contract's shapes at every path (the default); `vendor`: the vendor's, at the vendor's paths. */
export { SANDBOX_SHAPES, type SandboxShape } from '../node/sandbox-shape';

/** The parts of a JSON Schema (OpenAPI 3.0 dialect) that shaping reads. */
export interface VendorSchema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, VendorSchema>;
  required?: string[];
  additionalProperties?: boolean | VendorSchema;
  items?: VendorSchema;
  allOf?: VendorSchema[];
  anyOf?: VendorSchema[];
  oneOf?: VendorSchema[];
}

interface VendorResponse {
  content?: Record<string, { schema?: VendorSchema }>;
}

interface VendorOperationObject {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: { content?: Record<string, { schema?: VendorSchema }> };
  responses: Record<string, VendorResponse>;
}

export interface VendorDocument {
  openapi: string;
  paths: Record<string, Record<string, VendorOperationObject>>;
  components: { schemas: Record<string, VendorSchema> };
}

/** One operation of the vendor's document. */
export interface VendorOperation {
  method: string;
  /** The vendor's path template, as its document spells it. */
  path: string;
  operationId: string;
  /** Success statuses the vendor documents, with the JSON body schema of each (undefined: no body). */
  responses: ReadonlyMap<number, VendorSchema | undefined>;
  requestBody?: VendorSchema;
}

const DOCUMENT_URL = new URL('../../reference/vendor-openapi.json', import.meta.url);
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let document: VendorDocument | undefined;
let operations: Map<string, VendorOperation> | undefined;

/** The vendor's OpenAPI document, read once from the repository. */
export function vendorDocument(): VendorDocument {
  document ??= JSON.parse(readFileSync(fileURLToPath(DOCUMENT_URL), 'utf8')) as VendorDocument;
  return document;
}

/** `GET /v3/x/{}`: parameter names differ between documents, the route does not. */
function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;
}

function indexOperations(): Map<string, VendorOperation> {
  const out = new Map<string, VendorOperation>();
  for (const [path, item] of Object.entries(vendorDocument().paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const responses = new Map<number, VendorSchema | undefined>();
      for (const [status, response] of Object.entries(op.responses)) {
        if (/^2\d\d$/.test(status)) responses.set(Number(status), response.content?.['application/json']?.schema);
      }
      out.set(routeKey(method, path), {
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        responses,
        requestBody: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return out;
}

/** Every operation of the vendor's document. */
export function vendorOperations(): VendorOperation[] {
  operations ??= indexOperations();
  return [...operations.values()];
}

/** The vendor's operation at this method and path template (`{name}` placeholders, any names), if it has one. */
export function findVendorOperation(method: string, pathTemplate: string): VendorOperation | undefined {
  operations ??= indexOperations();
  return operations.get(routeKey(method, pathTemplate));
}

/**
 * The paths an operation is served at in a shape: in `vendor`, only those the vendor's document has for its
 * method, when it has any (so a client has to find the vendor's path); otherwise all of them.
 */
export function servedPaths(
  method: string,
  paths: readonly string[],
  shape: SandboxShape,
): Array<{ path: string; vendor: VendorOperation | undefined }> {
  const all = paths.map((path) => ({
    path,
    vendor: shape === 'vendor' ? findVendorOperation(method, path) : undefined,
  }));
  const vendorOnes = all.filter((p) => p.vendor);
  return vendorOnes.length > 0 ? vendorOnes : all.map((p) => ({ path: p.path, vendor: undefined }));
}

function deref(schema: VendorSchema): VendorSchema {
  let s = schema;
  for (let hops = 0; s.$ref && hops < 32; hops++) {
    const name = s.$ref.replace(/^#\/components\/schemas\//, '');
    const target = vendorDocument().components.schemas[name];
    if (!target) throw new Error(`the vendor's document has no schema ${s.$ref}`);
    s = target;
  }
  return s;
}

/** allOf folded into one schema: the union of the parts' properties and requirements. */
function merged(schema: VendorSchema): VendorSchema {
  const s = deref(schema);
  if (!s.allOf) return s;
  const out: VendorSchema = {
    ...s,
    allOf: undefined,
    properties: { ...s.properties },
    required: [...(s.required ?? [])],
  };
  for (const part of s.allOf.map(merged)) {
    out.type ??= part.type;
    out.enum ??= part.enum;
    out.format ??= part.format;
    out.items ??= part.items;
    out.additionalProperties ??= part.additionalProperties;
    Object.assign(out.properties!, part.properties);
    out.required!.push(...(part.required ?? []));
  }
  if (Object.keys(out.properties!).length === 0) delete out.properties;
  return out;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeFits(schema: VendorSchema, value: unknown): boolean {
  const t = jsonType(value);
  if (t === 'null') return schema.nullable === true;
  if (!schema.type) return true;
  return (
    schema.type === t ||
    (schema.type === 'number' && t === 'integer') ||
    (schema.type === 'object' && !!schema.properties && t === 'object')
  );
}

/** anyOf/oneOf: the variant the value fits best (its type, then the most of its required fields present). */
function chooseVariant(variants: VendorSchema[], value: unknown): VendorSchema | undefined {
  let best: { schema: VendorSchema; score: number } | undefined;
  for (const variant of variants.map(merged)) {
    if (!typeFits(variant, value)) continue;
    const record = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    const required = variant.required ?? [];
    const missing = required.filter((k) => !(k in record)).length;
    const score = (required.length - missing) * 2 - missing * 100;
    if (!best || score > best.score) best = { schema: variant, score };
  }
  return best?.schema;
}

/**
 * Where the sandbox's value of an enum is not one of the vendor's: the vendor's nearest word, when its enum has
 * it. Keyed by the sandbox's word.
 */
const ENUM_WORDS: Readonly<Record<string, readonly string[]>> = {
  // The spec's level word; the vendor's role_type and access_type say `org`.
  organization: ['org'],
  // The spec's agent-neutral name for the default agent; the vendor's schedules name it.
  agent: ['devin'],
  // A dictionary secret (the spec's deprecated type, read only) holds key-value pairs; the vendor has no such type.
  dictionary: ['key-value'],
};

function vendorEnumValue(value: string, allowed: readonly unknown[]): string {
  if (allowed.includes(value)) return value;
  return ENUM_WORDS[value]?.find((w) => allowed.includes(w)) ?? value;
}

/**
 * `value` cut down to what `schema` declares, recursively: properties the schema does not name are dropped (an
 * object schema without properties, or with `additionalProperties`, keeps its free-form members), enums use the
 * vendor's words, and a Unix time the vendor spells as a `date-time` string is written as one. Nothing is added:
 * a field the vendor requires and the sandbox lacks stays missing, so that a strict check reports it.
 */
export function shapeToSchema(value: unknown, schema: VendorSchema | undefined): unknown {
  if (!schema || value === null || value === undefined) return value;
  let s = merged(schema);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const chosen = chooseVariant(variants, value);
    if (!chosen) return value;
    s = chosen;
  }
  if (Array.isArray(value)) {
    return s.items ? value.map((item) => shapeToSchema(item, s.items)) : value;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (!s.properties) {
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        const extra = s.additionalProperties;
        return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, shapeToSchema(v, extra)]));
      }
      return value;
    }
    const out: Record<string, unknown> = {};
    for (const [key, propSchema] of Object.entries(s.properties)) {
      if (key in record) out[key] = shapeToSchema(record[key], propSchema);
    }
    if (s.additionalProperties) {
      for (const [key, v] of Object.entries(record)) {
        if (key in out || key in s.properties) continue;
        out[key] = typeof s.additionalProperties === 'object' ? shapeToSchema(v, s.additionalProperties) : v;
      }
    }
    return out;
  }
  if (typeof value === 'string' && s.enum) return vendorEnumValue(value, s.enum);
  if (typeof value === 'number' && s.type === 'string' && s.format === 'date-time') {
    return new Date(value * 1000).toISOString();
  }
  return value;
}

/**
 * A success answer of the sandbox as the vendor gives it: the vendor's status (its one documented success status
 * when the sandbox's differs, e.g. 200 for a create the spec answers with 201) and body.
 */
export function vendorAnswer(op: VendorOperation, status: number, body: unknown): { status: number; body: unknown } {
  let vendorStatus = status;
  if (!op.responses.has(status) && op.responses.size === 1) vendorStatus = [...op.responses.keys()][0]!;
  const schema = op.responses.get(vendorStatus);
  if (vendorStatus === 204) return { status: 204, body: undefined };
  return { status: vendorStatus, body: shapeToSchema(body, schema) };
}

/** The component name a schema reference points at (`#/components/schemas/Role` → `Role`). */
function refName(schema: VendorSchema): string | undefined {
  return schema.$ref?.replace(/^#\/components\/schemas\//, '');
}

/**
 * The fields of `value` that `schema` does not declare, as `Schema.field` (the nearest named schema): what the
 * spec-shaped sandbox sends beyond the vendor, for the faithfulness test to check against its list of
 * spec-mandated differences.
 */
export function undeclaredFields(value: unknown, schema: VendorSchema | undefined, name = '(answer)'): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  const here = refName(schema) ?? name;
  let s = merged(schema);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const chosen = chooseVariant(variants, value);
    if (!chosen) return [];
    s = chosen;
  }
  if (Array.isArray(value)) {
    const items = s.items;
    if (!items) return [];
    return [...new Set(value.flatMap((item) => undeclaredFields(item, items, refName(items) ?? `${here}[]`)))];
  }
  const record = value as Record<string, unknown>;
  if (!s.properties) {
    const extra = s.additionalProperties;
    if (!extra || typeof extra !== 'object') return [];
    return [...new Set(Object.values(record).flatMap((v) => undeclaredFields(v, extra, refName(extra) ?? here)))];
  }
  const out: string[] = [];
  for (const [key, v] of Object.entries(record)) {
    const prop = s.properties[key];
    if (prop) out.push(...undeclaredFields(v, prop, refName(prop) ?? `${here}.${key}`));
    else if (!s.additionalProperties) out.push(`${here}.${key}`);
  }
  return [...new Set(out)];
}
