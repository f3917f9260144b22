/**
 * The data table's TanStack Table instance and its state: sorting (controlled or its own, in the browser only
 * over the whole set), row selection (controlled or its own, within a limit), and the column visibility the
 * screen remembers; the screen's columns after a checkbox column when rows can be selected.
 */
import { useTable, type RowData, type RowSelectionState, type SortingState, type Updater } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { usePersistedColumnVisibility } from './column-visibility';
import { selectColumn, toggleRow } from './select-column';
import { dataTableFeatures } from './features';
import type { DataTableProps } from './data-table';

const EMPTY: never[] = [];
const DEFAULT_COLUMN = { enableSorting: false };

function resolve<T>(updater: Updater<T>, old: T): T {
  return typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater;
}

export function useTableModel<TData extends RowData>(
  props: DataTableProps<TData>,
  data: readonly TData[],
  hasNextPage: boolean,
) {
  const { selection, manualSorting = false } = props;
  const [ownSorting, setOwnSorting] = useState<SortingState>([]);
  const sorting = props.sorting ?? ownSorting;
  // Sorting in the browser is only honest over the whole set.
  const canSortHere = manualSorting || !hasNextPage;
  const [ownSelection, setOwnSelection] = useState<RowSelectionState>({});
  const rowSelection = selection?.state ?? ownSelection;
  const selectedCount = Object.keys(rowSelection).length;
  const [columnVisibility, setColumnVisibility] = usePersistedColumnVisibility(props.tableId);

  const hasSelection = !!selection;
  const columns = useMemo(
    () => (hasSelection ? [selectColumn<TData>(), ...props.columns] : [...props.columns]),
    [props.columns, hasSelection],
  );

  const table = useTable({
    features: dataTableFeatures,
    columns,
    data,
    getRowId: (row) => props.getRowId(row),
    state: { sorting: canSortHere ? sorting : EMPTY, rowSelection, columnVisibility },
    onSortingChange: (updater) => {
      const next = resolve(updater, sorting);
      props.onSortingChange?.(next);
      if (!props.sorting) setOwnSorting(next);
    },
    onRowSelectionChange: (updater) => {
      let next = resolve(updater, rowSelection);
      const max = selection?.max;
      if (max !== undefined && Object.keys(next).length > max) next = capSelection(rowSelection, next, max);
      selection?.onChange?.(next);
      if (!selection?.state) setOwnSelection(next);
    },
    onColumnVisibilityChange: setColumnVisibility,
    // Sorting is opt-in: a column sorts only with `enableSorting: true` (the API may sort by one column only).
    defaultColumn: DEFAULT_COLUMN,
    manualSorting,
    enableSorting: canSortHere,
    enableSortingRemoval: !manualSorting,
    enableMultiSort: false,
    enableRowSelection: selection
      ? (row) =>
          (!selection.canSelect || selection.canSelect(row.original)) &&
          (selection.max === undefined || selectedCount < selection.max || row.getIsSelected())
      : false,
    meta: {
      rowLabel: selection?.rowLabel,
      selectionMax: selection?.max,
      toggleRow: (rowId, shiftKey) => toggleRow(table.getRow(rowId, true), shiftKey),
    },
  });

  // Keeps the ids already chosen, then adds new ones in display order up to the limit.
  function capSelection(old: RowSelectionState, next: RowSelectionState, max: number): RowSelectionState {
    const capped: RowSelectionState = {};
    let n = 0;
    for (const id of Object.keys(old)) {
      if (next[id] && n < max) {
        capped[id] = true;
        n++;
      }
    }
    for (const row of table.getRowsInDisplayOrder()) {
      if (n >= max) break;
      if (next[row.id] && !capped[row.id]) {
        capped[row.id] = true;
        n++;
      }
    }
    return capped;
  }

  return { table, columns, columnVisibility, hasSelection };
}
