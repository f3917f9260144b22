/**
 * The console's alerts (`/console/alerts/...`): rules an admin defines, evaluated by the console server on a
 * schedule from the same figures the screens show; the in-console notifications they raise (with the unread
 * count the header shows); and webhook destinations, signed and retried, with their delivery log.
 *
 * A webhook's URL is write-only like a secret: it is sent once, at creation, and never answered back — only its
 * host (`url_display`). Its signing secret is answered once, at creation.
 *
 * The rule kinds, their limits and their descriptions live here so the form, the server and the README say
 * the same thing.
 */
import { z } from 'zod';
import { UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineConsoleOperations } from './define';
import { madeByFields } from './session';

// ---------------------------------------------------------------- rules

export const ALERT_RULE_KINDS = [
  'consumption',
  'guardrail_violations',
  'session_stuck',
  'schedule_failed',
  'settings_changed',
  'doctor_refused',
] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

/** What each kind watches, as the form and the rules list say it. */
export const ALERT_KIND_LABELS: Record<AlertRuleKind, string> = {
  consumption: 'Consumption of the cycle',
  guardrail_violations: 'Guardrail violations in a day',
  session_stuck: 'Session in error or suspended',
  schedule_failed: 'Failed scheduled run',
  settings_changed: 'Change to the IP list, git permissions or roles',
  doctor_refused: 'Doctor finds operations newly refused',
};

export const CONSUMPTION_MODES = ['reached', 'forecast'] as const;
export const STUCK_STATUSES = ['error', 'suspended'] as const;
export const WATCHED_SETTINGS = ['ip_access_list', 'git_permissions', 'roles'] as const;
export type WatchedSetting = (typeof WATCHED_SETTINGS)[number];
export const WATCHED_SETTING_LABELS: Record<WatchedSetting, string> = {
  ip_access_list: 'IP access list',
  git_permissions: 'Git permissions',
  roles: 'Roles',
};

/** Documented limits of a rule, written once: the form, the server and the README use these. */
export const ALERT_LIMITS = {
  name: 100,
  rules: 100,
  thresholdPercent: { min: 1, max: 1_000 },
  violationsPerDay: { min: 0, max: 100_000 },
  durationMinutes: { min: 1, max: 43_200 },
  destinationsPerRule: 10,
  destinations: 20,
  destinationName: 100,
  url: 2_000,
  /** Most notifications one rule raises per evaluation (the rest wait for the next one). */
  eventsPerEvaluation: 50,
} as const;

const OrgIdField = z
  .string()
  .max(200, 'An organization id is at most 200 characters')
  .regex(/^org-[A-Za-z0-9_-]+$/, 'Choose an organization from the list')
  .nullable();

const RuleFields = {
  name: z
    .string()
    .trim()
    .min(1, 'Name is required')
    .max(ALERT_LIMITS.name, `Name is at most ${ALERT_LIMITS.name} characters`),
  kind: z.enum(ALERT_RULE_KINDS, { message: 'Choose what the rule watches' }),
  /** The organization watched; null = the whole enterprise (consumption) or every organization. */
  org_id: OrgIdField.default(null),
  /** Consumption: the share of the cycle's ACU limit, in percent. */
  threshold_percent: z
    .number({ message: 'Share of the limit must be a number' })
    .int('Share of the limit is a whole number of percent')
    .min(ALERT_LIMITS.thresholdPercent.min, `Share of the limit is at least ${ALERT_LIMITS.thresholdPercent.min} %`)
    .max(ALERT_LIMITS.thresholdPercent.max, `Share of the limit is at most ${ALERT_LIMITS.thresholdPercent.max} %`)
    .nullable()
    .default(null),
  /** Consumption: fire when the cycle to date crosses it (`reached`) or when the forecast to the cycle's end does. */
  consumption_mode: z.enum(CONSUMPTION_MODES).nullable().default(null),
  /** Guardrail violations: fire when an organization has more than this many in one billing day. */
  violations_per_day: z
    .number({ message: 'Violations a day must be a number' })
    .int('Violations a day is a whole number')
    .min(ALERT_LIMITS.violationsPerDay.min, 'Violations a day is 0 or more')
    .max(ALERT_LIMITS.violationsPerDay.max, `Violations a day is at most ${ALERT_LIMITS.violationsPerDay.max}`)
    .nullable()
    .default(null),
  /** Sessions: how long a session stays in one of `session_statuses` before the rule fires. */
  duration_minutes: z
    .number({ message: 'Longer than (minutes) must be a number' })
    .int('Longer than (minutes) is a whole number')
    .min(ALERT_LIMITS.durationMinutes.min, `Longer than is at least ${ALERT_LIMITS.durationMinutes.min} minute`)
    .max(
      ALERT_LIMITS.durationMinutes.max,
      `Longer than is at most ${ALERT_LIMITS.durationMinutes.max} minutes (30 days)`,
    )
    .nullable()
    .default(null),
  session_statuses: z.array(z.enum(STUCK_STATUSES)).max(2).default([]),
  /** Settings: which changes fire the rule. */
  settings: z.array(z.enum(WATCHED_SETTINGS)).max(3).default([]),
  /** Webhook destinations it delivers to, besides the in-console notification list. */
  destination_ids: z
    .array(z.string().min(1).max(64))
    .max(ALERT_LIMITS.destinationsPerRule, `A rule delivers to at most ${ALERT_LIMITS.destinationsPerRule} webhooks`)
    .default([]),
};

