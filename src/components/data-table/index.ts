/** The console's data table: columns as data over TanStack Table, virtualized, fed by cursor pages. */
export { DataTable, type DataTableProps, type DataTableSelection, type InfiniteRowsQuery } from './data-table';
export { columnHelper, type DataTableColumn, type DataTableColumnMeta, type DataTableFeatures } from './features';
export { exactTimeColumn, timeColumn } from './time-column';
export { RowLink } from './row-link';
