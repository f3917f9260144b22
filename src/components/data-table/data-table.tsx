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
 * Markup: a real `<table>` (it is also the scrolling element) whose rows are absolutely positioned grids, so
 * the roles are spelled out (`display` other than `table` drops table semantics in some browsers), with
 * `aria-rowcount`/`aria-rowindex` telling where the rendered rows sit. Keyboard: the table is one tab stop
 * (the active row); ArrowUp/ArrowDown/PageUp/PageDown/Home/End move it, Enter opens the row (`onRowOpen`,
 * else its `data-row-link` element, else its first same-tab link), Space toggles its selection, ArrowLeft/ArrowRight reach the controls in
 * the row, and ArrowUp from the first row reaches the header's controls (sorting, select all).
 */
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  useTable,
  type Row,
  type RowData,
  type RowSelectionState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { EmptyState } from '../page-header';
import { ProblemView } from '../problem-view';
import { ColumnChooser } from './column-chooser';
import { usePersistedColumnVisibility } from './column-visibility';
import { dataTableFeatures, type DataTableColumn, type DataTableFeatures } from './features';

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
  estimateRowHeight?: number;
  /** Every row is `estimateRowHeight` tall (no measuring): the cheapest scrolling for very long lists. */
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
        <Checkbox
          aria-label={label?.(row.original) ?? 'Select'}
          checked={row.getIsSelected()}
          disabled={!row.getCanSelect()}
          onClick={(e) => {
            // The table toggles (with shift-click ranges); Radix leaves a prevented click alone.
            e.preventDefault();
            table.options.meta?.toggleRow?.(row.id, e.shiftKey);
          }}
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
  const gridTemplateColumns = visibleColumns.map((c) => c.columnDef.meta?.width ?? DEFAULT_WIDTH).join(' ');

  // ---- the active row (keyboard) and virtualization
  const scrollRef = useRef<HTMLTableElement | null>(null);
  const headerRowRef = useRef<HTMLTableRowElement | null>(null);
  const [activeIndexState, setActiveIndex] = useState(0);
  const activeIndex = Math.min(activeIndexState, rows.length - 1);
  const focusPending = useRef(false);

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

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateRowHeight,
    overscan: OVERSCAN,
    getItemKey: (i) => rows[i]?.id ?? i,
    rangeExtractor,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const range = virtualizer.range;
  const renderedStart = range ? Math.max(0, range.startIndex - OVERSCAN) : 0;
  const renderedEnd = range ? Math.min(rows.length - 1, range.endIndex + OVERSCAN) : -1;

  // ---- the rows in view, for the screen (e.g. live polling of those only)
  const onVisibleRowsChange = useRef(props.onVisibleRowsChange);
  useLayoutEffect(() => {
    onVisibleRowsChange.current = props.onVisibleRowsChange;
  });
  useEffect(() => {
    onVisibleRowsChange.current?.(rows.slice(renderedStart, renderedEnd + 1).map((r) => r.original));
  }, [rows, renderedStart, renderedEnd]);

  // ---- the next page, as the end comes into view
  const fetching = query?.isFetchingNextPage ?? false;
  const failed = !!query?.error;
  const fetchNextPage = query?.fetchNextPage;
  useEffect(() => {
    if (!fetchNextPage || !hasNextPage || fetching || failed || rows.length === 0) return;
    if (renderedEnd >= rows.length - 1 - PREFETCH_ROWS) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, fetching, failed, renderedEnd, rows.length]);

  // ---- one tab stop: every control inside the table leaves the tab order; arrow keys reach them
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    for (const node of el.querySelectorAll<HTMLElement>(FOCUSABLE)) {
      if (node.tagName !== 'TR' && node.tabIndex !== -1) node.tabIndex = -1;
    }
  });
  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    const target =
      activeIndex < 0
        ? headerRowRef.current
        : scrollRef.current?.querySelector<HTMLElement>(`tbody > tr[data-index="${activeIndex}"]`);
    target?.focus({ preventScroll: true });
  });

  const moveTo = (index: number) => {
    const next = Math.max(headerHasControls() ? -1 : 0, Math.min(rows.length - 1, index));
    setActiveIndex(next);
    focusPending.current = true;
    // (The header is sticky: always in view.)
    if (next >= 0) virtualizer.scrollToIndex(next, { align: 'auto' });
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

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    const target = e.target as HTMLElement;
    const rowEl = target.closest('tr');
    if (!rowEl || !scrollRef.current?.contains(rowEl)) return;
    if (target.matches('input:not([type="checkbox"]), textarea, select, [contenteditable="true"]')) return;
    const onRow = target === rowEl;
    const isHeader = rowEl === headerRowRef.current;
    const index = isHeader ? -1 : Number(rowEl.dataset.index);
    const row = isHeader ? undefined : rows[index];
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

  const onRowClick = (e: MouseEvent<HTMLTableRowElement>, row: Row<DataTableFeatures, TData>, index: number) => {
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
      <table
        ref={scrollRef}
        role="table"
        aria-label={props.label}
        aria-rowcount={rowCount === -1 ? -1 : rowCount + 1}
        aria-busy={pending || fetching || undefined}
        data-testid="data-table"
        onKeyDown={onKeyDown}
        className={cn(
          'block overflow-auto rounded-lg border border-line bg-surface text-sm',
          props.className ?? 'h-[calc(100dvh-16rem)] min-h-80',
        )}
      >
        <thead role="rowgroup" className="sticky top-0 z-10 block" style={{ minWidth: props.minWidth }}>
          <tr
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
                <th
                  key={header.id}
                  role="columnheader"
                  scope="col"
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
                    <span className="truncate">{content}</span>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        {pending ? (
          <tbody role="rowgroup" className="block" style={{ minWidth: props.minWidth }}>
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <tr
                key={i}
                aria-hidden
                className="grid items-center gap-3 border-b border-line/60 px-3 py-3"
                style={{ gridTemplateColumns }}
              >
                {visibleColumns.map((c) => (
                  <td key={c.id} className="min-w-0">
                    <Skeleton className={cn('h-4', c.id === SELECT_COLUMN_ID ? 'w-4' : i % 2 ? 'w-3/4' : 'w-1/2')} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        ) : (
          <tbody
            role="rowgroup"
            className="relative block"
            style={{ height: virtualizer.getTotalSize(), minWidth: props.minWidth }}
          >
            {virtualItems.map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              const selected = hasSelection ? row.getIsSelected() : undefined;
              return (
                <tr
                  key={row.id}
                  role="row"
                  data-index={item.index}
                  ref={props.fixedRowHeight ? undefined : virtualizer.measureElement}
                  aria-rowindex={item.index + 2}
                  aria-selected={selected}
                  tabIndex={item.index === activeIndex ? 0 : -1}
                  onClick={(e) => onRowClick(e, row, item.index)}
                  onMouseDown={(e) => {
                    if (e.shiftKey && hasSelection) e.preventDefault(); // no text selection on a shift-click range
                  }}
                  className={cn(
                    'absolute inset-x-0 top-0 grid items-center gap-3 border-b border-line/60 px-3 py-2 hover:bg-surface-2/60',
                    'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent',
                    selected && 'bg-accent/5 hover:bg-accent/10',
                    props.onRowOpen && 'cursor-pointer',
                  )}
                  style={{
                    gridTemplateColumns,
                    transform: `translateY(${item.start - HEADER_HEIGHT}px)`,
                    height: props.fixedRowHeight ? estimateRowHeight : undefined,
                  }}
                >
                  {row.getVisibleCells().map((cell) => {
                    const meta = cell.column.columnDef.meta;
                    const title = meta?.cellTitle as ((row: TData) => string | undefined) | undefined;
                    return (
                      <td
                        key={cell.id}
                        role="cell"
                        title={title?.(row.original)}
                        className={cn('min-w-0', meta?.align === 'end' && 'text-right', meta?.className)}
                      >
                        <table.FlexRender cell={cell} />
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        )}
      </table>
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
            {props.total != null ? ` of ${formatNumber(props.total)}` : ''}
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