type RuleShape = {
  kind: AlertRuleKind;
  threshold_percent: number | null;
  consumption_mode: string | null;
  violations_per_day: number | null;
  duration_minutes: number | null;
  session_statuses: string[];
  settings: string[];
};

/** What each kind needs, checked on the body (the form shows each message on its field). */
function checkKind(v: RuleShape, ctx: z.RefinementCtx) {
  const need = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  switch (v.kind) {
    case 'consumption':
      if (v.threshold_percent === null) need('threshold_percent', 'Share of the limit is required');
      if (v.consumption_mode === null) need('consumption_mode', 'Choose when the rule fires');
      break;
    case 'guardrail_violations':
      if (v.violations_per_day === null) need('violations_per_day', 'Violations a day is required');
      break;
    case 'session_stuck':
      if (v.duration_minutes === null) need('duration_minutes', 'Longer than (minutes) is required');
      if (v.session_statuses.length === 0) need('session_statuses', 'Choose error, suspended or both');
      break;
    case 'settings_changed':
      if (v.settings.length === 0) need('settings', 'Choose at least one of IP access list, git permissions, roles');
      break;
    default:
      break;
  }
}

/** POST /console/alerts/rules. */
export const AlertRuleBody = z.strictObject(RuleFields).superRefine(checkKind);
export type AlertRuleBody = z.input<typeof AlertRuleBody>;

/** PATCH /console/alerts/rules/{rule_id}: mute, snooze (until a time; null ends it), rename, re-target. */
export const AlertRulePatch = z.strictObject({
  name: RuleFields.name.optional(),
  muted: z.boolean().optional(),
  snoozed_until: UnixSeconds.nullable().optional(),
  destination_ids: RuleFields.destination_ids.optional(),
});
export type AlertRulePatch = z.input<typeof AlertRulePatch>;

export const AlertRule = z.looseObject({
  rule_id: z.string(),
  name: z.string(),
  kind: z.enum(ALERT_RULE_KINDS),
  org_id: z.string().nullable(),
  threshold_percent: z.number().nullable(),
  consumption_mode: z.enum(CONSUMPTION_MODES).nullable(),
  violations_per_day: z.number().nullable(),
  duration_minutes: z.number().nullable(),
  session_statuses: z.array(z.enum(STUCK_STATUSES)),
  settings: z.array(z.enum(WATCHED_SETTINGS)),
  destination_ids: z.array(z.string()),
  muted: z.boolean(),
  snoozed_until: UnixSeconds.nullable(),
  created_at: UnixSeconds,
  last_evaluated_at: UnixSeconds.nullable(),
  /** Why the last evaluation could not read its figures (a missing permission, the API unreachable). */
  last_error: z.string().nullable(),
  /** Conditions of this rule firing now. */
  firing: z.number().int(),
  ...madeByFields,
});
export type AlertRule = z.infer<typeof AlertRule>;

// ---------------------------------------------------------------- notifications

export const ALERT_STATES = ['firing', 'cleared'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const AlertNotification = z.looseObject({
  notification_id: z.number().int(),
  rule_id: z.string(),
  rule_name: z.string(),
  kind: z.enum(ALERT_RULE_KINDS),
  /** `firing`: the condition started; `cleared`: it stopped (said once). */
  state: z.enum(ALERT_STATES),
  title: z.string(),
  detail: z.string(),
  /** The console screen that explains it (a path of the console). */
  link: z.string(),
  created_at: UnixSeconds,
  read_at: UnixSeconds.nullable(),
  acknowledged_at: UnixSeconds.nullable(),
  acknowledged_by: z.string().nullable(),
});
export type AlertNotification = z.infer<typeof AlertNotification>;

export const AlertNotificationPage = pageOf(AlertNotification);
export const NOTIFICATIONS_PAGE_SIZE = 50;

export const NotificationsQuery = z.object({
  first: z.coerce.number().int().min(1).max(200).default(NOTIFICATIONS_PAGE_SIZE),
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'after must be a cursor returned as end_cursor')
    .optional(),
  unread: z.enum(['true', 'false']).optional(),
});

