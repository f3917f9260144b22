/**
 * Schedules: sessions that start on a schedule. The spec lists the paths and the permission
 * (`ManageOrgSchedules`); the record and the bodies come from the vendor reference (ScheduleResponse,
 * ScheduleCreateRequest, ScheduleUpdateRequest).
 *
 * Two things differ from the rest of the API, as the vendor's service does:
 * - **Timestamps are ISO 8601 strings** (`created_at`, `updated_at`, `scheduled_at`, `last_executed_at`,
 *   `last_error_at`, and the sandbox's `next_run_at`), not Unix seconds. Screens show them like every other
 *   time (local, with UTC on hover) after `Date.parse`.
 * - The list pages with `first`/`after` and the page envelope, as the spec's rule 3 says; the sandbox also
 *   accepts the vendor reference's `limit`/`offset` (one style per request).
 *
 * `frequency` is a five-field cron expression evaluated in UTC (minute hour day-of-month month day-of-week).
 * A `recurring` schedule needs one; a `one_time` schedule needs `scheduled_at` in the future instead, runs once
 * and then disables itself.
 */
import { z } from 'zod';
import { cronProblem, CRON_MAX_LENGTH } from '../cron';
import { After, First, OrgId, queryInt } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { SESSION_LIMITS, TagList } from './sessions';

