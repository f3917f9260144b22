/**
 * Ranges added and removed, as a table: the review of a change, a conflict's changes meanwhile, and a
 * revision of the history.
 */
import { useMemo } from 'react';
import { Badge } from '@/components/badge';
import { DataTable, columnHelper } from '@/components/data-table';

interface DiffRow {
  kind: 'added' | 'removed';
  range: string;
}

const diffCol = columnHelper<DiffRow>();
const DIFF_COLUMNS = diffCol.columns([
  diffCol.accessor('kind', {
    header: 'Change',
    meta: { width: '7rem' },
    cell: ({ getValue }) =>
      getValue() === 'added' ? <Badge tone="success">Added</Badge> : <Badge tone="danger">Removed</Badge>,
  }),
  diffCol.accessor('range', {
    header: 'Range',
    cell: ({ getValue }) => <span className="font-mono text-sm">{getValue()}</span>,
  }),
]);

export function DiffTable({
  added,
  removed,
  label,
}: {
  added: readonly string[];
  removed: readonly string[];
  label: string;
}) {
  const rows = useMemo<DiffRow[]>(
    () => [
      ...added.map((range) => ({ kind: 'added' as const, range })),
      ...removed.map((range) => ({ kind: 'removed' as const, range })),
    ],
    [added, removed],
  );
  return (
    <DataTable
      label={label}
      tableId="ip-access-list-diff"
      columns={DIFF_COLUMNS}
      data={rows}
      getRowId={(r) => `${r.kind}:${r.range}`}
      empty={{ title: 'No range added or removed', hint: 'Only how entries are written changes.' }}
      className="max-h-80"
    />
  );
}
