/**
 * The bulk editor's rows on the shared data table: each row's connection, matcher fields and read-only
 * edited in place, "New" or "Changed" against the set the edit started from, its messages (the contract's
 * rules as the admin types, and a refused apply's errors on the field they name) on a line below it;
 * selection with shift-click ranges and "select all"; remove a row. Rows are numbered by their place in the
 * draft ("row 1"), whatever the filter shows.
 */
import { Trash2 } from 'lucide-react';
import { createContext, useContext, useMemo, type Dispatch, type KeyboardEvent, type ReactNode } from 'react';
import { MATCHER_FIELDS, type GitConnection, type MatcherField } from '@/api/git-permissions/resources';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import type { DraftLine, EditorAction, EditorState } from './editor-state';
import type { RowField } from './set-model';

interface DraftRowsContextValue {
  dispatch: Dispatch<EditorAction>;
  connections: readonly GitConnection[];
}

const DraftRowsContext = createContext<DraftRowsContextValue | null>(null);

function useDraftRows(): DraftRowsContextValue {
  const value = useContext(DraftRowsContext);
  if (!value) throw new Error('A draft row cell is rendered outside <DraftRows>');
  return value;
}

const MATCHER_NAMES: Record<MatcherField, string> = {
  repo_path: 'Repository path',
  prefix_path: 'Path prefix',
  group_prefix: 'Group prefix',
};
/** The order messages are listed in under a row. */
const MESSAGE_FIELDS: RowField[] = ['git_connection_id', ...MATCHER_FIELDS, 'read_only', 'row'];

const messageId = (line: DraftLine, field: RowField, i: number) => `draft-${line.row.rowId}-${field}-${i}`;

/** The control attributes of a field: invalid, and described by its messages on the line below the row. */
function fieldAria(line: DraftLine, field: RowField) {
  const messages = line.errors[field] ?? [];
  return {
    'aria-invalid': messages.length > 0 || undefined,
    'aria-describedby': messages.length ? messages.map((_, i) => messageId(line, field, i)).join(' ') : undefined,
  };
}

/** Up and down open the select's list here, rather than move to another row. */
function keepArrowKeys(e: KeyboardEvent) {
  if (e.key === 'ArrowUp' || e.key === 'ArrowDown') e.stopPropagation();
}

/** Escape leaves a text box for its row, where the arrow keys move between rows again. */
function escapeToRow(e: KeyboardEvent<HTMLInputElement>) {
  if (e.key === 'Escape') e.currentTarget.closest<HTMLElement>('[role="row"]')?.focus();
}

function ConnectionCell({ line }: { line: DraftLine }) {
  const { dispatch, connections } = useDraftRows();
  const id = line.row.git_connection_id;
  const options = useMemo(
    () => [
      ...(id !== '' && !connections.some((c) => c.git_connection_id === id) ? [{ value: id, label: id }] : []),
      ...connections.map((c) => ({ value: c.git_connection_id, label: c.name ?? c.host })),
    ],
    [connections, id],
  );
  return (
    <div onKeyDown={keepArrowKeys}>
      <Select
        size="sm"
        aria-label={`Connection, row ${line.index + 1}`}
        {...fieldAria(line, 'git_connection_id')}
        value={id}
        placeholder="— choose —"
        options={options}
        onValueChange={(v) => dispatch({ type: 'rowChanged', rowId: line.row.rowId, patch: { git_connection_id: v } })}
      />
    </div>
  );
}

function MatcherCell({ line, field }: { line: DraftLine; field: MatcherField }) {
  const { dispatch } = useDraftRows();
  return (
    <Input
      className="h-8 font-mono text-xs"
      aria-label={`${MATCHER_NAMES[field]}, row ${line.index + 1}`}
      {...fieldAria(line, field)}
      value={line.row[field]}
      spellCheck={false}
      onKeyDown={escapeToRow}
      onChange={(e) => dispatch({ type: 'rowChanged', rowId: line.row.rowId, patch: { [field]: e.target.value } })}
    />
  );
}

function ReadOnlyCell({ line }: { line: DraftLine }) {
  const { dispatch } = useDraftRows();
  return (
    <label className="flex items-center gap-1.5 text-xs">
      <Checkbox
        aria-label={`Read-only, row ${line.index + 1}`}
        {...fieldAria(line, 'read_only')}
        checked={line.row.read_only}
        onCheckedChange={(c) =>
          dispatch({ type: 'rowChanged', rowId: line.row.rowId, patch: { read_only: c === true } })
        }
      />
      {line.row.read_only ? 'Yes' : 'No'}
    </label>
  );
}

