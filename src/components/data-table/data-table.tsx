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
 */
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  FlexRender,
  useTable,
  type Row,
  type RowData,
  type RowSelectionState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type CSSProperties,
  type ReactNode,
  type RefObject,
} from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { NARROW, useMediaQuery } from '@/lib/use-media-query';
import { formatNumber } from '@/lib/format';
import { EmptyState } from '../page-header';
import { ProblemView } from '../problem-view';
import { ColumnChooser } from './column-chooser';
import { RowCheckbox } from './row-checkbox';
import { usePersistedColumnVisibility } from './column-visibility';
import { dataTableFeatures, type DataTableColumn, type DataTableColumnMeta, type DataTableFeatures } from './features';

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
/** The header row's height: the rows start below it (`scrollMargin`) and scroll into view below it. */
const HEADER_HEIGHT = 36;
const OVERSCAN = 8;
/** The next page is requested when the rendered rows come this close to the end. */
const PREFETCH_ROWS = 15;
const SKELETON_ROWS = 8;
const SELECT_COLUMN_ID = 'select';
const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';
const INTERACTIVE = 'a, button, input, select, textarea, label, [role="checkbox"], [role="button"]';
const EMPTY: never[] = [];
const DEFAULT_COLUMN = { enableSorting: false };

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
}

/** Through the row-selection feature's handler, which keeps the shift-click anchor and selects the range. */
function toggleRow<TData extends RowData>(row: Row<DataTableFeatures, TData>, shiftKey: boolean) {
  row.getToggleSelectedHandler()({ shiftKey, target: { checked: !row.getIsSelected() } });
}

function resolve<T>(updater: Updater<T>, old: T): T {
  return typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater;
}

