/**
 * The bulk editor of an organization's git permissions. It starts from the complete current set (read by the
 * console server, with its version token), validates as the admin types with the contract's own rules,
 * shows the diff before applying, and applies through the console's conflict check. When another change
 * landed meanwhile it shows what changed and lets the admin reapply the edit on top or start over.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Trash2 } from 'lucide-react';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { describeMatcher, diffGitPermissionSets, normalizeGitPermission } from '@/api/git-permissions/set-diff';
import {
  GIT_PERMISSIONS_MAX_PER_REQUEST,
  gitPermissionKey,
  type GitConnection,
  type GitPermission,
  type GitPermissionInput,
} from '@/api/git-permissions/resources';
import { type ConsoleGitPermissionSet } from '@/api/console/git-permissions';
import { Badge } from '@/components/badge';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/field';
import { PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { isApiError } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { gitPermissionSetQueryOptions, useReplaceGitPermissions } from './api';
import type { ConsoleApplyResult } from '@/api/console/git-permissions';
import { AddPermissions } from './add-permissions';
import { ImportDialog } from './import-dialog';
import {
  rebaseDraft,
  toCsv,
  toDraftRow,
  toInput,
  toJson,
  validateDraft,
  type DraftRow,
  type RowField,
} from './set-model';
import {
  ClearAllButton,
  conflictOf,
  connectionLabel,
  DiffView,
  downloadText,
  useConnections,
  type ConflictBody,
} from './shared';

interface Base {
  items: GitPermission[];
  version: string;
}

type Mode = 'edit' | 'review' | 'conflict' | 'done';

export function BulkEditor({ orgId }: { orgId: string }) {
  // A complete read; not refetched behind the admin's back (the conflict check catches later changes).
  const setQuery = useQuery({
    ...gitPermissionSetQueryOptions(orgId),
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
  const { connections, byId, query: connectionsQuery } = useConnections();

  if (setQuery.isPending || connectionsQuery.isPending)
    return <Spinner label="Reading every page of the current set…" />;
  if (setQuery.error) return <ProblemView error={setQuery.error} onRetry={() => void setQuery.refetch()} />;
  if (connectionsQuery.error)
    return <ProblemView error={connectionsQuery.error} onRetry={() => void connectionsQuery.refetch()} />;
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
  const [base, setBase] = useState<Base>({ items: initial.items, version: initial.version });
  const [rows, setRows] = useState<DraftRow[]>(() => initial.items.map(toDraftRow));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [mode, setMode] = useState<Mode>('edit');
  const [conflict, setConflict] = useState<{ body: ConflictBody; action: 'replace' | 'clear' } | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [perItem, setPerItem] = useState(false);
  const [result, setResult] = useState<ConsoleApplyResult | null>(null);
  const [serverErrors, setServerErrors] = useState<Map<string, Partial<Record<RowField, string[]>>>>(new Map());
  const replace = useReplaceGitPermissions(orgId);

  const connectionName = useCallback((id: string) => connectionLabel(byId.get(id), id), [byId]);
  const connectionIds = useMemo(() => new Set(connections.map((c) => c.git_connection_id)), [connections]);
  const validation = useMemo(() => validateDraft(rows, connectionIds), [rows, connectionIds]);
  const baseInputs = useMemo(() => base.items.map(normalizeGitPermission), [base]);
  const baseReadOnly = useMemo(() => new Map(baseInputs.map((p) => [gitPermissionKey(p), p.read_only])), [baseInputs]);
  const diff = useMemo(() => diffGitPermissionSets(baseInputs, rows.map(toInput)), [baseInputs, rows]);
  const draftKeys = useMemo(() => new Set(rows.map((r) => gitPermissionKey(toInput(r)))), [rows]);

  const overLimit = rows.length > GIT_PERMISSIONS_MAX_PER_REQUEST;
  const hasChanges = diff.added.length + diff.removed.length + diff.changed.length > 0;
  const valid = validation.invalidRows === 0;
  const canReview = valid && hasChanges && (!overLimit || perItem);

  const visible = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = rows.map((_, i) => i);
    if (!q) return all;
    return all.filter((i) => {
      const r = rows[i]!;
      return `${r.repo_path} ${r.prefix_path} ${r.group_prefix} ${connectionName(r.git_connection_id)}`
        .toLowerCase()
        .includes(q);
    });
  }, [rows, filter, connectionName]);

  const updateRow = useCallback((rowId: string, patch: Partial<DraftRow>) => {
    setRows((rs) => rs.map((r) => (r.rowId === rowId ? { ...r, ...patch } : r)));
    setServerErrors((m) => (m.has(rowId) ? new Map([...m].filter(([k]) => k !== rowId)) : m));
  }, []);
  const removeRow = useCallback((rowId: string) => {
    setRows((rs) => rs.filter((r) => r.rowId !== rowId));
    setSelected((s) => {
      if (!s.has(rowId)) return s;
      const n = new Set(s);
      n.delete(rowId);
      return n;
    });
  }, []);
  const toggleSelect = useCallback((rowId: string, on: boolean) => {
    setSelected((s) => {
      const n = new Set(s);
      if (on) n.add(rowId);
      else n.delete(rowId);
      return n;
    });
  }, []);

  const addItems = (items: GitPermissionInput[]) => setRows((rs) => [...items.map(toDraftRow), ...rs]);
  const setReadOnlyForSelection = (value: boolean) =>
    setRows((rs) => rs.map((r) => (selected.has(r.rowId) ? { ...r, read_only: value } : r)));
  const removeSelection = () => {
    setRows((rs) => rs.filter((r) => !selected.has(r.rowId)));
    setSelected(new Set());
  };
  const visibleIds = visible.map((i) => rows[i]!.rowId);
  const allVisibleSelected = visibleIds.length > 0 && visibleIds.every((id) => selected.has(id));

  const startFrom = (set: { items: GitPermission[]; version: string }) => {
    setBase({ items: set.items, version: set.version });
    setRows(set.items.map(toDraftRow));
    setSelected(new Set());
    setServerErrors(new Map());
    setConflict(null);
    setNotes([]);
    setMode('edit');
  };

  const apply = () => {
    setServerErrors(new Map());
    replace.mutate(
      {
        base_version: base.version,
        base: baseInputs,
        permissions: rows.map(toInput),
        ...(overLimit ? { allow_per_item: true } : {}),
      },
      {
        onSuccess: (r) => {
          setResult(r);
          setMode('done');
        },
        onError: (e) => {
          const c = conflictOf(e);
          if (c) {
            setConflict({ body: c, action: 'replace' });
            setMode('conflict');
            return;
          }
          if (isApiError(e) && e.status === 422) {
            // Put each item's error on its row, then back to the rows so the admin sees where.
            const byRow = new Map<string, Partial<Record<RowField, string[]>>>();
            for (const fe of e.fieldErrors) {
              const [, , index, field] = fe.loc as [string, string, number | undefined, string | undefined];
              const row = typeof index === 'number' ? rows[index] : undefined;
              if (!row) continue;
              const entry = byRow.get(row.rowId) ?? {};
              (entry[(field ?? 'row') as RowField] ??= []).push(fe.msg);
              byRow.set(row.rowId, entry);
            }
            setServerErrors(byRow);
          }
        },
      },
    );
  };

  const exportName = `git-permissions-${orgId}`;
  const countTone = overLimit
    ? 'text-danger'
    : rows.length > GIT_PERMISSIONS_MAX_PER_REQUEST * 0.9
      ? 'text-warn'
      : 'text-fg';

  if (mode === 'done' && result) {
    return (
      <>
        <PageHeader title="Bulk edit git permissions" />
        <div role="status" className="flex flex-col gap-3 rounded-lg border border-success/40 bg-success/5 p-4 text-sm">
          <p className="font-semibold text-success">
            {result.unchanged
              ? 'Nothing to apply: the set already matched your edit.'
              : `Applied. The organization now has ${formatNumber(result.count)} git permissions.`}
          </p>
          {result.revision && (
            <p>
              Revision #{result.revision.revision_id}: {result.revision.added} added, {result.revision.removed} removed,{' '}
              {result.revision.changed} changed
              {result.revision.method === 'per_item' ? ' (applied with per-item operations)' : ''}. The previous set is
              kept in the history.
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Link
              to="/orgs/$orgId/git-permissions"
              params={{ orgId }}
              search={{}}
              className="text-accent hover:underline"
            >
              View permissions
            </Link>
            <Link to="/orgs/$orgId/git-permissions/history" params={{ orgId }} className="text-accent hover:underline">
              View history
            </Link>
            <Button size="sm" onClick={() => startFrom({ items: result.items, version: result.version })}>
              Keep editing
            </Button>
          </div>
        </div>
      </>
    );
  }

  if (mode === 'conflict' && conflict) {
    const meanwhile =
      conflict.body.changes ?? diffGitPermissionSets(baseInputs, conflict.body.current.map(normalizeGitPermission));
    return (
      <>
        <PageHeader title="Bulk edit git permissions" />
        <section aria-label="Conflict" className="flex flex-col gap-4">
          <div role="alert" className="rounded-lg border border-warn/50 bg-warn/10 p-4 text-sm">
            <p className="font-semibold">Another change landed while you were editing. Nothing was applied.</p>
            <p className="mt-1">
              The set now has {formatNumber(conflict.body.current.length)} permissions. Your edit is still here: reapply
              it on top of the current set (you review the result before anything is applied), or start over from the
              current set.
            </p>
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="flex flex-col gap-2">
              <h2 className="text-sm font-semibold">What changed meanwhile</h2>
              <DiffView diff={meanwhile} connectionName={connectionName} />
            </div>
            <div className="flex flex-col gap-2">
              <h2 className="text-sm font-semibold">
                {conflict.action === 'clear' ? 'Your action: clear all permissions' : 'Your edit'}
              </h2>
              {conflict.action === 'clear' ? (
                <p className="text-sm text-muted">Clear every permission of the organization.</p>
              ) : (
                <DiffView diff={diff} connectionName={connectionName} />
              )}
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="primary"
              onClick={() => {
                const current = conflict.body.current;
                if (conflict.action === 'clear') {
                  startFrom({ items: current, version: conflict.body.current_version });
                  setNotes([
                    'The set changed before your clear was applied. Review it, then use “Clear all…” again to clear the current set.',
                  ]);
                  return;
                }
                const r = rebaseDraft(baseInputs, rows, current, describeMatcher);
                setBase({ items: current, version: conflict.body.current_version });
                setRows(r.rows);
                setSelected(new Set());
                setNotes(r.conflicts);
                setConflict(null);
                setMode('review');
              }}
            >
              {conflict.action === 'clear' ? 'Show the current set' : 'Reapply my edit on top'}
            </Button>
            <Button
              onClick={() => downloadText(`${exportName}-my-edit.json`, toJson(rows.map(toInput)), 'application/json')}
            >
              Export my edit (JSON)
            </Button>
            <Button
              variant="danger"
              onClick={async () => {
                const fresh = await reload();
                startFrom(fresh ?? { items: conflict.body.current, version: conflict.body.current_version });
              }}
            >
              Start over (discard my edit)
            </Button>
          </div>
        </section>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Bulk edit git permissions"
        description={
          <>
            Started from the complete set of {formatNumber(base.items.length)} permissions. Nothing changes until you
            review and apply.{' '}
            <Link
              to="/orgs/$orgId/git-permissions"
              params={{ orgId }}
              search={{}}
              className="text-accent hover:underline"
            >
              Back to the list
            </Link>
          </>
        }
        actions={
          mode === 'edit' ? (
            <ClearAllButton
              orgId={orgId}
              base={{ base_version: base.version, base: baseInputs }}
              onDone={(r) => startFrom({ items: r.items, version: r.version })}
              onConflict={(c) => {
                setConflict({ body: c, action: 'clear' });
                setMode('conflict');
              }}
            />
          ) : null
        }
      />

      {notes.length > 0 && (
        <div role="status" className="mb-3 rounded-lg border border-info/40 bg-info/5 p-3 text-sm">
          <p className="font-semibold">
            Your edit was reapplied on top of the current set. Check these before applying:
          </p>
          <ul className="mt-1 list-disc pl-5">
            {notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </div>
      )}

      <div className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-line bg-surface px-3 py-2 text-sm">
        <span role="status" aria-live="polite" className={cn('font-semibold', countTone)}>
          {formatNumber(rows.length)} / {GIT_PERMISSIONS_MAX_PER_REQUEST} permissions
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
            This set has {formatNumber(rows.length)} permissions: more than the {GIT_PERMISSIONS_MAX_PER_REQUEST} one
            replace accepts.
          </p>
          <p className="mt-1">
            It can still be applied with per-item operations (delete, update and add one by one). Unlike a replace, that
            is not atomic: if a step fails half-way, part of the change is applied (the history then records what the
            set became). Otherwise, remove rows until the set has at most {GIT_PERMISSIONS_MAX_PER_REQUEST}.
          </p>
          <label className="mt-2 flex items-center gap-2 font-medium">
            <input type="checkbox" checked={perItem} onChange={(e) => setPerItem(e.target.checked)} />
            Apply with per-item operations (not atomic)
          </label>
        </div>
      )}

      {mode === 'review' ? (
        <section aria-label="Review changes" className="flex flex-col gap-3">
          <h2 className="text-base font-semibold">Review changes</h2>
          <DiffView diff={diff} connectionName={connectionName} emptyText="No differences from the current set." />
          {replace.error && !conflictOf(replace.error) && <ProblemView error={replace.error} />}
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setMode('edit')} disabled={replace.isPending}>
              Back to editing
            </Button>
            <Button variant="primary" onClick={apply} disabled={!canReview || replace.isPending}>
              {replace.isPending
                ? 'Applying…'
                : `Apply ${formatNumber(diff.added.length + diff.removed.length + diff.changed.length)} changes`}
            </Button>
          </div>
          {!canReview && (
            <p className="text-sm text-danger">
              {!valid
                ? 'Fix the rows with errors first.'
                : !hasChanges
                  ? 'There is nothing to apply.'
                  : 'Choose per-item operations above, or make the set smaller.'}
            </p>
          )}
        </section>
      ) : (
        <>
          <AddPermissions connections={connections} existingKeys={draftKeys} onAdd={addItems} />
          <div className="my-3 flex flex-wrap items-center gap-2">
            <input
              className={`${inputClass} w-64 max-w-full`}
              type="search"
              aria-label="Filter rows"
              placeholder="Filter rows"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
            <ImportDialog
              onImport={(items, how) => {
                if (how === 'replace') {
                  setRows(items.map(toDraftRow));
                  setSelected(new Set());
                } else addItems(items);
              }}
            />
            <Button onClick={() => downloadText(`${exportName}.csv`, toCsv(rows.map(toInput)), 'text/csv')}>
              Export CSV
            </Button>
            <Button onClick={() => downloadText(`${exportName}.json`, toJson(rows.map(toInput)), 'application/json')}>
              Export JSON
            </Button>
            <span className="mx-1 h-6 w-px bg-line" aria-hidden />
            <span className="text-xs text-muted">{selected.size} selected</span>
            <Button size="sm" disabled={selected.size === 0} onClick={() => setReadOnlyForSelection(true)}>
              Set read-only
            </Button>
            <Button size="sm" disabled={selected.size === 0} onClick={() => setReadOnlyForSelection(false)}>
              Set read and write
            </Button>
            <Button size="sm" variant="danger" disabled={selected.size === 0} onClick={removeSelection}>
              Remove selected
            </Button>
          </div>
          {replace.error && !conflictOf(replace.error) && (
            <div className="mb-3">
              <ProblemView compact error={replace.error} />
            </div>
          )}
          <DraftRows
            rows={rows}
            visible={visible}
            validation={validation.byRow}
            serverErrors={serverErrors}
            selected={selected}
            connections={connections}
            baseReadOnly={baseReadOnly}
            allVisibleSelected={allVisibleSelected}
            onSelectAll={(on) =>
              setSelected((s) => {
                const n = new Set(s);
                for (const id of visibleIds) {
                  if (on) n.add(id);
                  else n.delete(id);
                }
                return n;
              })
            }
            onChange={updateRow}
            onRemove={removeRow}
            onSelect={toggleSelect}
          />
          <div className="mt-3 flex flex-wrap items-center gap-2 py-2">
            <Button variant="primary" disabled={!canReview} onClick={() => setMode('review')}>
              Review changes
            </Button>
            <Button
              disabled={!hasChanges}
              onClick={() => {
                setRows(base.items.map(toDraftRow));
                setSelected(new Set());
                setServerErrors(new Map());
              }}
            >
              Discard edits
            </Button>
            <span className="text-sm text-muted">
              {!valid
                ? 'Fix the rows marked in red to continue.'
                : !hasChanges
                  ? 'No changes yet.'
                  : overLimit && !perItem
                    ? `Over ${GIT_PERMISSIONS_MAX_PER_REQUEST}: choose per-item operations above or remove rows.`
                    : 'Review the diff before anything is applied.'}
            </span>
          </div>
        </>
      )}
    </>
  );
}

const ROW_COLUMNS =
  '2rem minmax(10rem,1.2fr) minmax(11rem,1.6fr) minmax(9rem,1.2fr) minmax(9rem,1.2fr) 6rem 4.5rem 2.5rem';

function DraftRows(props: {
  rows: DraftRow[];
  visible: number[];
  validation: Map<number, Partial<Record<RowField, string[]>>>;
  serverErrors: Map<string, Partial<Record<RowField, string[]>>>;
  selected: ReadonlySet<string>;
  connections: GitConnection[];
  baseReadOnly: Map<string, boolean>;
  allVisibleSelected: boolean;
  onSelectAll: (on: boolean) => void;
  onChange: (rowId: string, patch: Partial<DraftRow>) => void;
  onRemove: (rowId: string) => void;
  onSelect: (rowId: string, on: boolean) => void;
}) {
  const parentRef = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({
    count: props.visible.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => 48,
    overscan: 10,
    getItemKey: (i) => props.rows[props.visible[i]!]!.rowId,
  });
  if (props.rows.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-line p-8 text-center text-sm text-muted">
        The draft is empty. Add permissions above or import a file; applying an empty set removes every permission.
      </div>
    );
  }
  return (
    <div
      ref={parentRef}
      role="table"
      aria-label="Draft permissions"
      aria-rowcount={props.visible.length + 1}
      className="h-[calc(100dvh-22rem)] min-h-80 overflow-auto rounded-lg border border-line bg-surface"
    >
      <div style={{ minWidth: '64rem' }}>
        <div
          role="row"
          className="sticky top-0 z-10 grid items-center gap-2 border-b border-line bg-surface-2 px-3 py-2 text-xs font-semibold tracking-wide text-muted uppercase"
          style={{ gridTemplateColumns: ROW_COLUMNS }}
        >
          <span role="columnheader">
            <input
              type="checkbox"
              aria-label="Select all shown rows"
              checked={props.allVisibleSelected}
              onChange={(e) => props.onSelectAll(e.target.checked)}
            />
          </span>
          <span role="columnheader">Connection</span>
          <span role="columnheader">repo_path</span>
          <span role="columnheader">prefix_path</span>
          <span role="columnheader">group_prefix</span>
          <span role="columnheader">Read-only</span>
          <span role="columnheader">Status</span>
          <span role="columnheader" className="sr-only">
            Remove
          </span>
        </div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const index = props.visible[v.index]!;
            const row = props.rows[index]!;
            const key = gitPermissionKey(toInput(row));
            const was = props.baseReadOnly.get(key);
            const status = was === undefined ? 'new' : was !== row.read_only ? 'changed' : 'unchanged';
            return (
              <div
                key={v.key}
                ref={virtualizer.measureElement}
                data-index={v.index}
                className="absolute inset-x-0"
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <EditorRow
                  row={row}
                  index={index}
                  errors={props.validation.get(index)}
                  serverErrors={props.serverErrors.get(row.rowId)}
                  selected={props.selected.has(row.rowId)}
                  connections={props.connections}
                  status={status}
                  onChange={props.onChange}
                  onRemove={props.onRemove}
                  onSelect={props.onSelect}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

const EditorRow = memo(function EditorRow({
  row,
  index,
  errors,
  serverErrors,
  selected,
  connections,
  status,
  onChange,
  onRemove,
  onSelect,
}: {
  row: DraftRow;
  index: number;
  errors: Partial<Record<RowField, string[]>> | undefined;
  serverErrors: Partial<Record<RowField, string[]>> | undefined;
  selected: boolean;
  connections: GitConnection[];
  status: 'new' | 'changed' | 'unchanged';
  onChange: (rowId: string, patch: Partial<DraftRow>) => void;
  onRemove: (rowId: string) => void;
  onSelect: (rowId: string, on: boolean) => void;
}) {
  const n = index + 1;
  const err = (f: RowField) => [...(errors?.[f] ?? []), ...(serverErrors?.[f] ?? [])];
  const messages = (
    ['git_connection_id', 'repo_path', 'prefix_path', 'group_prefix', 'read_only', 'row'] as RowField[]
  ).flatMap((f) => err(f).map((m) => `${f === 'row' ? '' : `${f}: `}${m}`));
  const uniqueMessages = [...new Set(messages)];
  const errorId = `draft-row-${row.rowId}-errors`;
  const text = (field: 'repo_path' | 'prefix_path' | 'group_prefix', label: string) => (
    <span role="cell">
      <input
        className={cn(inputClass, 'h-8 font-mono text-xs')}
        aria-label={`${label}, row ${n}`}
        aria-invalid={err(field).length > 0 || undefined}
        aria-describedby={err(field).length ? errorId : undefined}
        value={row[field]}
        onChange={(e) => onChange(row.rowId, { [field]: e.target.value })}
        spellCheck={false}
      />
    </span>
  );
  return (
    <div
      role="row"
      aria-rowindex={n + 1}
      className={cn(
        'border-b border-line/60 px-3 py-1.5 text-sm',
        uniqueMessages.length > 0 && 'bg-danger/5',
        selected && 'bg-accent/5',
      )}
    >
      <div className="grid items-center gap-2" style={{ gridTemplateColumns: ROW_COLUMNS }}>
        <span role="cell">
          <input
            type="checkbox"
            aria-label={`Select row ${n}`}
            checked={selected}
            onChange={(e) => onSelect(row.rowId, e.target.checked)}
          />
        </span>
        <span role="cell">
          <select
            className={cn(inputClass, 'h-8 text-xs')}
            aria-label={`Connection, row ${n}`}
            aria-invalid={err('git_connection_id').length > 0 || undefined}
            value={row.git_connection_id}
            onChange={(e) => onChange(row.rowId, { git_connection_id: e.target.value })}
          >
            {!connections.some((c) => c.git_connection_id === row.git_connection_id) && (
              <option value={row.git_connection_id}>{row.git_connection_id || '— choose —'}</option>
            )}
            {connections.map((c) => (
              <option key={c.git_connection_id} value={c.git_connection_id}>
                {c.name ?? c.host}
              </option>
            ))}
          </select>
        </span>
        {text('repo_path', 'Repository path')}
        {text('prefix_path', 'Path prefix')}
        {text('group_prefix', 'Group prefix')}
        <span role="cell">
          <label className="flex items-center gap-1.5 text-xs">
            <input
              type="checkbox"
              aria-label={`Read-only, row ${n}`}
              checked={row.read_only}
              onChange={(e) => onChange(row.rowId, { read_only: e.target.checked })}
            />
            {row.read_only ? 'Yes' : 'No'}
          </label>
        </span>
        <span role="cell">
          {status === 'new' ? (
            <Badge tone="success">New</Badge>
          ) : status === 'changed' ? (
            <Badge tone="warn">Changed</Badge>
          ) : null}
        </span>
        <span role="cell">
          <Button size="sm" variant="ghost" aria-label={`Remove row ${n}`} onClick={() => onRemove(row.rowId)}>
            <Trash2 className="size-4" aria-hidden />
          </Button>
        </span>
      </div>
      {uniqueMessages.length > 0 && (
        <ul id={errorId} className="mt-1 ml-10 text-xs font-medium text-danger">
          {uniqueMessages.map((m) => (
            <li key={m}>
              Row {n}: {m}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
