/**
 * One row of the data table (memoized: it renders again only when its data, place, selection or columns
 * change), as a grid row or, on a phone, as a card; and what every row's controls share (one tab stop).
 */
import { FlexRender, type Row, type RowData } from '@tanstack/react-table';
import { memo, useCallback, useLayoutEffect, useRef, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { SELECT_COLUMN_ID } from './select-column';
import type { DataTableColumnMeta, DataTableFeatures } from './features';

export const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/** Every control inside `el` leaves the tab order (the table is one tab stop); arrow keys reach them. */
export function leaveTabOrder(el: HTMLElement | null) {
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

/**
 * The id of a cell, which its row's `aria-labelledby` lists: a row's accessible name is then its cells' texts
 * with a space between each ("running QA nightly 5 minutes ago"), where a name from the row's content would run
 * them together ("runningQA nightly5 minutes ago").
 */
const cellId = (prefix: string, index: number, cell: number) => `${prefix}-${index}-${cell}`;

export interface DataTableRowProps<TData extends RowData> {
  row: Row<DataTableFeatures, TData>;
  index: number;
  /** The table's own id prefix, for its cells' ids. */
  idPrefix: string;
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
    a.idPrefix === b.idPrefix &&
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
export const DataTableRow = memo(function DataTableRow<TData extends RowData>(props: DataTableRowProps<TData>) {
  const { row, selected, measure } = props;
  const cells = row.getVisibleCells();
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
      aria-labelledby={cells.map((_, i) => cellId(props.idPrefix, props.index, i)).join(' ')}
      aria-selected={selected}
      tabIndex={props.active ? 0 : -1}
      className={`${selected ? ROW_SELECTED : ROW_PLAIN}${props.fixed ? ROW_FIXED : ROW_MEASURED}${props.clickable ? ROW_CLICKABLE : ''}`}
      style={{ transform: `translateY(${props.top}px)` }}
    >
      {props.narrow ? (
        <CardCells row={row} id={(i) => cellId(props.idPrefix, props.index, i)} />
      ) : (
        cells.map((cell, i) => {
          const meta = cell.column.columnDef.meta;
          const title = meta?.cellTitle as ((row: TData) => string | undefined) | undefined;
          return (
            <div
              key={cell.id}
              id={cellId(props.idPrefix, props.index, i)}
              role="cell"
              title={title?.(row.original)}
              className={cellClass(meta)}
            >
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
function CardCells<TData extends RowData>({
  row,
  id,
}: {
  row: Row<DataTableFeatures, TData>;
  /** The id of the cell at a position among the row's visible cells (the row's name lists them). */
  id: (cell: number) => string;
}) {
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
      <div
        key={c.id}
        id={id(cells.indexOf(c))}
        role="cell"
        title={title?.(row.original)}
        className={cn(cellClass(meta), className)}
      >
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
