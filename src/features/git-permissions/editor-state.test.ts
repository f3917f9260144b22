/** The bulk editor's reducer: every action, every view transition, and what the views derive from it. */
import { describe, expect, it } from 'vitest';
import type { GitPermission } from '@/api/git-permissions/resources';
import { gitPermissionSetVersion, normalizeGitPermission } from '@/api/git-permissions/set-diff';
import {
  CLEAR_CONFLICT_NOTE,
  draftLines,
  draftSummary,
  editorReducer,
  initialEditorState,
  outcomeAction,
  rowErrorsOf,
  type EditorAction,
  type EditorState,
} from './editor-state';
import type { GitPermissionConflictBody } from './api';
import { applied, perm as gitPermission } from './test-fixtures';

const perm = (id: string, repo: string, read_only = false) => gitPermission(id, { repo_path: repo, read_only });

const BASE = [perm('gp-1', 'acme/api'), perm('gp-2', 'acme/web'), perm('gp-3', 'acme/ops', true)];
const start = () => initialEditorState({ items: BASE, version: gitPermissionSetVersion(BASE) });
const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(editorReducer, state);
const ids = (s: EditorState) => s.rows.map((r) => r.rowId);
const paths = (s: EditorState) => s.rows.map((r) => r.repo_path || r.group_prefix || r.prefix_path);

const result = applied;

function conflictOf(current: GitPermission[]): GitPermissionConflictBody {
  return {
    status: 409,
    title: 'Conflict',
    detail: 'The git permissions changed',
    base_version: gitPermissionSetVersion(BASE),
    current_version: gitPermissionSetVersion(current),
    current,
    changes: null,
  };
}

describe('editorReducer: editing', () => {
  it('starts in the edit view with one row per permission of the set, nothing selected', () => {
    const s = start();
    expect(s.view).toBe('edit');
    expect(paths(s)).toEqual(['acme/api', 'acme/web', 'acme/ops']);
    expect(s.selection).toEqual({});
    expect(s.conflict).toBeNull();
    expect(s.result).toBeNull();
  });

  it('changes a row, and drops that row’s server errors (only)', () => {
    let s = start();
    const [a, b] = ids(s);
    s = run(s, {
      type: 'rejected',
      rowIds: ids(s),
      fieldErrors: new Map([
        ['permissions.0.repo_path', ['bad']],
        ['permissions.1', ['also bad']],
      ]),
    });
    s = run(s, { type: 'rowChanged', rowId: a!, patch: { repo_path: 'acme/api2', read_only: true } });
    expect(s.rows[0]).toMatchObject({ repo_path: 'acme/api2', read_only: true });
    expect(s.serverErrors).toEqual({ [b!]: { row: ['also bad'] } });
  });

  it('removes a row with its selection and server errors', () => {
    let s = start();
    const [a, b] = ids(s);
    s = run(
      s,
      { type: 'selectionChanged', selection: { [a!]: true, [b!]: true } },
      { type: 'rejected', rowIds: ids(s), fieldErrors: new Map([['permissions.0.repo_path', ['bad']]]) },
      { type: 'rowRemoved', rowId: a! },
    );
    expect(paths(s)).toEqual(['acme/web', 'acme/ops']);
    expect(s.selection).toEqual({ [b!]: true });
    expect(s.serverErrors).toEqual({});
  });

  it('adds rows at the top, and replaces the draft on an import that replaces it', () => {
    let s = run(start(), { type: 'rowsAdded', items: [{ git_connection_id: 'conn-1', group_prefix: 'acme/new' }] });
    expect(paths(s)).toEqual(['acme/new', 'acme/api', 'acme/web', 'acme/ops']);
    s = run(
      s,
      { type: 'selectionChanged', selection: { [ids(s)[0]!]: true } },
      { type: 'draftReplaced', items: [{ git_connection_id: 'c2', prefix_path: 'x/' }] },
    );
    expect(paths(s)).toEqual(['x/']);
    expect(s.selection).toEqual({});
  });

  it('sets read-only for the selection, and removes the selection', () => {
    let s = start();
    const [a, , c] = ids(s);
    s = run(s, { type: 'selectionChanged', selection: { [a!]: true, [c!]: true } });
    s = run(s, { type: 'selectionReadOnlySet', readOnly: true });
    expect(s.rows.map((r) => r.read_only)).toEqual([true, false, true]);
    s = run(s, { type: 'selectionReadOnlySet', readOnly: false });
    expect(s.rows.map((r) => r.read_only)).toEqual([false, false, false]);
    s = run(s, { type: 'selectionRemoved' });
    expect(paths(s)).toEqual(['acme/web']);
    expect(s.selection).toEqual({});
  });

  it('keeps the filter and the per-item choice, and discards edits back to the set', () => {
    let s = run(
      start(),
      { type: 'filterChanged', filter: 'web' },
      { type: 'perItemChanged', perItem: true },
      { type: 'rowRemoved', rowId: ids(start())[0]! },
    );
    s = run(s, { type: 'rowRemoved', rowId: ids(s)[0]! }, { type: 'editsDiscarded' });
    expect(s.filter).toBe('web');
    expect(s.perItem).toBe(true);
    expect(paths(s)).toEqual(['acme/api', 'acme/web', 'acme/ops']);
  });
});

