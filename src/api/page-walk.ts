/**
 * Reading every page of a cursor list (spec: "Pagination"), without the envelope's schema: the screens and the
 * shell's code import it from here (or from ./page, which re-exports it), so walking pages never brings zod into
 * the first screen's JavaScript.
 */
import { nextCursor, type Page } from './cursor';

/** Why a walk over every page stopped early: too many pages or items, or a cursor seen before. */
export class PagingLimitError extends Error {
  constructor(
    readonly reason: 'pages' | 'items' | 'repeated_cursor',
    message: string,
  ) {
    super(message);
    this.name = 'PagingLimitError';
  }
}

export interface WalkPagesOptions {
  /** Most pages read (a list that never ends stops here). */
  maxPages?: number;
  /** Most items read. */
  maxItems?: number;
  signal?: AbortSignal;
  /** What the list is, for messages. */
  what?: string;
}

/**
 * The one way to read every page of a cursor list, in the browser and on the server: follows `end_cursor`
 * while `has_next_page` holds, passes the cursor back unchanged, and stops at a repeated cursor or past the
 * page and item caps (a PagingLimitError says which). Yields page by page, so an export can stream.
 */
export async function* walkPages<T>(
  fetchPage: (after: string | undefined, signal?: AbortSignal) => Promise<Page<T>>,
  opts: WalkPagesOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const { maxPages = Infinity, maxItems = Infinity, signal, what = 'the list' } = opts;
  const seen = new Set<string>();
  let after: string | undefined;
  let items = 0;
  for (let pages = 0; ; pages++) {
    signal?.throwIfAborted();
    if (pages >= maxPages) {
      throw new PagingLimitError('pages', `${what} still had more pages after ${maxPages}; stopped reading`);
    }
    const page = await fetchPage(after, signal);
    items += page.items.length;
    if (items > maxItems) {
      throw new PagingLimitError('items', `${what} has more than ${maxItems} items; stopped reading`);
    }
    yield page;
    after = nextCursor(page);
    if (!after) return;
    if (seen.has(after)) throw new PagingLimitError('repeated_cursor', `${what} repeated a cursor; stopped reading`);
    seen.add(after);
  }
}

/** Every item of every page (see `walkPages`). */
export async function readAllPages<T>(
  fetchPage: (after: string | undefined, signal?: AbortSignal) => Promise<Page<T>>,
  opts: WalkPagesOptions = {},
): Promise<T[]> {
  const items: T[] = [];
  for await (const page of walkPages(fetchPage, opts)) items.push(...page.items);
  return items;
}
