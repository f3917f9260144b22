/** The checkbox column, first in a table whose rows can be selected, and the toggle it and the keyboard share. */
import type { Row, RowData } from '@tanstack/react-table';
import { Checkbox } from '@/components/ui/checkbox';
import { RowCheckbox } from './row-checkbox';
import type { DataTableColumn, DataTableFeatures } from './features';

export const SELECT_COLUMN_ID = 'select';

/** Through the row-selection feature's handler, which keeps the shift-click anchor and selects the range. */
export function toggleRow<TData extends RowData>(row: Row<DataTableFeatures, TData>, shiftKey: boolean) {
  row.getToggleSelectedHandler()({ shiftKey, target: { checked: !row.getIsSelected() } });
}

/** The checkbox column, first when rows can be selected; it reads the table's meta (labels, limit, toggle). */
export function selectColumn<TData extends RowData>(): DataTableColumn<TData> {
  return {
    id: SELECT_COLUMN_ID,
    enableSorting: false,
    enableHiding: false,
    meta: { width: '1.25rem', label: 'Selection' },
    header: ({ table }) => {
      const max = table.options.meta?.selectionMax;
      const all = table.getIsAllRowsSelected();
      return (
        <Checkbox
          aria-label="Select all loaded"
          title={max ? `Select all loaded rows (at most ${max})` : 'Select all loaded rows'}
          checked={all ? true : table.getIsSomeRowsSelected() ? 'indeterminate' : false}
          disabled={table.getRowModel().rows.length === 0}
          onCheckedChange={() => table.toggleAllRowsSelected(!all)}
        />
      );
    },
    cell: ({ row, table }) => {
      const label = table.options.meta?.rowLabel as ((row: TData) => string) | undefined;
      return (
        <RowCheckbox
          label={label?.(row.original) ?? 'Select'}
          checked={row.getIsSelected()}
          disabled={!row.getCanSelect()}
          // The table toggles (with shift-click ranges).
          onToggle={(shiftKey) => table.options.meta?.toggleRow?.(row.id, shiftKey)}
        />
      );
    },
  };
}