describe('editorReducer: views', () => {
  it('goes edit → review → edit, and opens the review only from the edit view', () => {
    const review = run(start(), { type: 'reviewOpened' });
    expect(review.view).toBe('review');
    expect(run(review, { type: 'reviewClosed' }).view).toBe('edit');
    const done = run(review, { type: 'applied', result: result(BASE) });
    expect(run(done, { type: 'reviewOpened' }).view).toBe('done');
    expect(run(done, { type: 'reviewClosed' }).view).toBe('done');
  });

  it('review → done on success, then "Keep editing" starts from the result', () => {
    const after = [perm('gp-1', 'acme/api', true)];
    const done = run(start(), { type: 'reviewOpened' }, { type: 'applied', result: result(after) });
    expect(done.view).toBe('done');
    expect(done.result?.count).toBe(1);
    const again = run(done, { type: 'startedOver', set: { items: after, version: gitPermissionSetVersion(after) } });
    expect(again.view).toBe('edit');
    expect(again.base.items).toEqual(after);
    expect(paths(again)).toEqual(['acme/api']);
    expect(again.result).toBeNull();
  });

  it('review → edit on a 422, with each error on the row that was sent at its index', () => {
    let s = run(start(), { type: 'reviewOpened' });
    const sent = ids(s);
    s = run(s, {
      type: 'rejected',
      rowIds: sent,
      fieldErrors: new Map([
        ['permissions.1.repo_path', ['repo_path must be a repository path']],
        ['permissions.2', ['Not allowed']],
        ['permissions.9.repo_path', ['not a row that was sent']],
      ]),
    });
    expect(s.view).toBe('edit');
    expect(s.serverErrors).toEqual({
      [sent[1]!]: { repo_path: ['repo_path must be a repository path'] },
      [sent[2]!]: { row: ['Not allowed'] },
    });
  });

  it('conflict → reapply on top: the edit is rebased onto the current set and shown for review', () => {
    let s = start();
    const [a] = ids(s);
    // Mine: gp-1 becomes read-only. Theirs (meanwhile): gp-2 removed, a new permission added.
    s = run(s, { type: 'rowChanged', rowId: a!, patch: { read_only: true } }, { type: 'reviewOpened' });
    const current = [perm('gp-1', 'acme/api'), perm('gp-3', 'acme/ops', true), perm('gp-9', 'acme/data')];
    s = run(s, { type: 'conflicted', conflict: conflictOf(current), action: 'replace' });
    expect(s.view).toBe('conflict');
    expect(s.conflict?.action).toBe('replace');

    s = run(s, { type: 'reappliedOnTop' });
    expect(s.view).toBe('review');
    expect(s.conflict).toBeNull();
    expect(s.base.version).toBe(gitPermissionSetVersion(current));
    expect(s.rows.map((r) => [r.repo_path, r.read_only])).toEqual([
      ['acme/api', true],
      ['acme/ops', true],
      ['acme/data', false],
    ]);
    // What remains to apply is my change only.
    const summary = draftSummary(s);
    expect([summary.diff.added.length, summary.diff.removed.length, summary.diff.changed.length]).toEqual([0, 0, 1]);
  });

  it('conflict on a clear → "Show the current set": a fresh edit of it, with a note', () => {
    const current = [perm('gp-1', 'acme/api'), perm('gp-7', 'acme/late')];
    let s = run(start(), { type: 'conflicted', conflict: conflictOf(current), action: 'clear' });
    expect(s.view).toBe('conflict');
    s = run(s, { type: 'reappliedOnTop' });
    expect(s.view).toBe('edit');
    expect(paths(s)).toEqual(['acme/api', 'acme/late']);
    expect(s.notes).toEqual([CLEAR_CONFLICT_NOTE]);
  });

  it('conflict → start over: the edit is dropped for the set as it is now', () => {
    const current = [perm('gp-5', 'acme/other')];
    let s = run(start(), { type: 'rowRemoved', rowId: ids(start())[0]! });
    s = run(s, { type: 'conflicted', conflict: conflictOf(current), action: 'replace' });
    s = run(s, { type: 'startedOver', set: { items: current, version: gitPermissionSetVersion(current) } });
    expect(s.view).toBe('edit');
    expect(s.conflict).toBeNull();
    expect(paths(s)).toEqual(['acme/other']);
    expect(s.notes).toEqual([]);
  });

  it('ignores "reapply" outside the conflict view', () => {
    const s = start();
    expect(run(s, { type: 'reappliedOnTop' })).toBe(s);
  });
});

