/**
 * The data table's header row (sticky above the rows): each column's name, a sort button where the column
 * sorts, `aria-sort` where it is sorted. A name wraps to a second line rather than being cut off in a column of
 * fixed width (the free space of a wide window goes to the flexible columns, not to those).
 */
import type { RowData } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import type { RefObject } from 'react';
import { cn } from '@/lib/cn';
import type { useTableModel } from './use-table-model';
import { HEADER_HEIGHT } from './virtual-rows';

/** Two lines at most (the header row is 36 px high), broken inside a word only when one word does not fit. */
const NAME = 'line-clamp-2 leading-tight [overflow-wrap:anywhere]';

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
}

export function TableHeader<TData extends RowData>(props: {
  table: ReturnType<typeof useTableModel<TData>>['table'];
  rowRef: RefObject<HTMLDivElement | null>;
  /** The header row is the active row (ArrowUp from the first row). */
  active: boolean;
  narrow: boolean;
  gridTemplateColumns: string;
  minWidth: string | undefined;
}) {
  const { table, rowRef, active, narrow, gridTemplateColumns, minWidth } = props;
  const headerCells = table.getHeaderGroups().flatMap((g) => g.headers);
  return (
    <div
      role="rowgroup"
      className={narrow ? 'sticky top-0 z-10 h-0 overflow-hidden' : 'sticky top-0 z-10'}
      style={{ minWidth: minWidth }}
    >
      <div
        ref={rowRef}
        role="row"
        aria-rowindex={1}
        tabIndex={active ? 0 : -1}
        className="grid items-center gap-3 border-b border-line bg-surface-2 px-3 text-xs font-semibold tracking-wide text-muted uppercase focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
        style={{ gridTemplateColumns: gridTemplateColumns, height: HEADER_HEIGHT }}
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
                    '-mx-1 inline-flex min-w-0 items-center gap-1 rounded px-1 py-0.5 text-left uppercase hover:bg-line/50 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent',
                    sorted && 'text-fg',
                  )}
                >
                  <span className={NAME}>{content}</span>
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
                  className={NAME}
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
  );
}
