/**
 * Checks one answer of the upstream against the contract's response schema and the API's conventions:
 * missing required fields, wrong types, unknown enum values, timestamps that are not Unix seconds, and page
 * envelopes that break the paging rules. Fields the contract does not know are counted, never errors (the
 * real API has more fields than the spec shows).
 */
import type { z } from 'zod';
import type { ConformanceIssue, ConformanceKind } from '../../../api/console/doctor';
import type { OperationDef } from '../../../api/operations/define';
import { INDEX_JOB_STATUSES, RepoIndexJob } from '../../../api/operations/indexing';
import { Session, SESSION_STATUSES } from '../../../api/operations/sessions';
import { SNAPSHOT_BUILD_STATUSES, SnapshotBuild } from '../../../api/operations/snapshot-builds';

/** Past this, a timestamp is milliseconds (or nonsense), not seconds: 1e11 s is the year 5138. */
const MAX_PLAUSIBLE_SECONDS = 1e11;
/** Most defects and unknown fields reported per answer. */
const MAX_PER_ANSWER = 50;
/** Most values the unknown-field walk visits per answer. */
const MAX_NODES = 20_000;

export interface AnswerCheck {
  issues: ConformanceIssue[];
  /** Where the answer carries fields the contract does not know (`items[0].extra`). */
  unknown: string[];
}

/** `items[0].status`, `(body)` for the root. */
export function formatWhere(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || '(body)';
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, p as string)) {
      return { found: false, value: undefined };
    }
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return { found: true, value: cur };
}

