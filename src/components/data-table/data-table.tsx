/**
 * The console's data table: TanStack Table (columns as data, sorting, row selection, column visibility) over
 * TanStack Virtual (only the rows in view are in the DOM), fed by a cursor infinite query whose next page
 * loads as the end comes into view.
 *
 * A screen gives its columns and its query:
 *
 *   const col = columnHelper<Build>();
 *   const columns = col.columns([col.accessor('build_id', { header: 'Build', meta: { width: '12rem' } }), …]);
 *   <DataTable label="Snapshot builds" tableId="snapshot-builds" columns={columns} query={query}
 *     getRowId={(b) => b.build_id} empty={{ title: 'No snapshot builds yet' }} />
 *
 * Markup: the ARIA table pattern on `div`s (`table`, `rowgroup`, `row`, `columnheader`, `cell`); the table
 * element is also the scrolling element, its rows absolutely positioned grids, and `aria-rowcount`/
 * `aria-rowindex` tell where the rendered rows sit. Not `<table>` elements: Chromium lays out table parts
 * 3–7× slower than the same `div`s on every scroll frame (measured on the audit log's rows).
 *
 * Keyboard: the table is one tab stop (the active row); ArrowUp/ArrowDown/PageUp/PageDown/Home/End move it,
 * Enter opens the row (`onRowOpen`, else its `data-row-link` element, else its first same-tab link), Space
 * toggles its selection (Shift+Space: the range), ArrowLeft/ArrowRight reach the controls in the row, Escape
 * returns to the row, and ArrowUp from the first row reaches the header's controls (sorting, select all).
 *
 * Its parts: the table's state (use-table-model), the keyboard (use-table-keyboard), infinite loading
 * (use-loaded-rows), the header row (table-header), the virtualized body and its rows (virtual-rows,
 * table-row) and the footer (table-footer).
 */
import type { RowData, RowSelectionState, SortingState } from '@tanstack/react-table';
import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { NARROW, useMediaQuery } from '@/lib/use-media-query';
import { EmptyState } from '../page-header';
import { ProblemView } from '../problem-view';
import { ColumnChooser } from './column-chooser';
import { TableFooter } from './table-footer';
import { TableHeader } from './table-header';
import { useLoadedRows } from './use-loaded-rows';
import { useTableKeyboard } from './use-table-keyboard';
import { useTableModel } from './use-table-model';
import { rootFontScale, SkeletonRows, VirtualRows, type RowVirtualizer } from './virtual-rows';
import type { DataTableColumn } from './features';

/** What the table reads from a `useInfiniteQuery` result over cursor pages (pass the result itself). */
export interface InfiniteRowsQuery<TData> {
  data: { pages: ReadonlyArray<{ items: readonly TData[]; total?: number | null }> } | undefined;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isPending: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
  refetch: () => Promise<unknown>;
}

export interface DataTableSelection<TData> {
  /** Selected row ids (controlled); without it the table keeps its own. */
  state?: RowSelectionState;
  onChange?: (next: RowSelectionState) => void;
  /** At most this many rows selected (a range or "select all loaded" stops there). */
  max?: number;
  canSelect?: (row: TData) => boolean;
  /** The accessible name of a row's checkbox: "Select acme/payments-api". */
  rowLabel: (row: TData) => string;
}

export interface DataTableProps<TData extends RowData> {
  /** The table's accessible name ("Sessions"). */
  label: string;
  /** The screen's id: column visibility is remembered under it. */
  tableId: string;
  /** Stable between renders (module scope or `useMemo`). Sorting is opt-in per column (`enableSorting`). */
  columns: ReadonlyArray<DataTableColumn<TData>>;
  getRowId: (row: TData) => string;
  /** Cursor pages of an infinite query; the next page is fetched as the end comes into view. */
  query?: InfiniteRowsQuery<TData>;
  /** A whole set at hand, instead of a query. */
  data?: readonly TData[];
  /** Narrows the loaded rows (a filter of what is loaded); keep it stable while it does not change. */
  filter?: (row: TData) => boolean;
  /** Sort state, controlled (e.g. from the URL); without it the table keeps its own. */
  sorting?: SortingState;
  onSortingChange?: (next: SortingState) => void;
  /**
   * The API sorts: `sorting` says how the query orders its rows and the table does not reorder them. Without
   * it, sorting happens in the browser, and only once every page is loaded.
   */
  manualSorting?: boolean;
  /** Adds a checkbox column, shift-click ranges and "select all loaded". */
  selection?: DataTableSelection<TData>;
  /**
   * Enter or a click on the row (outside its links and buttons) opens it. Without it, Enter follows the row's
   * `data-row-link` element (or its first link that stays in the tab).
   */
  onRowOpen?: (row: TData) => void;
  /** The rows rendered (in view plus overscan), whenever they change: e.g. to poll only those. */
  onVisibleRowsChange?: (rows: TData[]) => void;
  empty: { title: string; hint?: ReactNode };
  /** A row's height in px (at the default 16 px root font size). */
  estimateRowHeight?: number;
  /**
   * Every row is `estimateRowHeight` tall (no measuring; scaled with the root font size): the cheapest scrolling
   * for long lists. The columns must keep a row within it (one line each, or two short ones); on a phone, rows
   * are cards and are measured.
   */
  fixedRowHeight?: boolean;
  /** Below this width the table scrolls sideways. */
  minWidth?: string;
  /** The scrolling area's height classes. */
  className?: string;
}