export const UnreadCount = z.object({ unread: z.number().int() });

// ---------------------------------------------------------------- webhooks

export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export const WEBHOOK_FORMAT_LABELS: Record<(typeof WEBHOOK_FORMATS)[number], string> = {
  json: 'Generic JSON',
  slack: 'Slack-compatible',
};

/** The signature header: `sha256=<hex>` of HMAC-SHA256 over `<timestamp>.<body>` with the signing secret. */
export const SIGNATURE_HEADER = 'x-console-signature';
/** Unix seconds of the attempt, signed with the body so a captured request cannot be replayed later. */
export const TIMESTAMP_HEADER = 'x-console-timestamp';
export const DELIVERY_HEADER = 'x-console-delivery';

export const WebhookBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'Name is required')
    .max(ALERT_LIMITS.destinationName, `Name is at most ${ALERT_LIMITS.destinationName} characters`),
  /** Write-only: never answered back, never logged. */
  url: z
    .string()
    .trim()
    .min(1, 'URL is required')
    .max(ALERT_LIMITS.url, `URL is at most ${ALERT_LIMITS.url} characters`)
    .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), 'URL must be an http:// or https:// address'),
  format: z.enum(WEBHOOK_FORMATS, { message: 'Choose a payload format' }).default('json'),
});
export type WebhookBody = z.input<typeof WebhookBody>;

export const WebhookDestination = z.looseObject({
  destination_id: z.string(),
  name: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  /** The URL's scheme and host only: its path and query may hold a token. */
  url_display: z.string(),
  created_at: UnixSeconds,
  ...madeByFields,
});
export type WebhookDestination = z.infer<typeof WebhookDestination>;

