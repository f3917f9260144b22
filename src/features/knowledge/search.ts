/** The knowledge list's URL search parameters: every filter lives in the URL, so links can be shared. */
import { z } from 'zod';
import { NOTE_ACCESS_TYPES } from '@/api/values';

const text = z
  .string()
  .transform((s) => s.trim() || undefined)
  .optional()
  .catch(undefined);

export const NotesSearch = z.object({
  search: text,
  folder_path: text,
  pinned_repo: text,
  access_type: z.enum(NOTE_ACCESS_TYPES).optional().catch(undefined),
});
export type NotesSearch = z.infer<typeof NotesSearch>;

/** Drops empty filters so the URL stays short. */
export function cleanFilters<T extends object>(f: T): Partial<T> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}
