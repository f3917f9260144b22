/**
 * The bulk editor's state, pure: the set the edit started from, the draft rows, the selection and the view —
 * edit ⇄ review → done, or → conflict when the set changed meanwhile — changed only by the actions below.
 * `draftSummary` and `draftLines` derive what the views show (validation, the diff, each row's status and
 * messages); the views render them and dispatch actions.
 */
import type { RowSelectionState } from '@tanstack/react-table';
import type { ConsoleApplyResult } from '@/api/console/git-permissions';
import {
  GIT_PERMISSIONS_MAX_PER_REQUEST,
  gitPermissionKey,
  type GitPermission,
  type GitPermissionInput,
} from '@/api/git-permissions/resources';
import {
  describeMatcher,
  diffGitPermissionSets,
  normalizeGitPermission,
  type GitPermissionDiff,
  type NormalizedGitPermission,
} from '@/api/git-permissions/set-diff';
import type { GitPermissionChangeOutcome, GitPermissionConflictBody } from './api';
import {
  rebaseDraft,
  toDraftRow,
  toInput,
  validateDraft,
  type DraftRow,
  type DraftValidation,
  type RowField,
} from './set-model';

export type EditorView = 'edit' | 'review' | 'conflict' | 'done';

/** A complete set and its version token, as the console server read it. */
export interface EditorBase {
  items: GitPermission[];
  version: string;
}

/** Field → messages of one row. */
export type RowErrors = Partial<Record<RowField, string[]>>;

export interface EditorConflict {
  /** The 409 body: the set as it is now, and what changed since the base. */
  body: GitPermissionConflictBody;
  /** What the admin tried: apply the edit, or clear every permission. */
  action: 'replace' | 'clear';
}

export interface EditorState {
  view: EditorView;
  base: EditorBase;
  rows: DraftRow[];
  /** Selected rows by `rowId` (the data table's selection state). */
  selection: RowSelectionState;
  /** Narrows the rows shown; never what is applied. */
  filter: string;
  /** A set over 200 is applied item by item only when the admin chose so. */
  perItem: boolean;
  /** After reapplying on top of a changed set: where the two changes met. */
  notes: string[];
  /** A refused apply's errors, by row and field, until the row is edited. */
  serverErrors: Readonly<Record<string, RowErrors>>;
  conflict: EditorConflict | null;
  result: ConsoleApplyResult | null;
}

export type EditorAction =
  | { type: 'rowChanged'; rowId: string; patch: Partial<Omit<DraftRow, 'rowId'>> }
  | { type: 'rowRemoved'; rowId: string }
  | { type: 'rowsAdded'; items: GitPermissionInput[] }
  | { type: 'draftReplaced'; items: GitPermissionInput[] }
  | { type: 'selectionChanged'; selection: RowSelectionState }
  | { type: 'selectionReadOnlySet'; readOnly: boolean }
  | { type: 'selectionRemoved' }
  | { type: 'filterChanged'; filter: string }
  | { type: 'perItemChanged'; perItem: boolean }
  | { type: 'editsDiscarded' }
  | { type: 'reviewOpened' }
  | { type: 'reviewClosed' }
  | { type: 'applied'; result: ConsoleApplyResult }
  | { type: 'conflicted'; conflict: GitPermissionConflictBody; action: EditorConflict['action'] }
  /** A 422: `fieldErrors` by path (`permissions.3.repo_path`, `permissions.3`); `rowIds` the rows sent, in order. */
  | { type: 'rejected'; rowIds: readonly string[]; fieldErrors: ReadonlyMap<string, readonly string[]> }
  | { type: 'reappliedOnTop' }
  /** Start from a set: the current one after a conflict ("Start over"), or the result ("Keep editing"). */
  | { type: 'startedOver'; set: EditorBase };

export const CLEAR_CONFLICT_NOTE =
  'The set changed before your clear was applied. Review it, then use “Clear all…” again to clear the current set.';

