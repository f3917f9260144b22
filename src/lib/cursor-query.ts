/**
 * One way to page a cursor list in the browser: the infinite-query options of a list whose pages carry
 * `has_next_page` and `end_cursor`. A screen names its key and how to read one page; the cursor plumbing is here.
 */
import { infiniteQueryOptions, type QueryKey } from '@tanstack/react-query';
import { nextCursor, type Page } from '@/api/cursor';

type CursorPage = Pick<Page<unknown>, 'has_next_page' | 'end_cursor'>;

export interface CursorQuery<TPage extends CursorPage, TKey extends QueryKey> {
  queryKey: TKey;
  /** Reads the page after `after` (undefined: the first page). */
  page: (after: string | undefined, signal: AbortSignal) => Promise<TPage>;
  staleTime?: number;
  refetchOnWindowFocus?: boolean;
  retry?: (failureCount: number, error: Error) => boolean;
}

export function cursorInfiniteQueryOptions<TPage extends CursorPage, const TKey extends QueryKey>(
  options: CursorQuery<TPage, TKey>,
) {
  const { queryKey, page, ...rest } = options;
  return infiniteQueryOptions({
    ...rest,
    queryKey,
    queryFn: ({ pageParam, signal }) => page(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
  });
}