/** What a value is, in a few words, for messages (never the whole value). */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array (${v.length} items)`;
  switch (typeof v) {
    case 'string': {
      const s = v.length > 40 ? `${v.slice(0, 40)}…` : v;
      return `the string ${JSON.stringify(s)}`;
    }
    case 'number':
      return Number.isInteger(v) ? `the integer ${v}` : `the number ${v}`;
    case 'boolean':
      return `the boolean ${v}`;
    case 'object':
      return 'an object';
    default:
      return typeof v;
  }
}

const isTimestampKey = (key: PropertyKey | undefined) => typeof key === 'string' && key.endsWith('_at');

function timestampProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return `a timestamp given as ${describeValue(value)}, not integer Unix seconds`;
  if (typeof value !== 'number') return `a timestamp given as ${describeValue(value)}, not integer Unix seconds`;
  if (!Number.isInteger(value)) return `a timestamp with a fraction (${value}), not integer Unix seconds`;
  if (value < 0) return `a negative timestamp (${value})`;
  if (value >= MAX_PLAUSIBLE_SECONDS) return `a timestamp in milliseconds (${value}), not Unix seconds`;
  return null;
}

function classify(issue: z.core.$ZodIssue, body: unknown): { kind: ConformanceKind; message: string } {
  const { found, value } = valueAt(body, issue.path);
  const key = issue.path[issue.path.length - 1];
  if (isTimestampKey(key) && found) {
    return { kind: 'timestamp', message: timestampProblem(value) ?? issue.message };
  }
  if (!found) {
    return { kind: 'missing_field', message: 'a required field is missing' };
  }
  switch (issue.code) {
    case 'invalid_value': {
      const values = (issue as { values?: unknown[] }).values ?? [];
      const known = values.length ? `; the contract knows ${values.map((v) => JSON.stringify(v)).join(', ')}` : '';
      return { kind: 'unknown_enum', message: `unknown value ${describeValue(value)}${known}` };
    }
    case 'invalid_type':
      return {
        kind: 'wrong_type',
        message: `expected ${(issue as { expected?: string }).expected ?? 'another type'}, got ${describeValue(value)}`,
      };
    case 'invalid_union':
      return { kind: 'wrong_type', message: `${describeValue(value)} matches none of the shapes the contract allows` };
    default:
      return { kind: 'other', message: `${issue.message} (got ${describeValue(value)})` };
  }
}

/**
 * Value sets of fields the contract keeps open (any string, so a new status never breaks a screen) but whose
 * known values it lists: a value outside them is reported as an unknown enum value. Besides these, a response
 * field named like an enum query parameter of the same operation (a `status` filter) is held to its values.
 */
const KNOWN_VALUES = new Map<unknown, Record<string, readonly string[]>>([
  [Session, { status: SESSION_STATUSES }],
  [SnapshotBuild, { status: SNAPSHOT_BUILD_STATUSES }],
  [RepoIndexJob, { status: INDEX_JOB_STATUSES }],
]);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
  valueType?: z.ZodType;
  out?: z.ZodType;
  entries?: Record<string, string | number>;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The values of an enum query parameter (also inside optional, default, array or a preprocessing pipe). */
function enumValues(schema: z.ZodType | undefined, depth = 0): string[] | null {
  if (!schema || depth > 8) return null;
  const def = defOf(schema);
  if (def.type === 'enum' && def.entries) return Object.values(def.entries).map(String);
  const inner = def.innerType ?? def.element ?? (def.type === 'pipe' ? (def.out ?? def.in) : undefined);
  return enumValues(inner, depth + 1) ?? (def.type === 'pipe' ? enumValues(def.in, depth + 1) : null);
}

function queryEnums(op: OperationDef): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = {};
  const shape = (op.query?.shape ?? {}) as Record<string, z.ZodType>;
  for (const [k, v] of Object.entries(shape)) {
    const values = enumValues(v);
    if (values) out[k] = values;
  }
  return out;
}

interface WalkOut {
  unknown: string[];
  timestamps: Array<{ path: PropertyKey[]; message: string }>;
  enums: Array<{ path: PropertyKey[]; message: string }>;
  nodes: number;
  queryEnums: Record<string, readonly string[]>;
}

/**
 * Walks the answer beside its schema: collects the fields the schema does not know, and checks timestamps the
 * schema knows for plausibility (an integer in milliseconds passes an integer schema).
 */
function walk(schema: z.ZodType, value: unknown, path: PropertyKey[], out: WalkOut): void {
  if (++out.nodes > MAX_NODES || value === undefined) return;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      if (value === null && def.type === 'nullable') return;
      if (def.innerType) walk(def.innerType, value, path, out);
      return;
    case 'pipe':
      if (def.in) walk(def.in, value, path, out);
      return;
    case 'lazy':
      if (def.getter) walk(def.getter(), value, path, out);
      return;
    case 'union': {
      const match = def.options?.find((o) => o.safeParse(value).success);
      if (match) walk(match, value, path, out);
      return;
    }
    case 'array':
      if (Array.isArray(value) && def.element) {
        value.forEach((item, i) => walk(def.element!, item, [...path, i], out));
      }
      return;
    case 'record':
      if (value && typeof value === 'object' && !Array.isArray(value) && def.valueType) {
        for (const [k, v] of Object.entries(value)) walk(def.valueType, v, [...path, k], out);
      }
      return;
    case 'object': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return;
      const shape = def.shape ?? {};
      const known = { ...out.queryEnums, ...KNOWN_VALUES.get(schema) };
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const field = shape[k];
        if (!field) {
          out.unknown.push(formatWhere([...path, k]));
          continue;
        }
        const values = known[k];
        if (typeof v === 'string' && values && !values.includes(v) && !enumValues(field)) {
          out.enums.push({
            path: [...path, k],
            message: `unknown value ${describeValue(v)}; the contract knows ${values.map((x) => JSON.stringify(x)).join(', ')}`,
          });
        }
        if (isTimestampKey(k) && typeof v === 'number') {
          const problem = timestampProblem(v);
          if (problem) out.timestamps.push({ path: [...path, k], message: problem });
        }
        walk(field, v, [...path, k], out);
      }
      return;
    }
    default:
      return;
  }
}

/** The paging rules of the page envelope (spec: "Page envelope"). */
function pagingIssues(body: unknown, first: number | undefined): Array<{ where: string; message: string }> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const page = body as { items?: unknown; end_cursor?: unknown; has_next_page?: unknown };
  const out: Array<{ where: string; message: string }> = [];
  const hasCursor = typeof page.end_cursor === 'string' && page.end_cursor !== '';
  if (page.has_next_page === true && !hasCursor) {
    out.push({
      where: 'end_cursor',
      message: `has_next_page is true but end_cursor is ${describeValue(page.end_cursor ?? null)}: the next page cannot be asked for`,
    });
  }
  if (page.has_next_page !== true && hasCursor) {
    out.push({
      where: 'end_cursor',
      message: 'a cursor on the last page: end_cursor is given while has_next_page is false (it must be null)',
    });
  }
  if (first !== undefined && Array.isArray(page.items) && page.items.length > first) {
    out.push({ where: 'items', message: `${page.items.length} items on a page asked for with first=${first}` });
  }
  return out;
}

/** Checks one answer (already parsed JSON) of `op`, asked for with `first` items when it is a list. */
export function checkAnswer(op: OperationDef, body: unknown, first?: number): AnswerCheck {
  const issues: ConformanceIssue[] = [];
  const add = (where: string, kind: ConformanceKind, message: string) => {
    if (issues.length < MAX_PER_ANSWER && !issues.some((i) => i.where === where && i.kind === kind)) {
      issues.push({ operation_id: op.id, where, kind, message });
    }
  };
  const walked: WalkOut = { unknown: [], timestamps: [], enums: [], nodes: 0, queryEnums: queryEnums(op) };
  if (op.response) {
    const parsed = op.response.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const { kind, message } = classify(issue, body);
        add(formatWhere(issue.path), kind, message);
      }
    }
    walk(op.response, body, [], walked);
    for (const t of walked.timestamps) add(formatWhere(t.path), 'timestamp', t.message);
    for (const e of walked.enums) add(formatWhere(e.path), 'unknown_enum', e.message);
  }
  if (op.paginated) {
    for (const p of pagingIssues(body, first)) add(p.where, 'paging', p.message);
  }
  return { issues, unknown: walked.unknown.slice(0, MAX_PER_ANSWER) };
}