describe('outcomeAction', () => {
  it('maps each outcome of an apply to its action; a failure to none', () => {
    const rowIds = ['r1', 'r2'];
    expect(outcomeAction({ status: 'done', result: result(BASE) }, 'replace', rowIds)).toMatchObject({
      type: 'applied',
    });
    expect(
      outcomeAction({ status: 'conflict', conflict: conflictOf(BASE), error: null }, 'clear', rowIds),
    ).toMatchObject({ type: 'conflicted', action: 'clear' });
    const fieldErrors = new Map([['permissions.1.repo_path', ['bad']]]);
    expect(outcomeAction({ status: 'invalid', fieldErrors, error: null }, 'replace', rowIds)).toEqual({
      type: 'rejected',
      rowIds,
      fieldErrors,
    });
    expect(outcomeAction({ status: 'failed', error: new Error('offline') }, 'replace', rowIds)).toBeNull();
  });
});

describe('what the views show', () => {
  it('counts the changes and says when the draft can be reviewed', () => {
    let s = start();
    expect(draftSummary(s)).toMatchObject({ hasChanges: false, valid: true, canReview: false, changeCount: 0 });
    s = run(s, { type: 'rowChanged', rowId: ids(s)[0]!, patch: { read_only: true } });
    expect(draftSummary(s)).toMatchObject({ hasChanges: true, valid: true, canReview: true, changeCount: 1 });
    s = run(s, { type: 'rowsAdded', items: [{ git_connection_id: 'conn-1', repo_path: 'not a path' }] });
    expect(draftSummary(s)).toMatchObject({ valid: false, canReview: false });
  });

  it('over 200 rows, review needs the per-item choice', () => {
    const many = Array.from({ length: 201 }, (_, i) => ({ git_connection_id: 'conn-1', repo_path: `acme/r${i}` }));
    let s = run(start(), { type: 'draftReplaced', items: many });
    expect(draftSummary(s)).toMatchObject({ overLimit: true, canReview: false });
    s = run(s, { type: 'perItemChanged', perItem: true });
    expect(draftSummary(s)).toMatchObject({ overLimit: true, canReview: true });
  });

  it('numbers each row, marks new and changed rows, and merges the rules’ and the server’s messages', () => {
    let s = start();
    s = run(
      s,
      { type: 'rowChanged', rowId: ids(s)[1]!, patch: { read_only: true } },
      { type: 'rowChanged', rowId: ids(s)[2]!, patch: { repo_path: 'bad' } },
    );
    s = run(s, {
      type: 'rejected',
      rowIds: ids(s),
      fieldErrors: new Map([['permissions.0.git_connection_id', ['Unknown git connection c1']]]),
    });
    const lines = draftLines(s, draftSummary(s, new Set(['conn-1'])));
    expect(lines.map((l) => [l.index, l.status])).toEqual([
      [0, 'unchanged'],
      [1, 'changed'],
      [2, 'new'],
    ]);
    expect(lines[0]!.errors).toEqual({ git_connection_id: ['Unknown git connection c1'] });
    expect(lines[2]!.errors.repo_path?.[0]).toMatch(/repo_path must be a repository path/);
  });

  it('maps paths of placed errors to rows', () => {
    expect(
      rowErrorsOf(
        ['a', 'b'],
        new Map([
          ['permissions.1.group_prefix', ['x', 'y']],
          ['permissions.0', ['z']],
        ]),
      ),
    ).toEqual({ b: { group_prefix: ['x', 'y'] }, a: { row: ['z'] } });
  });

  it('starts from the normalized base', () => {
    expect(draftSummary(start()).baseInputs).toEqual(BASE.map(normalizeGitPermission));
  });
});
