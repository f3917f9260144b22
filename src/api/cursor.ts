/**
 * The cursor of a page envelope, without zod: the browser's cursor lists (src/lib/cursor-query.ts) read it on
 * the first screen, which loads no zod. The envelope's schema is `pageOf` in ./page.ts, which re-exports these.
 */

export interface Page<T> {
  items: T[];
  /** The vendor may omit it on the last page. */
  end_cursor?: string | null;
  has_next_page: boolean;
  total?: number | null;
}

/** For TanStack Query: the cursor of the next page, or undefined on the last page. */
export function nextCursor(page: Pick<Page<unknown>, 'has_next_page' | 'end_cursor'>): string | undefined {
  return page.has_next_page && page.end_cursor ? page.end_cursor : undefined;
}
