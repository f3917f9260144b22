/**
 * Consumption of every member and service user over one range (`/console/consumption/principals`). The API
 * answers it one principal at a time only (`/v3/enterprise/consumption/daily/users/{user_id}` and
 * `.../service-users/{service_user_id}`; no enterprise-wide breakdown per person), so the console server reads
 * them all — a few at a time, within a time bound, kept a short while — and the browser makes one call instead of
 * hundreds. The screens that need it (consumption per person, stale access) read their people themselves; a
 * principal missing here (added after the read, or a list the upstream serves elsewhere) is read on its own.
 */
import { z } from 'zod';
import { UnixSeconds } from '../conventions';
import { RequiredRange, withRangeChecks } from '../operations/time-range';
import { defineConsoleOperations } from './define';

/** The most principals one answer carries (members and service users together). */
export const PRINCIPAL_CONSUMPTION_MAX = 10_000;

export const PrincipalConsumption = z.looseObject({
  kind: z.enum(['member', 'service_user']),
  /** The member's `user_id` or the service user's `service_user_id`. */
  id: z.string(),
  /** ACUs over the whole range; null when they could not be read. */
  total_acus: z.number().nullable(),
  /** The billing days with compute units (days with none are left out), oldest first; null when not read. */
  days: z.array(z.looseObject({ date: UnixSeconds, acus: z.number() })).nullable(),
  /** Why this principal's consumption could not be read, in words; null when it was. */
  error: z.string().nullable(),
});
export type PrincipalConsumption = z.infer<typeof PrincipalConsumption>;

export const PrincipalConsumptionList = z.looseObject({
  time_after: UnixSeconds,
  time_before: UnixSeconds,
  /** When the API was read (Unix seconds): an answer is kept a short while and may be that old. */
  read_at: UnixSeconds,
  items: z.array(PrincipalConsumption).max(PRINCIPAL_CONSUMPTION_MAX),
});
export type PrincipalConsumptionList = z.infer<typeof PrincipalConsumptionList>;

export const PrincipalConsumptionQuery = withRangeChecks(z.object({ ...RequiredRange }));
export type PrincipalConsumptionQuery = z.input<typeof PrincipalConsumptionQuery>;

export const consolePrincipalConsumptionOperations = defineConsoleOperations({
  'console.consumption.principals.get': {
    id: 'console.consumption.principals.get',
    method: 'GET',
    // What the per-principal consumption reads it stands for need.
    permission: 'ManageBilling',
    path: '/console/consumption/principals',
    summary: "Every member's and service user's ACUs per billing day over one range, read by the console server",
    query: PrincipalConsumptionQuery,
    response: PrincipalConsumptionList,
    note: 'The API has no per-person breakdown: one daily-consumption call per principal, eight at a time, within 20 s; an answer without errors is kept 30 s. 403 when the API refuses the console’s credential a read.',
  },
});