export function initialEditorState(set: EditorBase): EditorState {
  return {
    view: 'edit',
    base: { items: set.items, version: set.version },
    rows: set.items.map(toDraftRow),
    selection: {},
    filter: '',
    perItem: false,
    notes: [],
    serverErrors: {},
    conflict: null,
    result: null,
  };
}

function without<T>(record: Readonly<Record<string, T>>, keys: (key: string) => boolean): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => !keys(k)));
}

/** The row errors of a refused apply, from the paths the apply hook placed them at. */
export function rowErrorsOf(
  rowIds: readonly string[],
  fieldErrors: ReadonlyMap<string, readonly string[]>,
): Record<string, RowErrors> {
  const out: Record<string, RowErrors> = {};
  for (const [path, messages] of fieldErrors) {
    const [, index, field] = path.split('.');
    const rowId = rowIds[Number(index)];
    if (rowId === undefined) continue;
    const entry = (out[rowId] ??= {});
    (entry[(field ?? 'row') as RowField] ??= []).push(...messages);
  }
  return out;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'rowChanged':
      return {
        ...state,
        rows: state.rows.map((r) => (r.rowId === action.rowId ? { ...r, ...action.patch } : r)),
        serverErrors:
          action.rowId in state.serverErrors
            ? without(state.serverErrors, (k) => k === action.rowId)
            : state.serverErrors,
      };
    case 'rowRemoved':
      return {
        ...state,
        rows: state.rows.filter((r) => r.rowId !== action.rowId),
        selection: without(state.selection, (k) => k === action.rowId),
        serverErrors: without(state.serverErrors, (k) => k === action.rowId),
      };
    case 'rowsAdded':
      return { ...state, rows: [...action.items.map(toDraftRow), ...state.rows] };
    case 'draftReplaced':
      return { ...state, rows: action.items.map(toDraftRow), selection: {}, serverErrors: {} };
    case 'selectionChanged':
      return { ...state, selection: action.selection };
    case 'selectionReadOnlySet':
      return {
        ...state,
        rows: state.rows.map((r) => (state.selection[r.rowId] ? { ...r, read_only: action.readOnly } : r)),
      };
    case 'selectionRemoved':
      return {
        ...state,
        rows: state.rows.filter((r) => !state.selection[r.rowId]),
        selection: {},
        serverErrors: without(state.serverErrors, (k) => !!state.selection[k]),
      };
    case 'filterChanged':
      return { ...state, filter: action.filter };
    case 'perItemChanged':
      return { ...state, perItem: action.perItem };
    case 'editsDiscarded':
      return { ...state, rows: state.base.items.map(toDraftRow), selection: {}, serverErrors: {} };
    case 'reviewOpened':
      return state.view === 'edit' ? { ...state, view: 'review' } : state;
    case 'reviewClosed':
      return state.view === 'review' ? { ...state, view: 'edit' } : state;
    case 'applied':
      return { ...state, view: 'done', result: action.result, conflict: null, serverErrors: {} };
    case 'conflicted':
      return { ...state, view: 'conflict', conflict: { body: action.conflict, action: action.action } };
    case 'rejected':
      // Back to the rows, so the admin sees where each error is.
      return { ...state, view: 'edit', serverErrors: rowErrorsOf(action.rowIds, action.fieldErrors) };
    case 'reappliedOnTop': {
      const conflict = state.conflict;
      if (state.view !== 'conflict' || !conflict) return state;
      const current: EditorBase = { items: conflict.body.current, version: conflict.body.current_version };
      if (conflict.action === 'clear') return { ...startFrom(state, current), notes: [CLEAR_CONFLICT_NOTE] };
      const rebased = rebaseDraft(
        state.base.items.map(normalizeGitPermission),
        state.rows,
        current.items,
        describeMatcher,
      );
      return {
        ...state,
        view: 'review',
        base: current,
        rows: rebased.rows,
        selection: {},
        notes: rebased.conflicts,
        serverErrors: {},
        conflict: null,
      };
    }
    case 'startedOver':
      return startFrom(state, action.set);
  }
}

