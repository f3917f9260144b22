/**
 * The data table's body: only the rows in view (plus overscan, and the active row) are rendered, over TanStack
 * Virtual; the rows in view are reported (e.g. for live polling of those only) and the next page is requested
 * as the end comes into view. While the first page loads, skeleton rows hold the table's shape.
 */
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { Row, RowData } from '@tanstack/react-table';
import { useCallback, useLayoutEffect, type CSSProperties, type MouseEvent, type RefObject } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { SELECT_COLUMN_ID } from './select-column';
import { DataTableRow } from './table-row';
import { useNextPageNearEnd, useVisibleRows } from './use-loaded-rows';
import type { DataTableFeatures } from './features';

/** The header row's height: the rows start below it (`scrollMargin`) and scroll into view below it. */
export const HEADER_HEIGHT = 36;
const OVERSCAN = 8;
const SKELETON_ROWS = 8;

export type RowVirtualizer = ReturnType<typeof useVirtualizer<HTMLDivElement, HTMLDivElement>>;

export interface VirtualRowsProps<TData extends RowData> {
  rows: ReadonlyArray<Row<DataTableFeatures, TData>>;
  /** The table's own id prefix, for its cells' ids (a row's name lists them). */
  idPrefix: string;
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

/**
 * The scroll element's size before it is measured, on the server only (src/entry-server.tsx): a typical window's
 * height of rows, so the first screen rendered there has its rows. In the browser the element is measured when
 * it is set (a synchronous re-render in the same commit, before the first paint), as before.
 */
const SERVER_RECT = typeof window === 'undefined' ? { width: 1366, height: 900 } : undefined;

/** The rendered rows (in view plus overscan, and the active row), the rows in view and the next page. */
export function VirtualRows<TData extends RowData>(props: VirtualRowsProps<TData>) {
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
    // None on the server: the rendered screen shows the rows in view, and the app renders the rest.
    overscan: SERVER_RECT ? 0 : OVERSCAN,
    getItemKey,
    rangeExtractor,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    initialRect: SERVER_RECT,
  });
  useLayoutEffect(() => {
    props.virtualizerRef.current = virtualizer;
  });
  const range = virtualizer.range;
  const start = range ? Math.max(0, range.startIndex - OVERSCAN) : 0;
  const end = range ? Math.min(rows.length - 1, range.endIndex + OVERSCAN) : -1;

  useVisibleRows(rows, start, end, props.onVisibleRowsChange);
  useNextPageNearEnd(more, end, rows.length);

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
            idPrefix={props.idPrefix}
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

/** Rows of placeholders while the first page loads, in the table's columns. */
export function SkeletonRows({
  columnIds,
  gridTemplateColumns,
  minWidth,
}: {
  columnIds: string[];
  gridTemplateColumns: string;
  minWidth: string | undefined;
}) {
  return (
    <div role="rowgroup" style={{ minWidth }}>
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <div
          key={i}
          aria-hidden
          className="grid items-center gap-3 border-b border-line/60 px-3 py-3"
          style={{ gridTemplateColumns }}
        >
          {columnIds.map((id) => (
            <div key={id} className="min-w-0">
              <Skeleton className={cn('h-4', id === SELECT_COLUMN_ID ? 'w-4' : i % 2 ? 'w-3/4' : 'w-1/2')} />
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

/** The root font size against the default 16 px (an admin's larger default font makes rows taller). */
export function rootFontScale(): number {
  if (typeof window === 'undefined') return 1;
  const px = parseFloat(window.getComputedStyle(document.documentElement).fontSize);
  return px > 0 ? px / 16 : 1;
}