/** The checkbox column, first when rows can be selected; it reads the table's meta (labels, limit, toggle). */
function selectColumn<TData extends RowData>(): DataTableColumn<TData> {
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

export function DataTable<TData extends RowData>(props: DataTableProps<TData>) {
  const { query, filter, selection, manualSorting = false, estimateRowHeight = 52 } = props;
  const hasNextPage = query?.hasNextPage ?? false;
  const pages = query?.data?.pages;
  const loaded = useMemo(() => props.data ?? pages?.flatMap((p) => p.items) ?? EMPTY, [props.data, pages]);
  const data = useMemo(() => (filter ? loaded.filter(filter) : loaded), [loaded, filter]);
  const total = pages?.[0]?.total;

  // ---- state: sorting, selection (controlled or the table's own), visibility (remembered)
  const [ownSorting, setOwnSorting] = useState<SortingState>([]);
  const sorting = props.sorting ?? ownSorting;
  // Sorting in the browser is only honest over the whole set.
  const canSortHere = manualSorting || !hasNextPage;
  const [ownSelection, setOwnSelection] = useState<RowSelectionState>({});
  const rowSelection = selection?.state ?? ownSelection;
  const selectedCount = Object.keys(rowSelection).length;
  const [columnVisibility, setColumnVisibility] = usePersistedColumnVisibility(props.tableId);

  // ---- columns: the screen's, after a checkbox column when rows can be selected
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

  // ---- the active row (keyboard) and virtualization
  const scrollRef = useRef<HTMLDivElement | null>(null);
  // Also state: the rows' virtualizer (a child) needs the element once it exists.
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const attachScroll = useCallback((el: HTMLDivElement | null) => {
    scrollRef.current = el;
    setScrollElement(el);
  }, []);
  const headerRowRef = useRef<HTMLDivElement | null>(null);
  const bodyRef = useRef<HTMLDivElement | null>(null);
  const [activeIndexState, setActiveIndex] = useState(0);
  const activeIndex = Math.min(activeIndexState, rows.length - 1);
  const focusPending = useRef(false);

  // The virtualizer lives in `VirtualRows`, so scrolling re-renders the rows, not the whole table.
  const virtualizerRef = useRef<RowVirtualizer | null>(null);
  const fetching = query?.isFetchingNextPage ?? false;

  // ---- one tab stop: the header's controls leave the tab order (rows see to theirs); arrow keys reach them
  useLayoutEffect(() => leaveTabOrder(headerRowRef.current));
  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    const target =
      activeIndex < 0
        ? headerRowRef.current
        : bodyRef.current?.querySelector<HTMLElement>(`:scope > [data-index="${activeIndex}"]`);
    target?.focus({ preventScroll: true });
  });

  const moveTo = (index: number) => {
    const next = Math.max(headerHasControls() ? -1 : 0, Math.min(rows.length - 1, index));
    setActiveIndex(next);
    focusPending.current = true;
    // (The header is sticky: always in view.)
    if (next >= 0) virtualizerRef.current?.scrollToIndex(next, { align: 'auto' });
  };
  const headerHasControls = () => !!headerRowRef.current?.querySelector(FOCUSABLE);

  const openRow = (row: Row<DataTableFeatures, TData>, rowEl: HTMLElement) => {
    if (props.onRowOpen) props.onRowOpen(row.original);
    else
      (
        rowEl.querySelector<HTMLElement>('[data-row-link]') ??
        rowEl.querySelector<HTMLElement>('a[href]:not([target="_blank"])')
      )?.click();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>('[role="row"]');
    if (!rowEl || !scrollRef.current?.contains(rowEl)) return;
    if (target.matches('input:not([type="checkbox"]), textarea, select, [contenteditable="true"]')) return;
    const onRow = target === rowEl;
    const isHeader = rowEl === headerRowRef.current;
    const index = isHeader ? -1 : Number(rowEl.dataset.index);
    const row = isHeader ? undefined : rows[index];
    const range = virtualizerRef.current?.range;
    const page = Math.max(1, (range?.endIndex ?? 0) - (range?.startIndex ?? 0));
    const controls = [...rowEl.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((n) => !n.matches(':disabled'));
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    switch (e.key) {
      case 'ArrowDown':
        handled();
        return moveTo(index + 1);
      case 'ArrowUp':
        handled();
        return moveTo(index - 1);
      case 'PageDown':
        handled();
        return moveTo(Math.max(0, index) + page);
      case 'PageUp':
        handled();
        return moveTo(Math.max(0, index - page));
      case 'Home':
        handled();
        return moveTo(0);
      case 'End':
        handled();
        return moveTo(rows.length - 1);
      case 'ArrowRight':
      case 'ArrowLeft': {
        handled();
        const at = onRow ? -1 : controls.indexOf(target);
        const next = e.key === 'ArrowRight' ? at + 1 : at - 1;
        if (next < 0) rowEl.focus();
        else controls[Math.min(next, controls.length - 1)]?.focus();
        return;
      }
      case 'Escape':
        if (!onRow) {
          handled();
          rowEl.focus();
        }
        return;
      case 'Enter':
        if (onRow && row) {
          handled();
          openRow(row, rowEl);
        }
        return;
      case ' ':
        if (onRow && row && hasSelection) {
          handled();
          toggleRow(row, e.shiftKey);
        } else if (onRow) e.preventDefault();
        return;
    }
  };

  // One handler for every row (rows are memoized and do not re-render as the list scrolls).
  const onBodyClick = (e: MouseEvent<HTMLDivElement>) => {
    const rowEl = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    const index = Number(rowEl?.dataset.index);
    const row = rows[index];
    if (!row) return;
    setActiveIndex(index);
    if ((e.target as HTMLElement).closest(INTERACTIVE)) return;
    if (window.getSelection()?.toString()) return; // selecting text, not the row
    if (props.onRowOpen) props.onRowOpen(row.original);
    else if (hasSelection) toggleRow(row, e.shiftKey);
  };

  // ---- states
  if (query?.error && loaded.length === 0) {
    return <ProblemView error={query.error} onRetry={() => void query.refetch()} />;
  }
  const pending = !!query?.isPending && !query.error;
  if (!pending && data.length === 0) {
    // (Rows loaded that the filter hides, or more pages: the footer says so and offers the next page.)
    return (
      <div className="flex flex-col gap-2">
        <EmptyState title={props.empty.title}>{props.empty.hint}</EmptyState>
        {query && (loaded.length > 0 || hasNextPage) && <Footer {...footerProps()} />}
      </div>
    );
  }

  function footerProps() {
    return {
      loaded: loaded.length,
      shown: filter ? data.length : undefined,
      total,
      hasNextPage,
      fetching,
      error: query?.error,
      onMore: query ? () => void query.fetchNextPage() : undefined,
      chooser: <ColumnChooser table={table} />,
    };
  }

  const headerCells = table.getHeaderGroups().flatMap((g) => g.headers);
  // Rows in the whole list (-1: not known yet), plus the header row.
  const rowCount = filter ? data.length : (total ?? (hasNextPage ? -1 : loaded.length));

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
        <div
          role="rowgroup"
          className={narrow ? 'sticky top-0 z-10 h-0 overflow-hidden' : 'sticky top-0 z-10'}
          style={{ minWidth }}
        >
          <div
            ref={headerRowRef}
            role="row"
            aria-rowindex={1}
            tabIndex={activeIndex < 0 ? 0 : -1}
            className="grid items-center gap-3 border-b border-line bg-surface-2 px-3 text-xs font-semibold tracking-wide text-muted uppercase focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
            style={{ gridTemplateColumns, height: HEADER_HEIGHT }}
          >
            {headerCells.map((header) => {
              const column = header.column;
              const meta = column.columnDef.meta;
              const canSort = column.getCanSort();
              const sorted = column.getIsSorted();
              const content = header.isPlaceholder ? null : <table.FlexRender header={header} />;
              return (
                <div
                  key={header.id}
                  role="columnheader"
                  aria-sort={canSort || sorted ? ariaSort(sorted) : undefined}
                  className={cn('flex min-w-0 items-center text-left', meta?.align === 'end' && 'justify-end')}
                >
                  {canSort ? (
                    <button
                      type="button"
                      onClick={column.getToggleSortingHandler()}
                      className={cn(
                        '-mx-1 inline-flex min-w-0 items-center gap-1 rounded px-1 py-0.5 uppercase hover:bg-line/50 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent',
                        sorted && 'text-fg',
                      )}
                    >
                      <span className="truncate">{content}</span>
                      {sorted === 'asc' ? (
                        <ArrowUp className="size-3.5 shrink-0" aria-hidden />
                      ) : sorted === 'desc' ? (
                        <ArrowDown className="size-3.5 shrink-0" aria-hidden />
                      ) : (
                        <ChevronsUpDown className="size-3.5 shrink-0 opacity-50" aria-hidden />
                      )}
                    </button>
                  ) : (
                    <span
                      className="truncate"
                      title={column.columnDef.enableSorting ? 'Sorts once every row is loaded' : undefined}
                    >
                      {content}
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        </div>
        {pending ? (
          <div role="rowgroup" style={{ minWidth }}>
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <div
                key={i}
                aria-hidden
                className="grid items-center gap-3 border-b border-line/60 px-3 py-3"
                style={{ gridTemplateColumns }}
              >
                {visibleColumns.map((c) => (
                  <div key={c.id} className="min-w-0">
                    <Skeleton className={cn('h-4', c.id === SELECT_COLUMN_ID ? 'w-4' : i % 2 ? 'w-3/4' : 'w-1/2')} />
                  </div>
                ))}
              </div>
            ))}
          </div>
        ) : (
          <VirtualRows
            // A card's height is measured, a row's may be fixed: sizes of one mode mean nothing in the other.
            key={narrow ? 'cards' : 'rows'}
            rows={rows}
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
        <Footer {...footerProps()} />
      )}
    </div>
  );
}

type RowVirtualizer = ReturnType<typeof useVirtualizer<HTMLDivElement, HTMLDivElement>>;

interface VirtualRowsProps<TData extends RowData> {
  rows: ReadonlyArray<Row<DataTableFeatures, TData>>;
  scrollElement: HTMLDivElement | null;
  bodyRef: RefObject<HTMLDivElement | null>;
  /** Set to this component's virtualizer, for the table's keyboard handling. */
  virtualizerRef: RefObject<RowVirtualizer | null>;
  activeIndex: number;
  hasSelection: boolean;
  clickable: boolean;
  gridTemplateColumns: string;
  columns: unknown;
  columnVisibility: unknown;
  estimateRowHeight: number;
  fixedRowHeight: boolean;
  minWidth: string | undefined;
  narrow: boolean;
  onClick: (e: MouseEvent<HTMLDivElement>) => void;
  onVisibleRowsChange: ((rows: TData[]) => void) | undefined;
  /** Loads the next page; absent when there is none to load now. */
  more: (() => Promise<unknown>) | undefined;
}

/** The rendered rows (in view plus overscan, and the active row), the rows in view and the next page. */
function VirtualRows<TData extends RowData>(props: VirtualRowsProps<TData>) {
  const { rows, activeIndex, hasSelection, more } = props;
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      // The active row stays rendered while scrolled away, so focus is never lost with it.
      if (activeIndex >= 0 && activeIndex < range.count && !indexes.includes(activeIndex)) {
        indexes.push(activeIndex);
        indexes.sort((a, b) => a - b);
      }
      return indexes;
    },
    [activeIndex],
  );
  // Stable between renders: the virtualizer recomputes every row's offset (all 10,000 of them) whenever
  // `getItemKey` changes, so it changes only with the rows.
  const getItemKey = useCallback((i: number) => rows[i]?.id ?? i, [rows]);
  const estimateRowHeight = props.estimateRowHeight;
  const estimateSize = useCallback(() => estimateRowHeight, [estimateRowHeight]);
  const scrollElement = props.scrollElement;
  const getScrollElement = useCallback(() => scrollElement, [scrollElement]);
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count: rows.length,
    getScrollElement,
    estimateSize,
    overscan: OVERSCAN,
    getItemKey,
    rangeExtractor,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  useLayoutEffect(() => {
    props.virtualizerRef.current = virtualizer;
  });
  const range = virtualizer.range;
  const start = range ? Math.max(0, range.startIndex - OVERSCAN) : 0;
  const end = range ? Math.min(rows.length - 1, range.endIndex + OVERSCAN) : -1;

  // The rows in view, for the screen (e.g. live polling of those only).
  const onVisibleRowsChange = useRef(props.onVisibleRowsChange);
  useLayoutEffect(() => {
    onVisibleRowsChange.current = props.onVisibleRowsChange;
  });
  useEffect(() => {
    onVisibleRowsChange.current?.(rows.slice(start, end + 1).map((r) => r.original));
  }, [rows, start, end]);

  // The next page, as the end comes into view.
  useEffect(() => {
    if (more && rows.length > 0 && end >= rows.length - 1 - PREFETCH_ROWS) void more();
  }, [more, end, rows.length]);

  return (
    <div
      ref={props.bodyRef}
      role="rowgroup"
      onClick={props.onClick}
      onMouseDown={(e) => {
        if (e.shiftKey && hasSelection) e.preventDefault(); // no text selection on a shift-click range
      }}
      // While the list scrolls, pulsing badges (a live session's dot) rest: each would otherwise start a
      // composited animation as its row comes into view, on every frame of a fast scroll.
      data-scrolling={virtualizer.isScrolling || undefined}
      className="relative data-scrolling:[&_.animate-pulse]:animate-none"
      style={
        {
          height: virtualizer.getTotalSize(),
          minWidth: props.minWidth,
          // Read by every row's classes: one place to change, no style to parse per row.
          '--dt-columns': props.gridTemplateColumns,
          '--dt-row-height': `${props.estimateRowHeight}px`,
        } as CSSProperties
      }
    >
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        return (
          <DataTableRow
            key={row.id}
            row={row}
            index={item.index}
            top={item.start - HEADER_HEIGHT}
            fixed={props.fixedRowHeight}
            measure={props.fixedRowHeight ? undefined : virtualizer.measureElement}
            active={item.index === activeIndex}
            selected={hasSelection ? row.getIsSelected() : undefined}
            selectable={hasSelection && row.getCanSelect()}
            clickable={props.clickable}
            narrow={props.narrow}
            columns={props.columns}
            columnVisibility={props.columnVisibility}
          />
        );
      })}
    </div>
  );
}