/**
 * The action an apply's outcome leads to: done, the conflict view, or the errors on their rows (`rowIds`: the
 * rows sent, in order). A failure leads to none: the form-level alert shows it and the view stays.
 */
export function outcomeAction(
  outcome: GitPermissionChangeOutcome,
  action: EditorConflict['action'],
  rowIds: readonly string[],
): EditorAction | null {
  switch (outcome.status) {
    case 'done':
      return { type: 'applied', result: outcome.result };
    case 'conflict':
      return { type: 'conflicted', conflict: outcome.conflict, action };
    case 'invalid':
      return { type: 'rejected', rowIds, fieldErrors: outcome.fieldErrors };
    case 'failed':
      return null;
  }
}

/** A fresh edit of a set; the filter and the per-item choice stay as the admin left them. */
function startFrom(state: EditorState, set: EditorBase): EditorState {
  return { ...initialEditorState(set), filter: state.filter, perItem: state.perItem };
}

// ── What the views show ───────────────────────────────────────────────────────────────────────────────

export interface DraftSummary {
  validation: DraftValidation;
  baseInputs: NormalizedGitPermission[];
  /** The draft's permissions by identity (connection and matcher), to tell what is already in it. */
  draftKeys: ReadonlySet<string>;
  /** Base → draft: what applying the edit does. */
  diff: GitPermissionDiff<NormalizedGitPermission>;
  changeCount: number;
  overLimit: boolean;
  hasChanges: boolean;
  valid: boolean;
  /** Valid, changed, and within one replace or applied item by item by choice. */
  canReview: boolean;
}

export function draftSummary(
  state: Pick<EditorState, 'rows' | 'base' | 'perItem'>,
  connectionIds?: ReadonlySet<string>,
): DraftSummary {
  const validation = validateDraft(state.rows, connectionIds);
  const baseInputs = state.base.items.map(normalizeGitPermission);
  const inputs = state.rows.map(toInput);
  const diff = diffGitPermissionSets(baseInputs, inputs);
  const changeCount = diff.added.length + diff.removed.length + diff.changed.length;
  const overLimit = state.rows.length > GIT_PERMISSIONS_MAX_PER_REQUEST;
  const valid = validation.invalidRows === 0;
  const hasChanges = changeCount > 0;
  return {
    validation,
    baseInputs,
    draftKeys: new Set(inputs.map(gitPermissionKey)),
    diff,
    changeCount,
    overLimit,
    hasChanges,
    valid,
    canReview: valid && hasChanges && (!overLimit || state.perItem),
  };
}

/** One row as the rows table shows it: its number, whether it is new or changed, and its messages. */
export interface DraftLine {
  row: DraftRow;
  /** 0-based position in the draft ("row 1" is index 0), whatever the filter shows. */
  index: number;
  status: 'new' | 'changed' | 'unchanged';
  /** The contract's rules as the admin types, and a refused apply's errors, per field. */
  errors: RowErrors;
}

export function draftLines(state: Pick<EditorState, 'rows' | 'serverErrors'>, summary: DraftSummary): DraftLine[] {
  const baseReadOnly = new Map(summary.baseInputs.map((p) => [gitPermissionKey(p), p.read_only]));
  return state.rows.map((row, index) => {
    const was = baseReadOnly.get(gitPermissionKey(toInput(row)));
    const local = summary.validation.byRow.get(index) ?? {};
    const server = state.serverErrors[row.rowId] ?? {};
    const errors: RowErrors = {};
    for (const field of new Set([...Object.keys(local), ...Object.keys(server)]) as Set<RowField>) {
      errors[field] = [...new Set([...(local[field] ?? []), ...(server[field] ?? [])])];
    }
    return {
      row,
      index,
      status: was === undefined ? 'new' : was !== row.read_only ? 'changed' : 'unchanged',
      errors,
    };
  });
}
