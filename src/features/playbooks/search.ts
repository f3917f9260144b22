/** The playbook lists' URL search parameters: filters live in the URL, so links can be shared. */
import { z } from 'zod';

const text = z
  .string()
  .transform((s) => s.trim() || undefined)
  .optional()
  .catch(undefined);

export const PlaybooksSearch = z.object({
  search: text,
  access_type: z.enum(['enterprise', 'org']).optional().catch(undefined),
});
export type PlaybooksSearch = z.infer<typeof PlaybooksSearch>;

/** Drops empty filters so the URL stays short. */
export function cleanPlaybookFilters<T extends object>(f: T): Partial<T> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}