/** The root font size against the default 16 px (an admin's larger default font makes rows taller). */
function rootFontScale(): number {
  if (typeof window === 'undefined') return 1;
  const px = parseFloat(window.getComputedStyle(document.documentElement).fontSize);
  return px > 0 ? px / 16 : 1;
}

/** Every control inside `el` leaves the tab order (the table is one tab stop); arrow keys reach them. */
function leaveTabOrder(el: HTMLElement | null) {
  if (!el) return;
  for (const node of el.querySelectorAll<HTMLElement>(FOCUSABLE)) if (node.tabIndex !== -1) node.tabIndex = -1;
}

// Plain strings (no class merging per row): the variants do not conflict. The columns and a fixed height come
// from the rows' group (`--dt-columns`, `--dt-row-height`). Each row lays out on its own (`contain`), so a row
// coming into view leaves the others alone; a fixed-height row also keeps its size whatever its content, a
// measured one (a card) sizes to its content. Not paint containment: where the columns are wider than the
// table, the row's last cells run past its box into the sideways scroll, as the header's do.
const ROW_CLASS =
  'absolute inset-x-0 top-0 grid grid-cols-(--dt-columns) items-center gap-3 border-b border-line/60 px-3 py-2 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent';
const ROW_FIXED = ' h-(--dt-row-height) [contain:size_layout_style]';
const ROW_MEASURED = ' [contain:layout_style]';
// (A constant: the formatter's Tailwind plugin trims a class string's leading space inside `className`.)
const ROW_CLICKABLE = ' cursor-pointer';
const ROW_PLAIN = `${ROW_CLASS} hover:bg-surface-2/60`;
const ROW_SELECTED = `${ROW_CLASS} bg-accent/10 hover:bg-accent/15`;