export const SCHEDULE_TYPES = ['recurring', 'one_time'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** Who hears about a run (vendor reference; default `failure`). */
export const NOTIFY_ON = ['always', 'failure', 'never'] as const;
export type NotifyOn = (typeof NOTIFY_ON)[number];

/** How a run the sandbox started ended (sandbox extension, `schedules.runs.list`). */
export const SCHEDULE_RUN_OUTCOMES = ['running', 'success', 'failure', 'suspended', 'start_failed'] as const;

/** Limits: the prompt's is the session's; the others are the console's own, so nothing unbounded is accepted. */
export const SCHEDULE_LIMITS = {
  name: 200,
  prompt: SESSION_LIMITS.prompt,
  frequency: CRON_MAX_LENGTH,
  tags: SESSION_LIMITS.tags,
  playbookId: 200,
  /** Largest `offset` of the vendor-style list. */
  offset: 1_000_000,
} as const;

const fmt = (n: number) => n.toLocaleString('en-US');

/** An ISO 8601 date-time string, as schedules carry their times. */
export const IsoDateTime = z.string().meta({ format: 'date-time' });

export const SchedulePlaybook = z.looseObject({
  playbook_id: z.string(),
  /** Null when the playbook no longer exists. */
  title: z.string().nullable(),
});

export const Schedule = z.looseObject({
  scheduled_session_id: z.string(),
  org_id: z.string(),
  name: z.string(),
  prompt: z.string(),
  playbook: SchedulePlaybook.nullish(),
  /** Five-field cron in UTC; null for a one-time schedule. */
  frequency: z.string().nullish(),
  schedule_type: z.enum(SCHEDULE_TYPES).default('recurring'),
  /** One-time schedules: when it runs (ISO 8601). */
  scheduled_at: IsoDateTime.nullish(),
  enabled: z.boolean(),
  notify_on: z.string(),
  consecutive_failures: z.number().int(),
  tags: z.array(z.string()).nullish(),
  bypass_approval: z.boolean().nullish(),
  agent: z.string().nullish(),
  created_by: z.string().nullish(),
  last_edited_by: z.string().nullish(),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  last_executed_at: IsoDateTime.nullish(),
  last_error_at: IsoDateTime.nullish(),
  last_error_message: z.string().nullish(),
  /** Sandbox extension: the next time it runs (ISO 8601), null when disabled or done. */
  next_run_at: IsoDateTime.nullish(),
  /** Sandbox extension: the session its latest run started. */
  last_session_id: z.string().nullish(),
});
export type Schedule = z.infer<typeof Schedule>;

/** One run of a schedule (sandbox extension). */
export const ScheduleRun = z.looseObject({
  run_id: z.string(),
  scheduled_session_id: z.string(),
  /** Null when the session could not be started. */
  session_id: z.string().nullable(),
  started_at: IsoDateTime,
  /** `running`, `success`, `failure`, `suspended` or `start_failed`. */
  outcome: z.string(),
  settled_at: IsoDateTime.nullish(),
  error_message: z.string().nullish(),
});
export type ScheduleRun = z.infer<typeof ScheduleRun>;

// ---------------------------------------------------------------- requests

const requiredText = (name: string, max: number, what: string) =>
  z
    .string({ message: `${name} is required: ${what}` })
    .refine((s) => s.trim().length > 0, { message: `${name} must not be empty: ${what}` })
    .refine((s) => s.length <= max, { message: `${name} is at most ${fmt(max)} characters` });

const Name = requiredText('name', SCHEDULE_LIMITS.name, 'give the schedule a short name');
const Prompt = requiredText('prompt', SCHEDULE_LIMITS.prompt, 'say what the agent should do on each run');

/** A five-field cron expression; the message names the field and the value that are wrong. */
export const Frequency = z
  .string({ message: 'frequency must be a five-field cron expression' })
  .superRefine((s, ctx) => {
    const problem = cronProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((s) => s.trim().split(/\s+/).join(' '));

export const ScheduledAt = z.iso.datetime({
  offset: true,
  message: 'scheduled_at must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T09:00:00Z',
});

const ScheduleTypeField = z.enum(SCHEDULE_TYPES, { message: 'schedule_type must be recurring or one_time' });
const NotifyOnField = z.enum(NOTIFY_ON, { message: 'notify_on must be always, failure or never' });
const PlaybookIdField = z
  .string({ message: 'playbook_id must be a playbook id' })
  .min(1, 'playbook_id must not be empty (null for no playbook)')
  .max(SCHEDULE_LIMITS.playbookId, `playbook_id is at most ${SCHEDULE_LIMITS.playbookId} characters`);
const Enabled = z.boolean({ message: 'enabled must be true or false' });
const BypassApproval = z.boolean({ message: 'bypass_approval must be true or false' });

/**
 * Create body. A recurring schedule needs `frequency`; a one-time schedule needs `scheduled_at` (the sandbox
 * refuses a time that is not in the future: the contract has no clock). A one-time schedule's `frequency` is
 * not used.
 */
export const CreateScheduleBody = z
  .strictObject({
    name: Name,
    prompt: Prompt,
    schedule_type: ScheduleTypeField.default('recurring'),
    frequency: Frequency.nullish(),
    scheduled_at: ScheduledAt.nullish(),
    enabled: Enabled.default(true),
    notify_on: NotifyOnField.default('failure'),
    playbook_id: PlaybookIdField.nullish(),
    tags: TagList.nullish(),
    bypass_approval: BypassApproval.nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.schedule_type === 'recurring' && !v.frequency) {
      ctx.addIssue({
        code: 'custom',
        path: ['frequency'],
        message:
          'frequency is required for a recurring schedule: a five-field cron expression in UTC, e.g. 0 9 * * 1-5',
      });
    }
    if (v.schedule_type === 'one_time' && !v.scheduled_at) {
      ctx.addIssue({
        code: 'custom',
        path: ['scheduled_at'],
        message: 'scheduled_at is required for a one-time schedule: when it should run',
      });
    }
  });
export type CreateScheduleBody = z.input<typeof CreateScheduleBody>;

/**
 * PATCH body: every field optional; an omitted field keeps its value, null clears `playbook_id` and `tags`.
 * The sandbox checks the result as a whole (a recurring schedule keeps a frequency, a one-time one a future
 * `scheduled_at`).
 */
export const UpdateScheduleBody = z.strictObject({
  name: Name.nullish(),
  prompt: Prompt.nullish(),
  schedule_type: ScheduleTypeField.nullish(),
  frequency: Frequency.nullish(),
  scheduled_at: ScheduledAt.nullish(),
  enabled: Enabled.nullish(),
  notify_on: NotifyOnField.nullish(),
  playbook_id: PlaybookIdField.nullish(),
  tags: TagList.nullish(),
  bypass_approval: BypassApproval.nullish(),
});
export type UpdateScheduleBody = z.input<typeof UpdateScheduleBody>;

/** `first`/`after` (spec), or the vendor reference's `limit`/`offset`; not both styles at once. */
export const ScheduleListQuery = z.object({
  first: First,
  after: After,
  limit: queryInt({ min: 1, max: 200, name: 'limit' }).optional(),
  offset: queryInt({ min: 0, max: SCHEDULE_LIMITS.offset, name: 'offset' }).optional(),
});
export type ScheduleListQuery = z.input<typeof ScheduleListQuery>;

const ScheduleId = z.string().min(1).max(200);
const OrgParams = z.object({ org_id: OrgId });
const ScheduleParams = z.object({ org_id: OrgId, schedule_id: ScheduleId });

const PATH = '/v3/organizations/{org_id}/schedules';

export const scheduleOperations = defineOperations({
  'schedules.list': {
    id: 'schedules.list',
    method: 'GET',
    path: PATH,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: "List an organization's schedules, newest first",
    params: OrgParams,
    query: ScheduleListQuery,
    response: pageOf(Schedule),
    paginated: true,
    note: 'Schedule timestamps are ISO 8601 strings. limit/offset (vendor reference) are accepted beside first/after.',
  },
  'schedules.create': {
    id: 'schedules.create',
    method: 'POST',
    path: PATH,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'Create a schedule: recurring (cron in UTC) or one-time (scheduled_at in the future)',
    params: OrgParams,
    body: CreateScheduleBody,
    response: Schedule,
  },
  'schedules.get': {
    id: 'schedules.get',
    method: 'GET',
    path: `${PATH}/{schedule_id}`,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'Get one schedule',
    params: ScheduleParams,
    response: Schedule,
  },
  'schedules.update': {
    id: 'schedules.update',
    method: 'PATCH',
    path: `${PATH}/{schedule_id}`,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'Change some fields of a schedule (e.g. enabled)',
    params: ScheduleParams,
    body: UpdateScheduleBody,
    response: Schedule,
  },
  'schedules.delete': {
    id: 'schedules.delete',
    method: 'DELETE',
    path: `${PATH}/{schedule_id}`,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'Delete a schedule; answers with the deleted schedule',
    params: ScheduleParams,
    response: Schedule,
  },
  'schedules.runs.list': {
    id: 'schedules.runs.list',
    method: 'GET',
    path: `${PATH}/{schedule_id}/runs`,
    permission: 'ManageOrgSchedules',
    scope: 'organization',
    summary: 'The runs of a schedule, newest first, each with the session it started',
    params: ScheduleParams,
    query: z.object({ first: First, after: After }),
    response: pageOf(ScheduleRun),
    paginated: true,
    extension: true,
    note: 'Not in the spec or the vendor reference: the console shows the sessions a schedule started with it, and falls back without it.',
  },
});
