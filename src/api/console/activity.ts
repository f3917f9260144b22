/**
 * Console activity (`GET /console/activity`): every write made through the console, proxied to the API or
 * answered by the console itself, with the person who made it (from single sign-on, or how they got in), the
 * grant of the console's policy that allowed it, the operation, its organization, the ids it touched and its
 * outcome. Newest first; filters are the screen's (person, operation, organization, time range, outcome).
 */
import { z } from 'zod';
import { ACTIVITY_OUTCOMES } from '../values';
import { defineConsoleOperations } from './define';

export { ACTIVITY_OUTCOMES, type ActivityOutcome } from '../values';
export const ACTIVITY_PAGE_MAX = 500;

export const ActivityEntry = z.looseObject({
  id: z.number().int(),
  /** Unix seconds. */
  at: z.number().int(),
  subject: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  /** How the person got in: oidc, link, token, bearer (a script), off (access control off). */
  method: z.string(),
  /** The policy's grant that allowed it, e.g. `group console-admins → admin`; null when refused. */
  grant: z.string().nullable(),
  operation_id: z.string(),
  http_method: z.string(),
  path: z.string(),
  org_id: z.string().nullable(),
  /** The ids it touched: path parameters and the created resource's id. */
  ids: z.record(z.string(), z.string()),
  status: z.number().int(),
  outcome: z.enum(ACTIVITY_OUTCOMES),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

export const ActivityPage = z.looseObject({
  items: z.array(ActivityEntry),
  /** Pass as `after` for the next (older) page; null at the end. */
  end_cursor: z.string().nullable(),
  has_next_page: z.boolean(),
});
export type ActivityPage = z.infer<typeof ActivityPage>;

const UnixSeconds = z
  .string()
  .regex(/^\d{1,12}$/, 'a time in Unix seconds')
  .transform(Number);

export const ActivityQuery = z.object({
  person: z.string().trim().max(200).optional(),
  operation: z.string().trim().max(200).optional(),
  org_id: z.string().trim().max(200).optional(),
  /** Unix seconds, inclusive. */
  from: UnixSeconds.optional(),
  /** Unix seconds, exclusive. */
  to: UnixSeconds.optional(),
  outcome: z.enum(ACTIVITY_OUTCOMES).optional(),
  first: z
    .string()
    .regex(/^\d{1,4}$/, `first is 1 to ${ACTIVITY_PAGE_MAX}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= ACTIVITY_PAGE_MAX, `first is 1 to ${ACTIVITY_PAGE_MAX}`)
    .optional(),
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'after must be an end_cursor of this list')
    .transform(Number)
    .optional(),
});

export const consoleActivityOperations = defineConsoleOperations({
  'console.activity.list': {
    id: 'console.activity.list',
    method: 'GET',
    permission: 'ViewAccountAuditLogs',
    path: '/console/activity',
    summary:
      'Writes made through the console and who made them, newest first (filters: person, operation, organization, time range, outcome)',
    query: ActivityQuery,
    response: ActivityPage,
  },
});