/** A cell's classes, from its column's meta (computed once per column, not per cell). */
const cellClasses = new WeakMap<object, string>();
function cellClass(meta: DataTableColumnMeta | undefined): string {
  if (!meta || (!meta.className && meta.align !== 'end')) return 'min-w-0';
  let cls = cellClasses.get(meta);
  if (cls === undefined) {
    cls = cn('min-w-0', meta.align === 'end' && 'text-right', meta.className);
    cellClasses.set(meta, cls);
  }
  return cls;
}

interface DataTableRowProps<TData extends RowData> {
  row: Row<DataTableFeatures, TData>;
  index: number;
  /** Offset from the top of the rows. */
  top: number;
  /** The rows' fixed height (`--dt-row-height`), or measured (`measure`). */
  fixed: boolean;
  measure: ((el: HTMLDivElement | null) => void) | undefined;
  active: boolean;
  selected: boolean | undefined;
  selectable: boolean;
  clickable: boolean;
  /** A card (a phone): the lead column first, the others as short named lines (CardCells). */
  narrow: boolean;
  // Not read here, but their change re-renders the row: cells close over them.
  columns: unknown;
  columnVisibility: unknown;
}

/**
 * Whether a row must render again. Not when only its `Row` object is new: the table builds new ones for every
 * row whenever the data changes (a live update of one session, the next page), yet a row whose data (`original`),
 * place, selection and columns are the same shows the same thing. So as the list scrolls only the rows coming
 * into view render, and a live update renders only the rows whose data changed.
 */
