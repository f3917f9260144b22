/**
 * The TanStack Table feature set every data table shares (sorting, row selection, column visibility), the
 * column metadata the table reads for layout, and the column helper screens define their columns with.
 */
import {
  columnVisibilityFeature,
  createColumnHelper,
  createSortedRowModel,
  metaHelper,
  rowSelectionFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_text,
  tableFeatures,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';

/** How a column lays out; read by the data table, not by TanStack Table. */
export interface DataTableColumnMeta {
  /** The column's CSS grid track, e.g. `7rem` or `minmax(12rem,2fr)`. Default `minmax(8rem,1fr)`. */
  width?: string;
  /** `end` right-aligns the header and the cells (numbers). */
  align?: 'start' | 'end';
  /** Classes of every cell of the column (truncation, font). */
  className?: string;
  /** The native tooltip of a cell, from its row (e.g. the exact time). Typed by the column's row. */
  cellTitle?: (row: never) => string | undefined;
  /** The column's name in the column chooser when its header is not plain text. */
  label?: string;
  /**
   * Its place on a phone's card (narrow windows): `title` leads the card (one column), `aside` sits beside the
   * title (a status badge), `field` is a named line (the default), `hidden` is left off the card (still in the
   * row's link or detail). Without a `title` column, the table's first column leads the card.
   */
  card?: 'title' | 'aside' | 'field' | 'hidden';
}

/** What the table hands its own cells (the selection column's checkboxes). */
export interface DataTableMeta {
  /** The accessible name of a row's checkbox; typed by the table's rows. */
  rowLabel?: (row: never) => string;
  selectionMax?: number;
  /** Toggles a row's selection; with `shiftKey`, the range from the last toggled row. */
  toggleRow?: (rowId: string, shiftKey: boolean) => void;
}

export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, text: sortFn_text, basic: sortFn_basic },
  rowSelectionFeature,
  columnVisibilityFeature,
  columnMeta: metaHelper<DataTableColumnMeta>(),
  tableMeta: metaHelper<DataTableMeta>(),
});

export type DataTableFeatures = typeof dataTableFeatures;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each column keeps its own value type
export type DataTableColumn<TData extends RowData> = ColumnDef<DataTableFeatures, TData, any>;

/** `const col = columnHelper<Session>()`, then `col.columns([col.accessor('status', {...}), col.display({...})])`. */
export function columnHelper<TData extends RowData>() {
  return createColumnHelper<DataTableFeatures, TData>();
}
