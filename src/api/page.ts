/** The page envelope of every list response (spec: "Page envelope"). */
import { z } from 'zod';

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    // The vendor may omit it on the last page (its PaginatedResponse requires only `items`).
    end_cursor: z.string().nullish(),
    has_next_page: z.boolean().default(false),
    total: z.number().int().nullish(),
  });
}

// The envelope's type and cursor live in a zod-free module (the first screen reads them); re-exported here.
export { nextCursor, type Page } from './cursor';

// Walking every page needs no schema: it lives in a zod-free module the first screen's code imports; re-exported here.
export { PagingLimitError, readAllPages, walkPages, type WalkPagesOptions } from './page-walk';