function RemoveCell({ line }: { line: DraftLine }) {
  const { dispatch } = useDraftRows();
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-label={`Remove row ${line.index + 1}`}
      onClick={() => dispatch({ type: 'rowRemoved', rowId: line.row.rowId })}
    >
      <Trash2 className="size-4" aria-hidden />
    </Button>
  );
}

/** The row's messages, on a line of their own under the row (the cell spans every column). */
function Messages({ line }: { line: DraftLine }) {
  const items: ReactNode[] = [];
  for (const field of MESSAGE_FIELDS) {
    (line.errors[field] ?? []).forEach((m, i) =>
      items.push(
        <li key={`${field}-${i}`} id={messageId(line, field, i)}>
          Row {line.index + 1}: {field === 'row' ? '' : `${field}: `}
          {m}
        </li>,
      ),
    );
  }
  if (items.length === 0) return null;
  return <ul className="pl-7 text-xs font-medium text-danger">{items}</ul>;
}

const col = columnHelper<DraftLine>();
/** The matcher fields as the admin reads them (the API's names stay in the CSV format and the errors). */
const FIELD_LABEL: Record<(typeof MATCHER_FIELDS)[number], string> = {
  repo_path: 'Repository path',
  prefix_path: 'Path prefix',
  group_prefix: 'Group prefix',
};
const columns = col.columns([
  col.display({
    id: 'git_connection_id',
    header: 'Connection',
    enableHiding: false,
    meta: { width: 'minmax(10rem,1.2fr)' },
    cell: ({ row }) => <ConnectionCell line={row.original} />,
  }),
  ...MATCHER_FIELDS.map((field) =>
    col.display({
      id: field,
      header: FIELD_LABEL[field],
      enableHiding: false,
      meta: { width: field === 'repo_path' ? 'minmax(11rem,1.6fr)' : 'minmax(9rem,1.2fr)' },
      cell: ({ row }) => <MatcherCell line={row.original} field={field} />,
    }),
  ),
  col.display({
    id: 'read_only',
    header: 'Read-only',
    enableHiding: false,
    meta: { width: '5.5rem' },
    cell: ({ row }) => <ReadOnlyCell line={row.original} />,
  }),
  col.display({
    id: 'status',
    header: 'Status',
    enableHiding: false,
    meta: { width: '4.5rem' },
    cell: ({ row: { original: line } }) =>
      line.status === 'new' ? (
        <Badge tone="success">New</Badge>
      ) : line.status === 'changed' ? (
        <Badge tone="warn">Changed</Badge>
      ) : null,
  }),
  col.display({
    id: 'remove',
    header: () => <span className="sr-only">Remove</span>,
    enableHiding: false,
    meta: { width: '2.25rem', label: 'Remove' },
    cell: ({ row }) => <RemoveCell line={row.original} />,
  }),
  col.display({
    id: 'messages',
    header: () => <span className="sr-only">Messages</span>,
    enableHiding: false,
    // A zero-width track in the header; in a row, the cell takes a line of its own below the controls.
    meta: { width: '0px', label: 'Messages', className: 'col-span-full empty:hidden' },
    cell: ({ row }) => <Messages line={row.original} />,
  }),
]);

export function DraftRows({
  lines,
  filter,
  selection,
  connections,
  connectionName,
  dispatch,
}: {
  lines: readonly DraftLine[];
  filter: string;
  selection: EditorState['selection'];
  connections: readonly GitConnection[];
  connectionName: (id: string) => string;
  dispatch: Dispatch<EditorAction>;
}) {
  const context = useMemo(() => ({ dispatch, connections }), [dispatch, connections]);
  const shows = useMemo(() => {
    const q = filter.trim().toLowerCase();
    if (!q) return undefined;
    return ({ row: r }: DraftLine) =>
      `${r.repo_path} ${r.prefix_path} ${r.group_prefix} ${connectionName(r.git_connection_id)}`
        .toLowerCase()
        .includes(q);
  }, [filter, connectionName]);
  return (
    <DraftRowsContext.Provider value={context}>
      <DataTable
        label="Draft permissions"
        tableId="git-permissions-draft"
        columns={columns}
        data={lines}
        getRowId={(l) => l.row.rowId}
        filter={shows}
        selection={{
          state: selection,
          onChange: (next) => dispatch({ type: 'selectionChanged', selection: next }),
          rowLabel: (l) => `Select row ${l.index + 1}`,
        }}
        empty={
          lines.length === 0
            ? {
                title: 'The draft is empty',
                hint: 'Add permissions above or import a file; applying an empty set removes every permission.',
              }
            : { title: 'No row matches the filter', hint: 'Change or clear the filter.' }
        }
        minWidth="64rem"
        estimateRowHeight={48}
        className="h-auto max-h-[calc(100dvh-12rem)]"
      />
    </DraftRowsContext.Provider>
  );
}
