/**
 * A virtualized, infinite list over cursor pages: only the visible rows are in the DOM, and the next page
 * loads as the end comes into view. Rows are table rows (role="row") so they read as a table.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { Button } from './ui/button';
import { EmptyState, Spinner } from './page-header';
import { ProblemView } from './problem-view';

/** What CursorList needs from an infinite query; see `cursorListState`. */
export interface InfiniteQueryLike {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isPending: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
  refetch: () => Promise<unknown>;
}

/** The paging and loading props of an infinite query, to spread into a CursorList. */
export function cursorListState(query: InfiniteQueryLike) {
  return {
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    isPending: query.isPending,
    error: query.error,
    fetchNextPage: () => void query.fetchNextPage(),
    refetch: () => void query.refetch(),
  };
}

export interface CursorListProps<T> {
  items: readonly T[];
  getKey: (item: T, index: number) => string;
  renderRow: (item: T, index: number) => ReactNode;
  /** Header cells (role="columnheader"), laid out like the rows. */
  header?: ReactNode;
  /** CSS grid-template-columns shared by header and rows. */
  columns: string;
  estimateSize?: number;
  ariaLabel: string;
  total?: number | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isPending: boolean;
  error: unknown;
  fetchNextPage: () => void;
  refetch: () => void;
  emptyTitle: string;
  emptyHint?: ReactNode;
  /** Height of the scrolling area. */
  className?: string;
  /** Called with the scroll container, e.g. to measure scrolling in benchmarks. */
  scrollRef?: (el: HTMLDivElement | null) => void;
  minWidth?: string;
  /** Called with the first and last index of the rows rendered (visible plus overscan), e.g. to poll only those. */
  onRangeChange?: (startIndex: number, endIndex: number) => void;
}

export function CursorList<T>(props: CursorListProps<T>) {
  const parentRef = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({
    count: props.items.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => props.estimateSize ?? 52,
    overscan: 8,
    getItemKey: (i) => props.getKey(props.items[i] as T, i),
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems[virtualItems.length - 1]?.index ?? -1;
  const firstIndex = virtualItems[0]?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage, error, onRangeChange } = props;

  useEffect(() => {
    onRangeChange?.(firstIndex, lastIndex);
  }, [firstIndex, lastIndex, onRangeChange]);

  useEffect(() => {
    if (lastIndex >= props.items.length - 15 && hasNextPage && !isFetchingNextPage && !error) fetchNextPage();
  }, [lastIndex, props.items.length, hasNextPage, isFetchingNextPage, fetchNextPage, error]);

  if (props.isPending) return <Spinner />;
  if (props.error && props.items.length === 0) return <ProblemView error={props.error} onRetry={props.refetch} />;
  if (props.items.length === 0) return <EmptyState title={props.emptyTitle}>{props.emptyHint}</EmptyState>;

  return (
    <div className="flex flex-col gap-2">
      <div
        ref={(el) => {
          parentRef.current = el;
          props.scrollRef?.(el);
        }}
        role="table"
        aria-label={props.ariaLabel}
        aria-rowcount={props.total ?? (hasNextPage ? -1 : props.items.length + (props.header ? 1 : 0))}
        className={cn(
          'overflow-auto rounded-lg border border-line bg-surface',
          props.className ?? 'h-[calc(100dvh-16rem)] min-h-80',
        )}
        data-testid="cursor-list"
      >
        <div style={{ minWidth: props.minWidth }}>
          {props.header && (
            <div
              role="row"
              className="sticky top-0 z-10 grid gap-3 border-b border-line bg-surface-2 px-3 py-2 text-xs font-semibold tracking-wide text-muted uppercase"
              style={{ gridTemplateColumns: props.columns }}
            >
              {props.header}
            </div>
          )}
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualItems.map((v) => (
              <div
                key={v.key}
                role="row"
                aria-rowindex={v.index + (props.header ? 2 : 1)}
                data-index={v.index}
                ref={virtualizer.measureElement}
                className="absolute inset-x-0 grid items-center gap-3 border-b border-line/60 px-3 py-2 text-sm hover:bg-surface-2/60"
                style={{ transform: `translateY(${v.start}px)`, gridTemplateColumns: props.columns }}
              >
                {props.renderRow(props.items[v.index] as T, v.index)}
              </div>
            ))}
          </div>
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
        <span aria-live="polite">
          Loaded {formatNumber(props.items.length)}
          {props.total !== undefined && props.total !== null ? ` of ${formatNumber(props.total)}` : ''}
          {hasNextPage ? '' : ' (all)'}
        </span>
        {props.error ? (
          <ProblemView compact error={props.error} onRetry={props.fetchNextPage} />
        ) : hasNextPage ? (
          <Button size="sm" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
