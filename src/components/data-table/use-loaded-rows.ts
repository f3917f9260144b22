/**
 * Infinite loading for the data table: the rows loaded so far (every page of a cursor query, or a whole set at
 * hand) and what the footer and the ARIA row count say about them; the next page requested as the end comes
 * into view; the rows in view reported to the screen.
 */
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { InfiniteRowsQuery } from './data-table';

/** The next page is requested when the rendered rows come this close to the end. */
const PREFETCH_ROWS = 15;
const EMPTY: never[] = [];

export interface LoadedRows<TData> {
  /** Every row loaded. */
  loaded: readonly TData[];
  /** Those the filter keeps. */
  data: readonly TData[];
  total: number | null | undefined;
  hasNextPage: boolean;
  /** The next page is on its way. */
  fetching: boolean;
  /** The first page is on its way. */
  pending: boolean;
  /** Rows in the whole list (-1: not known yet). */
  rowCount: number;
}

export function useLoadedRows<TData>(
  query: InfiniteRowsQuery<TData> | undefined,
  whole: readonly TData[] | undefined,
  filter: ((row: TData) => boolean) | undefined,
): LoadedRows<TData> {
  const hasNextPage = query?.hasNextPage ?? false;
  const pages = query?.data?.pages;
  const loaded = useMemo(() => whole ?? pages?.flatMap((p) => p.items) ?? EMPTY, [whole, pages]);
  const data = useMemo(() => (filter ? loaded.filter(filter) : loaded), [loaded, filter]);
  const total = pages?.[0]?.total;
  return {
    loaded,
    data,
    total,
    hasNextPage,
    fetching: query?.isFetchingNextPage ?? false,
    pending: !!query?.isPending && !query.error,
    rowCount: filter ? data.length : (total ?? (hasNextPage ? -1 : loaded.length)),
  };
}

/** Requests the next page (`more`, absent when there is none to load now) once `end` nears the last row. */
export function useNextPageNearEnd(more: (() => Promise<unknown>) | undefined, end: number, count: number) {
  useEffect(() => {
    if (more && count > 0 && end >= count - 1 - PREFETCH_ROWS) void more();
  }, [more, end, count]);
}

/** Tells the screen which rows are rendered (`start`–`end`), whenever they change: e.g. to poll only those. */
export function useVisibleRows<TRow extends { original: unknown }>(
  rows: readonly TRow[],
  start: number,
  end: number,
  onChange: ((rows: Array<TRow['original']>) => void) | undefined,
) {
  const onVisibleRowsChange = useRef(onChange);
  useLayoutEffect(() => {
    onVisibleRowsChange.current = onChange;
  });
  useEffect(() => {
    onVisibleRowsChange.current?.(rows.slice(start, end + 1).map((r) => r.original));
  }, [rows, start, end]);
}