function sameRow<TData extends RowData>(a: DataTableRowProps<TData>, b: DataTableRowProps<TData>): boolean {
  return (
    a.row.original === b.row.original &&
    a.row.id === b.row.id &&
    a.index === b.index &&
    a.top === b.top &&
    a.fixed === b.fixed &&
    a.measure === b.measure &&
    a.active === b.active &&
    a.selected === b.selected &&
    a.selectable === b.selectable &&
    a.clickable === b.clickable &&
    a.narrow === b.narrow &&
    a.columns === b.columns &&
    a.columnVisibility === b.columnVisibility
  );
}

/** One row (memoized, see `sameRow`). */
const DataTableRow = memo(function DataTableRow<TData extends RowData>(props: DataTableRowProps<TData>) {
  const { row, selected, measure } = props;
  const ref = useRef<HTMLDivElement | null>(null);
  useLayoutEffect(() => leaveTabOrder(ref.current));
  const attach = useCallback(
    (el: HTMLDivElement | null) => {
      ref.current = el;
      measure?.(el);
    },
    [measure],
  );
  return (
    <div
      ref={attach}
      role="row"
      data-index={props.index}
      aria-rowindex={props.index + 2}
      aria-selected={selected}
      tabIndex={props.active ? 0 : -1}
      className={`${selected ? ROW_SELECTED : ROW_PLAIN}${props.fixed ? ROW_FIXED : ROW_MEASURED}${props.clickable ? ROW_CLICKABLE : ''}`}
      style={{ transform: `translateY(${props.top}px)` }}
    >
      {props.narrow ? (
        <CardCells row={row} />
      ) : (
        row.getVisibleCells().map((cell) => {
          const meta = cell.column.columnDef.meta;
          const title = meta?.cellTitle as ((row: TData) => string | undefined) | undefined;
          return (
            <div key={cell.id} role="cell" title={title?.(row.original)} className={cellClass(meta)}>
              <FlexRender cell={cell} />
            </div>
          );
        })
      )}
    </div>
  );
}, sameRow) as <TData extends RowData>(props: DataTableRowProps<TData>) => ReactNode;

