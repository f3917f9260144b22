/**
 * The data table's keyboard and clicks: the table is one tab stop (the active row); ArrowUp/ArrowDown/PageUp/
 * PageDown/Home/End move it, Enter opens the row, Space toggles its selection (Shift+Space: the range),
 * ArrowLeft/ArrowRight reach the controls in the row, Escape returns to the row, and ArrowUp from the first row
 * reaches the header's controls. One click handler serves every row.
 */
import type { Row, RowData } from '@tanstack/react-table';
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react';
import { toggleRow } from './select-column';
import { FOCUSABLE, leaveTabOrder } from './table-row';
import type { RowVirtualizer } from './virtual-rows';
import type { DataTableFeatures } from './features';

const INTERACTIVE = 'a, button, input, select, textarea, label, [role="checkbox"], [role="button"]';

export interface TableKeyboardOptions<TData extends RowData> {
  rows: ReadonlyArray<Row<DataTableFeatures, TData>>;
  scrollRef: RefObject<HTMLDivElement | null>;
  headerRowRef: RefObject<HTMLDivElement | null>;
  bodyRef: RefObject<HTMLDivElement | null>;
  virtualizerRef: RefObject<RowVirtualizer | null>;
  hasSelection: boolean;
  onRowOpen: ((row: TData) => void) | undefined;
}

export function useTableKeyboard<TData extends RowData>(opts: TableKeyboardOptions<TData>) {
  const { rows, scrollRef, headerRowRef, bodyRef, virtualizerRef, hasSelection, onRowOpen } = opts;
  const [activeIndexState, setActiveIndex] = useState(0);
  const activeIndex = Math.min(activeIndexState, rows.length - 1);
  const focusPending = useRef(false);

  // One tab stop: the header's controls leave the tab order (rows see to theirs); arrow keys reach them.
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

  const headerHasControls = () => !!headerRowRef.current?.querySelector(FOCUSABLE);
  const moveTo = (index: number) => {
    const next = Math.max(headerHasControls() ? -1 : 0, Math.min(rows.length - 1, index));
    setActiveIndex(next);
    focusPending.current = true;
    // (The header is sticky: always in view.)
    if (next >= 0) virtualizerRef.current?.scrollToIndex(next, { align: 'auto' });
  };

  const openRow = (row: Row<DataTableFeatures, TData>, rowEl: HTMLElement) => {
    if (onRowOpen) onRowOpen(row.original);
    else
      (
        rowEl.querySelector<HTMLElement>('[data-row-link]') ??
        rowEl.querySelector<HTMLElement>('a[href]:not([target="_blank"])')
      )?.click();
  };

  /** The keys that move across rows: the next active index, or undefined for another key. */
  const nextIndex = (key: string, index: number): number | undefined => {
    const range = virtualizerRef.current?.range;
    const page = Math.max(1, (range?.endIndex ?? 0) - (range?.startIndex ?? 0));
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: Math.max(0, index) + page,
      PageUp: Math.max(0, index - page),
      Home: 0,
      End: rows.length - 1,
    };
    return moves[key];
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
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    const move = nextIndex(e.key, index);
    if (move !== undefined) {
      handled();
      return moveTo(move);
    }
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowLeft': {
        handled();
        const controls = [...rowEl.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((n) => !n.matches(':disabled'));
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
    if (onRowOpen) onRowOpen(row.original);
    else if (hasSelection) toggleRow(row, e.shiftKey);
  };

  return { activeIndex, onKeyDown, onBodyClick };
}