/** The creation's answer: the only time the signing secret is shown. */
export const CreatedWebhook = WebhookDestination.extend({ signing_secret: z.string() });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One attempt of one delivery (the log): never the URL. */
export const DeliveryAttempt = z.looseObject({
  attempt_id: z.number().int(),
  delivery_id: z.number().int(),
  destination_id: z.string(),
  destination_name: z.string(),
  notification_id: z.number().int(),
  title: z.string(),
  attempt: z.number().int(),
  at: UnixSeconds,
  /** `delivered` (2xx), `retrying` (5xx, timeout, connection), `failed` (no more attempts, or refused). */
  outcome: z.enum(['delivered', 'retrying', 'failed']),
  response_code: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;
export const DeliveryAttemptPage = pageOf(DeliveryAttempt);

export const DeliveriesQuery = z.object({
  first: z.coerce.number().int().min(1).max(200).default(100),
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'after must be a cursor returned as end_cursor')
    .optional(),
  destination_id: z.string().max(64).optional(),
});

/** Most attempts of one delivery (the first and its retries). */
export const MAX_DELIVERY_ATTEMPTS = 5;

// ---------------------------------------------------------------- evaluation

export const EvaluationReport = z.looseObject({
  evaluated: z.number().int(),
  fired: z.number().int(),
  cleared: z.number().int(),
  delivered: z.number().int(),
  /** False when another replica was evaluating at that moment (its results count). */
  ran: z.boolean(),
  errors: z.array(z.object({ rule_id: z.string(), name: z.string(), error: z.string() })),
});
export type EvaluationReport = z.infer<typeof EvaluationReport>;

// ---------------------------------------------------------------- operations

const RuleParams = z.object({ rule_id: z.string().regex(/^rule-[a-f0-9]{8,32}$/, 'Not a rule id') });
const NotificationParams = z.object({
  notification_id: z
    .string()
    .regex(/^\d{1,15}$/, 'Not a notification number')
    .transform(Number),
});
const DestinationParams = z.object({
  destination_id: z.string().regex(/^whk-[a-f0-9]{8,32}$/, 'Not a webhook id'),
});

const B = '/console/alerts';

export const consoleAlertOperations = defineConsoleOperations({
  'console.alerts.rules.list': {
    id: 'console.alerts.rules.list',
    method: 'GET',
    permission: null,
    path: `${B}/rules`,
    summary: 'Every alert rule, with how many of its conditions fire now',
    response: z.object({ items: z.array(AlertRule) }),
  },
  'console.alerts.rules.create': {
    id: 'console.alerts.rules.create',
    method: 'POST',
    permission: 'admin',
    organization: { body: 'org_id' },
    path: `${B}/rules`,
    summary: 'Define a rule',
    body: AlertRuleBody,
    response: AlertRule,
    status: 201,
  },
  'console.alerts.rules.update': {
    id: 'console.alerts.rules.update',
    method: 'PATCH',
    permission: 'admin',
    path: `${B}/rules/{rule_id}`,
    summary: 'Rename, mute, snooze or re-target a rule',
    params: RuleParams,
    body: AlertRulePatch,
    response: AlertRule,
  },
  'console.alerts.rules.delete': {
    id: 'console.alerts.rules.delete',
    method: 'DELETE',
    permission: 'admin',
    path: `${B}/rules/{rule_id}`,
    summary: 'Delete a rule (its notifications stay)',
    params: RuleParams,
    status: 204,
  },
  'console.alerts.evaluations.create': {
    id: 'console.alerts.evaluations.create',
    method: 'POST',
    permission: null,
    path: `${B}/evaluations`,
    summary: 'Evaluate every rule now and deliver what is due (it also runs every CONSOLE_ALERTS_INTERVAL_S)',
    response: EvaluationReport,
  },
  'console.alerts.notifications.list': {
    id: 'console.alerts.notifications.list',
    method: 'GET',
    permission: null,
    path: `${B}/notifications`,
    summary: 'Notifications, newest first',
    query: NotificationsQuery,
    response: AlertNotificationPage,
  },
  'console.alerts.unreadCount.get': {
    id: 'console.alerts.unreadCount.get',
    method: 'GET',
    permission: null,
    path: `${B}/notifications/unread-count`,
    summary: 'How many notifications are unread (the header shows it)',
    response: UnreadCount,
  },
  'console.alerts.notificationReads.create': {
    id: 'console.alerts.notificationReads.create',
    method: 'POST',
    permission: null,
    path: `${B}/notifications/{notification_id}/read`,
    summary: 'Mark one notification read',
    params: NotificationParams,
    response: AlertNotification,
  },
  'console.alerts.acknowledgements.create': {
    id: 'console.alerts.acknowledgements.create',
    method: 'POST',
    permission: null,
    path: `${B}/notifications/{notification_id}/acknowledge`,
    summary: 'Acknowledge a notification (it is read too), naming who did',
    params: NotificationParams,
    response: AlertNotification,
  },
  'console.alerts.notificationReads.apply': {
    id: 'console.alerts.notificationReads.apply',
    method: 'POST',
    permission: null,
    path: `${B}/notifications/read-all`,
    summary: 'Mark every notification read',
    response: UnreadCount,
  },
  'console.alerts.webhooks.list': {
    id: 'console.alerts.webhooks.list',
    method: 'GET',
    permission: null,
    path: `${B}/webhooks`,
    summary: 'Webhook destinations (never their URL: its host only)',
    response: z.object({ items: z.array(WebhookDestination) }),
  },
  'console.alerts.webhooks.create': {
    id: 'console.alerts.webhooks.create',
    method: 'POST',
    permission: 'admin',
    path: `${B}/webhooks`,
    summary: 'Add a destination; its signing secret is answered this once',
    body: WebhookBody,
    response: CreatedWebhook,
    status: 201,
  },
  'console.alerts.webhooks.delete': {
    id: 'console.alerts.webhooks.delete',
    method: 'DELETE',
    permission: 'admin',
    path: `${B}/webhooks/{destination_id}`,
    summary: 'Remove a destination (rules stop delivering to it; its log stays)',
    params: DestinationParams,
    status: 204,
  },
  'console.alerts.deliveries.list': {
    id: 'console.alerts.deliveries.list',
    method: 'GET',
    permission: null,
    path: `${B}/deliveries`,
    summary: 'The delivery log: every attempt, newest first',
    query: DeliveriesQuery,
    response: DeliveryAttemptPage,
  },
});

// ---------------------------------------------------------------- payloads

/** What a webhook receives (generic JSON). */
export interface AlertWebhookPayload {
  type: 'alert.firing' | 'alert.cleared';
  notification_id: number;
  rule: { rule_id: string; name: string; kind: AlertRuleKind };
  title: string;
  detail: string;
  /** The console path of the screen that explains it. */
  link: string;
  occurred_at: number;
}

/** The body for a format: generic JSON, or Slack-compatible (`text`, which Slack's incoming webhooks read). */
export function webhookBodyOf(format: (typeof WEBHOOK_FORMATS)[number], p: AlertWebhookPayload): string {
  if (format === 'slack') {
    const mark = p.type === 'alert.cleared' ? ':white_check_mark: Cleared' : ':rotating_light: Alert';
    return JSON.stringify({
      text: `${mark}: ${p.title}\n${p.detail}\n(rule "${p.rule.name}"; see ${p.link} in the console)`,
    });
  }
  return JSON.stringify(p);
}
