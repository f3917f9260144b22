/**
 * The bulk editor's model, pure: draft rows, their validation (the contract's rules, mapped to rows and
 * fields), CSV and JSON import/export, and reapplying an edit on top of a set that changed meanwhile.
 */
import {
  diffGitPermissionSets,
  normalizeGitPermission,
  type NormalizedGitPermission,
} from '@/api/git-permissions/set-diff';
import { gitPermissionKey, type GitPermissionInput, type MatcherField } from '@/api/git-permissions/resources';
import { validateGitPermissionSet } from '@/api/git-permissions/rules';
import { parseCsvRecords, toCsv as toCsvText } from '@/lib/csv';

/** One row of the editor: a permission being edited, with a local id that survives edits. */
export interface DraftRow {
  rowId: string;
  /** The permission this row came from, when it was loaded from the current set. */
  git_permission_id?: string;
  git_connection_id: string;
  repo_path: string;
  prefix_path: string;
  group_prefix: string;
  read_only: boolean;
}

let nextRowId = 1;
export const newRowId = () => `row-${nextRowId++}`;

export function toDraftRow(p: GitPermissionInput & { git_permission_id?: string }): DraftRow {
  return {
    rowId: newRowId(),
    git_permission_id: p.git_permission_id,
    git_connection_id: p.git_connection_id ?? '',
    repo_path: p.repo_path ?? '',
    prefix_path: p.prefix_path ?? '',
    group_prefix: p.group_prefix ?? '',
    read_only: p.read_only ?? false,
  };
}

/** A row as the API reads it: "" means "not set" for the matchers (the contract's rule). */
export function toInput(row: DraftRow): NormalizedGitPermission {
  return normalizeGitPermission(row);
}

export type RowField = 'git_connection_id' | MatcherField | 'read_only' | 'row';

/** Row index → field → messages, from the contract's validator (count errors are returned apart). */
export interface DraftValidation {
  byRow: Map<number, Partial<Record<RowField, string[]>>>;
  /** Errors about the whole set (the 200 limit). */
  set: string[];
  duplicates: number;
  invalidRows: number;
}

export function validateDraft(rows: readonly DraftRow[], connectionIds?: ReadonlySet<string>): DraftValidation {
  const errors = validateGitPermissionSet(rows.map(toInput), { limit: null, connectionIds, loc: [] });
  const byRow = new Map<number, Partial<Record<RowField, string[]>>>();
  let duplicates = 0;
  for (const e of errors) {
    const [index, field] = e.loc as [number, string | undefined];
    const f = (field ?? 'row') as RowField;
    const entry = byRow.get(index) ?? {};
    (entry[f] ??= []).push(e.msg);
    byRow.set(index, entry);
    if (e.type === 'duplicate') duplicates++;
  }
  return { byRow, set: [], duplicates, invalidRows: byRow.size };
}

// ── CSV / JSON ─────────────────────────────────────────────────────────────────────────────────────────

export const CSV_COLUMNS = ['git_connection_id', 'repo_path', 'prefix_path', 'group_prefix', 'read_only'] as const;

/** The set as CSV (the shared writer: RFC 4180, CRLF, spreadsheet formulas guarded). */
export function toCsv(items: readonly GitPermissionInput[]): string {
  return toCsvText(
    CSV_COLUMNS,
    items.map((i) => [
      i.git_connection_id,
      i.repo_path ?? '',
      i.prefix_path ?? '',
      i.group_prefix ?? '',
      i.read_only ? 'true' : 'false',
    ]),
  );
}

export function toJson(items: readonly GitPermissionInput[]): string {
  return `${JSON.stringify({ permissions: items.map(normalizeGitPermission) }, null, 2)}\n`;
}

export interface ImportResult {
  items: GitPermissionInput[];
  errors: string[];
}

const TRUE = new Set(['true', '1', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'no', 'n', '']);

function readBool(v: unknown, where: string, errors: string[]): boolean {
  if (typeof v === 'boolean') return v;
  const s = String(v ?? '')
    .trim()
    .toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  errors.push(`${where}: read_only must be true or false, got "${String(v)}"`);
  return false;
}

/** Reads CSV with a header row naming the columns (any order; `read_only` optional). */
export function parseCsv(text: string): ImportResult {
  const records = parseCsvRecords(text.replace(/^\uFEFF/, ''), { unguard: true });
  const errors: string[] = [];
  if (records.length === 0) return { items: [], errors: ['The CSV is empty'] };
  const header = records[0]!.map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name);
  if (col('git_connection_id') < 0) {
    return {
      items: [],
      errors: [`The first line must name the columns: ${CSV_COLUMNS.join(',')} (git_connection_id is missing)`],
    };
  }
  const unknown = header.filter((h) => h !== '' && !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) errors.push(`Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (ignored)`);
  const items: GitPermissionInput[] = [];
  records.slice(1).forEach((r, i) => {
    const line = i + 2;
    const get = (name: string) => {
      const c = col(name);
      return c >= 0 ? (r[c] ?? '').trim() : '';
    };
    items.push({
      git_connection_id: get('git_connection_id'),
      repo_path: get('repo_path'),
      prefix_path: get('prefix_path'),
      group_prefix: get('group_prefix'),
      read_only: readBool(get('read_only'), `Line ${line}`, errors),
    });
  });
  return { items, errors };
}