const DEFAULT_WIDTH = 'minmax(8rem,1fr)';

export function DataTable<TData extends RowData>(props: DataTableProps<TData>) {
  const { query, filter, estimateRowHeight = 52 } = props;
  const rowsLoaded = useLoadedRows(query, props.data, filter);
  const { loaded, data, hasNextPage, fetching, pending } = rowsLoaded;
  const { table, columns, columnVisibility, hasSelection } = useTableModel(props, data, hasNextPage);

  const rows = table.getRowModel().rows;
  const visibleColumns = table.getVisibleLeafColumns();
  // On a phone or a narrow window each row is a card: its lead column, then the others as short named lines.
  const narrow = useMediaQuery(NARROW);
  const gridTemplateColumns = narrow
    ? '1fr'
    : visibleColumns.map((c) => c.columnDef.meta?.width ?? DEFAULT_WIDTH).join(' ');
  const minWidth = narrow ? undefined : props.minWidth;
  // Read once: fixed row heights follow the root font size.
  const [fontScale] = useState(rootFontScale);
  const idPrefix = useId();

  const scrollRef = useRef<HTMLDivElement | null>(null);
  // Also state: the rows' virtualizer (a child) needs the element once it exists.
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const attachScroll = useCallback((el: HTMLDivElement | null) => {
    scrollRef.current = el;
    setScrollElement(el);
  }, []);
  const headerRowRef = useRef<HTMLDivElement | null>(null);
  const bodyRef = useRef<HTMLDivElement | null>(null);
  // The virtualizer lives in `VirtualRows`, so scrolling re-renders the rows, not the whole table.
  const virtualizerRef = useRef<RowVirtualizer | null>(null);
  const { activeIndex, onKeyDown, onBodyClick } = useTableKeyboard({
    rows,
    scrollRef,
    headerRowRef,
    bodyRef,
    virtualizerRef,
    hasSelection,
    onRowOpen: props.onRowOpen,
  });

  // ---- states
  if (query?.error && loaded.length === 0) {
    return <ProblemView error={query.error} onRetry={() => void query.refetch()} />;
  }
  const footer = () => (
    <TableFooter
      loaded={loaded.length}
      shown={filter ? data.length : undefined}
      total={rowsLoaded.total}
      hasNextPage={hasNextPage}
      fetching={fetching}
      error={query?.error}
      onMore={query ? () => void query.fetchNextPage() : undefined}
      chooser={<ColumnChooser table={table} />}
    />
  );
  if (!pending && data.length === 0) {
    // (Rows loaded that the filter hides, or more pages: the footer says so and offers the next page.)
    return (
      <div className="flex flex-col gap-2">
        <EmptyState title={props.empty.title}>{props.empty.hint}</EmptyState>
        {query && (loaded.length > 0 || hasNextPage) && footer()}
      </div>
    );
  }

  const rowCount = rowsLoaded.rowCount;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div
        ref={attachScroll}
        role="table"
        aria-label={props.label}
        aria-rowcount={rowCount === -1 ? -1 : rowCount + 1}
        aria-busy={pending || fetching || undefined}
        data-testid="data-table"
        onKeyDown={onKeyDown}
        className={cn(
          'overflow-auto rounded-lg border border-line bg-surface text-sm',
          props.className ?? 'h-[calc(100dvh-16rem)] min-h-80',
        )}
      >
        <TableHeader
          table={table}
          rowRef={headerRowRef}
          active={activeIndex < 0}
          narrow={narrow}
          gridTemplateColumns={gridTemplateColumns}
          minWidth={minWidth}
        />
        {pending ? (
          <SkeletonRows
            columnIds={visibleColumns.map((c) => c.id)}
            gridTemplateColumns={gridTemplateColumns}
            minWidth={minWidth}
          />
        ) : (
          <VirtualRows
            // A card's height is measured, a row's may be fixed: sizes of one mode mean nothing in the other.
            key={narrow ? 'cards' : 'rows'}
            rows={rows}
            idPrefix={idPrefix}
            scrollElement={scrollElement}
            bodyRef={bodyRef}
            virtualizerRef={virtualizerRef}
            activeIndex={activeIndex}
            hasSelection={hasSelection}
            clickable={!!props.onRowOpen}
            gridTemplateColumns={gridTemplateColumns}
            columns={columns}
            columnVisibility={columnVisibility}
            estimateRowHeight={
              narrow
                ? Math.max(estimateRowHeight, Math.ceil(visibleColumns.length / 2) * 40 + 40)
                : props.fixedRowHeight
                  ? Math.ceil(estimateRowHeight * fontScale)
                  : estimateRowHeight
            }
            fixedRowHeight={!!props.fixedRowHeight && !narrow}
            minWidth={minWidth}
            narrow={narrow}
            onClick={onBodyClick}
            onVisibleRowsChange={props.onVisibleRowsChange}
            more={query && hasNextPage && !fetching && !query.error ? query.fetchNextPage : undefined}
          />
        )}
      </div>
      {pending ? (
        <p role="status" className="text-xs text-muted">
          Loading…
        </p>
      ) : (
        footer()
      )}
    </div>
  );
}
