/** The page envelope of every list response (spec: "Page envelope"). */
import { z } from 'zod';

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    end_cursor: z.string().nullable(),
    has_next_page: z.boolean().default(false),
    total: z.number().int().nullish(),
  });
}

export interface Page<T> {
  items: T[];
  end_cursor: string | null;
  has_next_page: boolean;
  total?: number | null;
}

/** For TanStack Query: the cursor of the next page, or undefined on the last page. */
export function nextCursor(page: Pick<Page<unknown>, 'has_next_page' | 'end_cursor'>): string | undefined {
  return page.has_next_page && page.end_cursor ? page.end_cursor : undefined;
}