/** Reads JSON: an array of permissions, or `{ "permissions": [...] }` (what the API's PUT takes). */
export function parseJson(text: string): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { items: [], errors: [`Not valid JSON: ${e instanceof Error ? e.message : 'parse error'}`] };
  }
  const list = Array.isArray(data) ? data : (data as { permissions?: unknown } | null)?.permissions;
  if (!Array.isArray(list))
    return { items: [], errors: ['JSON must be an array of permissions or an object with a "permissions" array'] };
  const errors: string[] = [];
  const items: GitPermissionInput[] = [];
  list.forEach((raw, i) => {
    if (typeof raw !== 'object' || raw === null) {
      errors.push(`Item ${i + 1}: not an object`);
      return;
    }
    const o = raw as Record<string, unknown>;
    const str = (k: string) => {
      const v = o[k];
      if (v === undefined || v === null) return '';
      if (typeof v !== 'string') {
        errors.push(`Item ${i + 1}: ${k} must be a string`);
        return '';
      }
      return v.trim();
    };
    items.push({
      git_connection_id: str('git_connection_id'),
      repo_path: str('repo_path'),
      prefix_path: str('prefix_path'),
      group_prefix: str('group_prefix'),
      read_only: o.read_only === undefined ? false : readBool(o.read_only, `Item ${i + 1}`, errors),
    });
  });
  return { items, errors };
}

/** CSV or JSON, told apart by the first character. */
export function parseImport(text: string): ImportResult {
  const t = text.trim();
  if (t === '') return { items: [], errors: ['Nothing to import: paste CSV or JSON, or choose a file'] };
  return t.startsWith('[') || t.startsWith('{') ? parseJson(t) : parseCsv(t);
}

// ── Reapplying an edit on top of a changed set ─────────────────────────────────────────────────────────

export interface RebaseResult {
  rows: DraftRow[];
  /** Where the admin's edit and the change that landed meanwhile touched the same permission. */
  conflicts: string[];
}

/**
 * Three-way: the admin's edit (base → draft) applied to the set as it is now. Removals the other change
 * already made stay removed; a permission the admin changed but the other change removed is added back (and
 * reported); the admin's read_only wins where both toggled the same permission (reported).
 */
export function rebaseDraft(
  base: readonly GitPermissionInput[],
  draft: readonly DraftRow[],
  current: ReadonlyArray<GitPermissionInput & { git_permission_id?: string }>,
  describe: (p: GitPermissionInput) => string,
): RebaseResult {
  const mine = diffGitPermissionSets(base.map(normalizeGitPermission), draft.map(toInput));
  const theirs = diffGitPermissionSets(base.map(normalizeGitPermission), current.map(normalizeGitPermission));
  const theirChanged = new Set(theirs.changed.map((c) => c.key));
  const theirRemoved = new Set(theirs.removed.map(gitPermissionKey));
  const removed = new Set(mine.removed.map(gitPermissionKey));
  const changed = new Map(mine.changed.map((c) => [c.key, c.after]));
  const conflicts: string[] = [];
  const rows: DraftRow[] = [];
  const present = new Set<string>();
  for (const p of current) {
    const key = gitPermissionKey(p);
    if (removed.has(key)) {
      if (theirChanged.has(key))
        conflicts.push(`${describe(p)}: you removed it; the other change toggled its read-only. It stays removed.`);
      continue;
    }
    present.add(key);
    const mineAfter = changed.get(key);
    if (mineAfter) {
      if (theirChanged.has(key) && (mineAfter.read_only ?? false) !== (p.read_only ?? false)) {
        conflicts.push(
          `${describe(p)}: both changed read-only; yours (${mineAfter.read_only ? 'read-only' : 'read and write'}) is kept.`,
        );
      }
      rows.push(toDraftRow({ ...p, read_only: mineAfter.read_only ?? false }));
    } else rows.push(toDraftRow(p));
  }
  for (const [key, after] of changed) {
    if (present.has(key) || !theirRemoved.has(key)) continue;
    conflicts.push(`${describe(after)}: the other change removed it; your read-only change adds it back.`);
    rows.push(toDraftRow(after));
    present.add(key);
  }
  for (const a of mine.added) {
    const key = gitPermissionKey(a);
    if (present.has(key)) {
      conflicts.push(`${describe(a)}: the other change added it too; one copy is kept with your read-only setting.`);
      const existing = rows.find((r) => gitPermissionKey(toInput(r)) === key);
      if (existing) existing.read_only = a.read_only ?? false;
      continue;
    }
    present.add(key);
    rows.push(toDraftRow(a));
  }
  return { rows, conflicts };
}
