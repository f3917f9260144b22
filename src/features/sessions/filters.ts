/**
 * The sessions list filters as they live in the URL (shareable links): origins, status, tags, archived and
 * the created time range, plus organizations on the enterprise list. Lists are comma-joined strings in the
 * URL (`?origins=slack,api`); a repeated or JSON-array value is read too, and anything unreadable falls back
 * to "no filter" rather than an error.
 *
 * This zod schema is the reference (types, tests): the routes read the URL with `sessionSearch`
 * (src/routes/-search.ts, no zod) and the screens import `list-query.ts`, so zod stays off the first screen.
 */
import { z } from 'zod';

const csv = z
  .preprocess((v) => {
    if (v === undefined || v === null || v === '') return undefined;
    const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(','));
    const clean = [...new Set(parts.map((x) => x.trim()).filter((x) => x.length > 0 && x.length <= 200))];
    return clean.length ? clean.join(',') : undefined;
  }, z.string().optional())
  .catch(undefined);

const unixSeconds = z
  .preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), z.number().int().nonnegative().optional())
  .catch(undefined);

export const sessionSearchSchema = z.object({
  origins: csv,
  status: csv,
  tags: csv,
  /** `true`: archived only; `false`: not archived; absent: both. */
  archived: z
    .preprocess((v) => (v === undefined ? undefined : String(v)), z.enum(['true', 'false']).optional())
    .catch(undefined),
  created_after: unixSeconds,
  created_before: unixSeconds,
  /** Enterprise list only. */
  org_ids: csv,
});
export type SessionSearch = z.output<typeof sessionSearchSchema>;

// The helpers of the list live in a module without zod (the list's first paint); re-exported for this module's users.
export { hasFilters, joinList, splitList, TIME_PRESETS, toListFilters, type SessionListFilters } from './list-query';