/**
 * A curated card (a phone): the selection box, the title column and its `aside` badges on the first line, then
 * the `field` columns as short named lines; `hidden` columns are left off.
 */
function CardCells<TData extends RowData>({ row }: { row: Row<DataTableFeatures, TData> }) {
  const cells = row.getVisibleCells();
  // Without a column marked `title`, the first column (after the selection box) leads the card.
  const leadId = cells.some((c) => c.column.columnDef.meta?.card === 'title')
    ? undefined
    : cells.find((c) => c.column.id !== SELECT_COLUMN_ID)?.column.id;
  const place = (c: (typeof cells)[number]) =>
    c.column.id === SELECT_COLUMN_ID
      ? 'select'
      : c.column.id === leadId
        ? 'title'
        : (c.column.columnDef.meta?.card ?? 'field');
  const cell = (c: (typeof cells)[number], className: string) => {
    const meta = c.column.columnDef.meta;
    const title = meta?.cellTitle as ((row: TData) => string | undefined) | undefined;
    return (
      <div key={c.id} role="cell" title={title?.(row.original)} className={cn(cellClass(meta), className)}>
        <FlexRender cell={c} />
      </div>
    );
  };
  const fields = cells.filter((c) => place(c) === 'field');
  return (
    <>
      <div className="flex min-w-0 items-start gap-2">
        {cells.filter((c) => place(c) === 'select').map((c) => cell(c, 'shrink-0'))}
        {cells.filter((c) => place(c) === 'title').map((c) => cell(c, 'min-w-0 flex-1 font-medium'))}
        {cells.filter((c) => place(c) === 'aside').map((c) => cell(c, 'shrink-0 text-end'))}
      </div>
      {fields.length > 0 ? (
        <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          {fields.map((c) => {
            const header = c.column.columnDef.header;
            const name = c.column.columnDef.meta?.label ?? (typeof header === 'string' ? header : '');
            return (
              <div key={c.id} className="flex min-w-0 flex-col">
                <span aria-hidden className="truncate text-xs text-muted">
                  {name}
                </span>
                {cell(c, 'min-w-0 text-start')}
              </div>
            );
          })}
        </div>
      ) : null}
    </>
  );
}

function Footer(props: {
  loaded: number;
  shown: number | undefined;
  total: number | null | undefined;
  hasNextPage: boolean;
  fetching: boolean;
  error: unknown;
  onMore: (() => void) | undefined;
  chooser: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
      <span aria-live="polite">
        {props.onMore ? (
          <>
            Loaded {formatNumber(props.loaded)}
            {/* A total below what was loaded is wrong (a mock's 0): said only when it can be true. */}
            {props.total != null && props.total >= props.loaded ? ` of ${formatNumber(props.total)}` : ''}
            {props.hasNextPage ? '' : ' (all)'}
          </>
        ) : (
          `${formatNumber(props.loaded)} ${props.loaded === 1 ? 'row' : 'rows'}`
        )}
        {props.shown !== undefined && ` · ${formatNumber(props.shown)} shown`}
      </span>
      <div className="flex flex-wrap items-center gap-2">
        {props.error ? (
          <ProblemView compact error={props.error} onRetry={props.onMore} />
        ) : props.hasNextPage && props.onMore ? (
          <Button size="sm" onClick={props.onMore} disabled={props.fetching}>
            {props.fetching ? 'Loading…' : 'Load more'}
          </Button>
        ) : null}
        {props.chooser}
      </div>
    </div>
  );
}
