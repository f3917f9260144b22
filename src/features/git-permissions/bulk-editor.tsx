/**
 * The bulk editor of an organization's git permissions. It starts from the complete current set (read by the
 * console server, with its version token), validates as the admin types with the contract's own rules,
 * shows the diff before applying, and applies through the console's conflict check. Its state is a reducer
 * (editor-state.ts) with one view per step: edit, review, conflict (another change landed meanwhile: reapply
 * the edit on top or start over) and done.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useReducer, type Dispatch } from 'react';
import { type ConsoleGitPermissionSet } from '@/api/console/git-permissions';
import { GIT_PERMISSIONS_MAX_PER_REQUEST, type GitConnection } from '@/api/git-permissions/resources';
import { Badge } from '@/components/badge';
import { PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Checkbox } from '@/components/ui/checkbox';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { gitPermissionSetQueryOptions, useApplyGitPermissionChange } from './api';
import { ConflictView } from './conflict-view';
import { DoneView } from './done-view';
import { EditView } from './edit-view';
import {
  draftLines,
  draftSummary,
  editorReducer,
  initialEditorState,
  outcomeAction,
  type DraftSummary,
  type EditorAction,
  type EditorState,
} from './editor-state';
import { ReviewView } from './review-view';
import { toInput, toJson } from './set-model';
import { BackToList, ClearAllButton, connectionLabel, downloadText, useConnections } from './shared';

export function BulkEditor({ orgId }: { orgId: string }) {
  // A complete read; not refetched behind the admin's back (the conflict check catches later changes).
  const setQuery = useQuery({
    ...gitPermissionSetQueryOptions(orgId),
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
  const { connections, byId, query: connectionsQuery } = useConnections();

  // The page keeps its heading while it reads (and when the read fails).
  if (setQuery.isPending || connectionsQuery.isPending)
    return (
      <>
        <PageHeader title={TITLE} />
        <Spinner label="Reading every page of the current set…" />
      </>
    );
  if (setQuery.error || connectionsQuery.error)
    return (
      <>
        <PageHeader title={TITLE} />
        {setQuery.error ? (
          <ProblemView error={setQuery.error} onRetry={() => void setQuery.refetch()} />
        ) : (
          <ProblemView error={connectionsQuery.error} onRetry={() => void connectionsQuery.refetch()} />
        )}
      </>
    );
  return (
    <EditorSession
      key={orgId}
      orgId={orgId}
      initial={setQuery.data}
      connections={connections}
      byId={byId}
      reload={async () => (await setQuery.refetch()).data}
    />
  );
}

const TITLE = 'Bulk edit git permissions';

function EditorSession({
  orgId,
  initial,
  connections,
  byId,
  reload,
}: {
  orgId: string;
  initial: ConsoleGitPermissionSet;
  connections: GitConnection[];
  byId: Map<string, GitConnection>;
  reload: () => Promise<ConsoleGitPermissionSet | undefined>;
}) {
  const [state, dispatch] = useReducer(editorReducer, initial, initialEditorState);
  const change = useApplyGitPermissionChange(orgId);
  const connectionName = useCallback((id: string) => connectionLabel(byId.get(id), id), [byId]);
  const connectionIds = useMemo(() => new Set(connections.map((c) => c.git_connection_id)), [connections]);
  const { rows, base, perItem, serverErrors } = state;
  const summary = useMemo(
    () => draftSummary({ rows, base, perItem }, connectionIds),
    [rows, base, perItem, connectionIds],
  );
  const lines = useMemo(() => draftLines({ rows, serverErrors }, summary), [rows, serverErrors, summary]);
  const changeBase = { version: base.version, items: summary.baseInputs };
  const exportName = `git-permissions-${orgId}`;

  const apply = async () => {
    const outcome = await change.apply(
      {
        action: 'replace',
        permissions: rows.map(toInput),
        ...(summary.overLimit ? { allow_per_item: true } : {}),
      },
      changeBase,
    );
    const next = outcomeAction(
      outcome,
      'replace',
      rows.map((r) => r.rowId),
    );
    if (next) dispatch(next);
  };
  /** Leaves the conflict or done view: the last apply's outcome no longer applies. */
  const leave = (action: EditorAction) => {
    change.reset();
    dispatch(action);
  };

  // Done or in conflict: the view alone, under the title.
  const closing =
    state.view === 'done' && state.result ? (
      <DoneView orgId={orgId} result={state.result} onKeepEditing={(set) => leave({ type: 'startedOver', set })} />
    ) : state.view === 'conflict' && state.conflict ? (
      <ConflictView
        conflict={state.conflict}
        baseInputs={summary.baseInputs}
        myDiff={summary.diff}
        connectionName={connectionName}
        onReapply={() => leave({ type: 'reappliedOnTop' })}
        onExport={() => downloadText(`${exportName}-my-edit.json`, toJson(rows.map(toInput)), 'application/json')}
        onStartOver={async (current) => leave({ type: 'startedOver', set: (await reload()) ?? current })}
      />
    ) : null;
  if (closing)
    return (
      <>
        <PageHeader title={TITLE} />
        {closing}
      </>
    );

  return (
    <>
      <PageHeader
        title={TITLE}
        description={
          <>
            Started from the complete set of {formatNumber(base.items.length)} permissions. Nothing changes until you
            review and apply. <BackToList orgId={orgId} />
          </>
        }
        actions={
          state.view === 'edit' ? (
            <ClearAllButton
              orgId={orgId}
              base={changeBase}
              onDone={(result) => dispatch({ type: 'applied', result })}
              onConflict={(conflict) => dispatch({ type: 'conflicted', conflict, action: 'clear' })}
            />
          ) : null
        }
      />
      <ReapplyNotes notes={state.notes} />
      <DraftStatus state={state} summary={summary} dispatch={dispatch} />
      {state.view === 'review' ? (
        <ReviewView
          summary={summary}
          connectionName={connectionName}
          error={change.formError}
          pending={change.isPending}
          onBack={() => dispatch({ type: 'reviewClosed' })}
          onApply={() => void apply()}
        />
      ) : (
        <EditView
          state={state}
          summary={summary}
          lines={lines}
          dispatch={dispatch}
          connections={connections}
          connectionName={connectionName}
          exportName={exportName}
          error={change.formError}
        />
      )}
    </>
  );
}

function ReapplyNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <div role="status" className="mb-3 rounded-lg border border-info/40 bg-info/5 p-3 text-sm">
      <p className="font-semibold">Your edit was reapplied on top of the current set. Check these before applying:</p>
      <ul className="mt-1 list-disc pl-5">
        {notes.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
    </div>
  );
}

/** The draft's count against the limit, the diff in numbers, its problems, and the over-limit choice. */
function DraftStatus({
  state,
  summary,
  dispatch,
}: {
  state: EditorState;
  summary: DraftSummary;
  dispatch: Dispatch<EditorAction>;
}) {
  const count = state.rows.length;
  const { diff, validation, overLimit } = summary;
  const tone = overLimit ? 'text-danger' : count > GIT_PERMISSIONS_MAX_PER_REQUEST * 0.9 ? 'text-warn' : 'text-fg';
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-line bg-surface px-3 py-2 text-sm">
        <span role="status" aria-live="polite" className={cn('font-semibold', tone)}>
          {formatNumber(count)} / {GIT_PERMISSIONS_MAX_PER_REQUEST} permissions
        </span>
        <span className="text-muted">
          {diff.added.length} added, {diff.removed.length} removed, {diff.changed.length} changed
        </span>
        {validation.duplicates > 0 && (
          <Badge tone="danger">
            {validation.duplicates} duplicate{validation.duplicates > 1 ? 's' : ''}
          </Badge>
        )}
        {validation.invalidRows > 0 && (
          <Badge tone="danger">
            {validation.invalidRows} row{validation.invalidRows > 1 ? 's' : ''} with errors
          </Badge>
        )}
      </div>
      {overLimit && (
        <div role="alert" className="mb-3 rounded-lg border border-warn/50 bg-warn/10 p-3 text-sm">
          <p className="font-semibold">
            This set has {formatNumber(count)} permissions: more than the {GIT_PERMISSIONS_MAX_PER_REQUEST} one replace
            accepts.
          </p>
          <p className="mt-1">
            It can still be applied with per-item operations (delete, update and add one by one). Unlike a replace, that
            is not atomic: if a step fails half-way, part of the change is applied (the history then records what the
            set became). Otherwise, remove rows until the set has at most {GIT_PERMISSIONS_MAX_PER_REQUEST}.
          </p>
          <label className="mt-2 flex items-center gap-2 font-medium">
            <Checkbox
              checked={state.perItem}
              onCheckedChange={(c) => dispatch({ type: 'perItemChanged', perItem: c === true })}
            />
            Apply with per-item operations (not atomic)
          </label>
        </div>
      )}
    </>
  );
}
