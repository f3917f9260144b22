/**
 * The bulk editor's edit view: add rows, filter them, import and export, act on a selection, edit the rows
 * in place, then go on to review. Nothing is applied from here.
 */
import type { Dispatch } from 'react';
import { GIT_PERMISSIONS_MAX_PER_REQUEST, type GitConnection } from '@/api/git-permissions/resources';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { AddPermissions } from './add-permissions';
import { DraftRows } from './draft-rows';
import type { DraftLine, DraftSummary, EditorAction, EditorState } from './editor-state';
import { ImportDialog } from './import-dialog';
import { toCsv, toInput, toJson } from './set-model';
import { downloadText } from './shared';

export function EditView({
  state,
  summary,
  lines,
  dispatch,
  connections,
  connectionName,
  exportName,
  error,
}: {
  state: EditorState;
  summary: DraftSummary;
  lines: readonly DraftLine[];
  dispatch: Dispatch<EditorAction>;
  connections: readonly GitConnection[];
  connectionName: (id: string) => string;
  /** The exported files' name, without extension. */
  exportName: string;
  /** Why the last apply failed, when no row shows it. */
  error: unknown;
}) {
  const selected = Object.keys(state.selection).length;
  const inputs = () => state.rows.map(toInput);
  const { valid, hasChanges, overLimit, canReview } = summary;
  return (
    <>
      <AddPermissions
        connections={connections}
        existingKeys={summary.draftKeys}
        onAdd={(items) => dispatch({ type: 'rowsAdded', items })}
      />
      <div className="my-3 flex flex-wrap items-center gap-2">
        <Input
          aria-label="Filter rows"
          className="w-64 max-w-full"
          type="search"
          placeholder="Filter rows"
          value={state.filter}
          onChange={(e) => dispatch({ type: 'filterChanged', filter: e.target.value })}
        />
        <ImportDialog
          onImport={(items, how) =>
            dispatch(how === 'replace' ? { type: 'draftReplaced', items } : { type: 'rowsAdded', items })
          }
        />
        <Button onClick={() => downloadText(`${exportName}.csv`, toCsv(inputs()), 'text/csv')}>Export CSV</Button>
        <Button onClick={() => downloadText(`${exportName}.json`, toJson(inputs()), 'application/json')}>
          Export JSON
        </Button>
        <span className="mx-1 h-6 w-px bg-line" aria-hidden />
        <span className="text-xs text-muted" aria-live="polite">
          {selected} selected
        </span>
        <Button
          size="sm"
          disabled={selected === 0}
          onClick={() => dispatch({ type: 'selectionReadOnlySet', readOnly: true })}
        >
          Set read-only
        </Button>
        <Button
          size="sm"
          disabled={selected === 0}
          onClick={() => dispatch({ type: 'selectionReadOnlySet', readOnly: false })}
        >
          Set read and write
        </Button>
        <Button
          size="sm"
          variant="danger"
          disabled={selected === 0}
          onClick={() => dispatch({ type: 'selectionRemoved' })}
        >
          Remove selected
        </Button>
      </div>
      {error ? (
        <div className="mb-3">
          <ProblemView compact error={error} />
        </div>
      ) : null}
      <DraftRows
        lines={lines}
        filter={state.filter}
        selection={state.selection}
        connections={connections}
        connectionName={connectionName}
        dispatch={dispatch}
      />
      <div className="mt-3 flex flex-wrap items-center gap-2 py-2">
        <Button variant="primary" disabled={!canReview} onClick={() => dispatch({ type: 'reviewOpened' })}>
          Review changes
        </Button>
        <Button disabled={!hasChanges} onClick={() => dispatch({ type: 'editsDiscarded' })}>
          Discard edits
        </Button>
        <span className="text-sm text-muted">
          {!valid
            ? 'Fix the rows marked in red to continue.'
            : !hasChanges
              ? 'No changes yet.'
              : overLimit && !state.perItem
                ? `Over ${GIT_PERMISSIONS_MAX_PER_REQUEST}: choose per-item operations above or remove rows.`
                : 'Review the diff before anything is applied.'}
        </span>
      </div>
    </>
  );
}
