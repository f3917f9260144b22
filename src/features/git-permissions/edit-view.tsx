/**
 * The bulk editor's edit view: add rows, filter them, import and export, act on a selection, edit the rows
 * in place, then go on to review. Nothing is applied from here.
 */
import { useState, type Dispatch } from 'react';
import { GIT_PERMISSIONS_MAX_PER_REQUEST, type GitConnection } from '@/api/git-permissions/resources';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
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
  // Rows with errors: a count that jumps to the first, and a filter that shows only them.
  const [onlyErrors, setOnlyErrors] = useState(false);
  const withErrors = lines.filter(hasErrors);
  const showOnlyErrors = onlyErrors && withErrors.length > 0;
  const jumpToFirstError = () => {
    setOnlyErrors(true);
    // Once the filtered rows are on screen: focus the first invalid field of the first row with errors.
    setTimeout(() => {
      const first = document.querySelector<HTMLElement>(
        '[aria-label="Draft permissions"] [aria-invalid="true"], [aria-label="Draft permissions"] [role="row"][data-index="0"]',
      );
      first?.focus();
    }, 50);
  };
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
      {withErrors.length > 0 && (
        <div role="group" aria-label="Rows with errors" className="mb-3 flex flex-wrap items-center gap-3 text-sm">
          <button
            type="button"
            className="font-semibold text-danger underline underline-offset-2 hover:no-underline"
            onClick={jumpToFirstError}
          >
            {withErrors.length} {withErrors.length === 1 ? 'row has' : 'rows have'} errors: go to the first
          </button>
          <span className="flex items-center gap-1.5">
            <Checkbox id="only-error-rows" checked={onlyErrors} onCheckedChange={(c) => setOnlyErrors(c === true)} />
            <label htmlFor="only-error-rows">Show only rows with errors</label>
          </span>
        </div>
      )}
      <DraftRows
        lines={showOnlyErrors ? withErrors : lines}
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

function hasErrors(line: DraftLine): boolean {
  return Object.values(line.errors).some((e) => e && e.length > 0);
}
