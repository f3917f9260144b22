/**
 * The console's alert endpoints (`/console/alerts/...`, contract in src/api/console/alerts.ts) and the engine
 * that evaluates rules on a schedule. The webhook URL is taken once and never answered, logged or exported: an
 * answer carries its host only. A URL reaching loopback or a private range is refused at creation (422 on URL)
 * and again at every delivery, unless CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS allows it.
 */
import { randomBytes } from 'node:crypto';
import {
  ALERT_LIMITS,
  type AlertNotification,
  type AlertRule,
  type AlertRuleKind,
  type WebhookDestination,
} from '../../../api/console/alerts';
import { HttpProblem } from '../../../node/problem-writer';
import type { Config } from '../../config';
import type { Redactor } from '../../redact';
import { actorOf } from '../actor';
import type { ConsoleHandlers } from '../mount';
import type { SettingsStore } from '../storage/settings';
import type { UpstreamClient } from '../upstream-client';
import { createAlertEngine } from './engine';
import type { AlertStore, DestinationRow, NotificationRow, RuleRow } from './store';
import { displayOf, TargetRefused, vetTarget, type TargetPolicy } from './targets';

export interface AlertDeps {
  config: Pick<Config, 'alertsIntervalS' | 'alertsAllowPrivateTargets' | 'alertsRetryBaseMs'>;
  store: AlertStore;
  settings: SettingsStore;
  upstream: UpstreamClient;
  redactor: Redactor;
}

const nowS = () => Math.floor(Date.now() / 1000);

function ruleAnswer(r: RuleRow): AlertRule {
  const c = r.config as Partial<AlertRule>;
  return {
    rule_id: r.rule_id,
    name: r.name,
    kind: r.kind as AlertRuleKind,
    org_id: c.org_id ?? null,
    threshold_percent: c.threshold_percent ?? null,
    consumption_mode: c.consumption_mode ?? null,
    violations_per_day: c.violations_per_day ?? null,
    duration_minutes: c.duration_minutes ?? null,
    session_statuses: c.session_statuses ?? [],
    settings: c.settings ?? [],
    destination_ids: r.destination_ids,
    muted: r.muted,
    snoozed_until: r.snoozed_until,
    created_at: r.created_at,
    last_evaluated_at: r.last_evaluated_at,
    last_error: r.last_error,
    firing: r.firing,
    made_by: r.made_by,
    made_by_kind: r.made_by_kind as AlertRule['made_by_kind'],
  };
}

const notificationAnswer = (n: NotificationRow): AlertNotification => ({
  notification_id: n.notification_id,
  rule_id: n.rule_id,
  rule_name: n.rule_name,
  kind: n.kind as AlertRuleKind,
  state: n.state,
  title: n.title,
  detail: n.detail,
  link: n.link,
  created_at: n.created_at,
  read_at: n.read_at,
  acknowledged_at: n.acknowledged_at,
  acknowledged_by: n.acknowledged_by,
});

/** Never the URL or the secret. */
const destinationAnswer = (d: DestinationRow): WebhookDestination => ({
  destination_id: d.destination_id,
  name: d.name,
  format: d.format,
  url_display: d.url_display,
  created_at: d.created_at,
  made_by: d.made_by,
  made_by_kind: d.made_by_kind as WebhookDestination['made_by_kind'],
});

const fieldProblem = (field: string, message: string) =>
  new HttpProblem(422, message, {
    errors: [{ loc: ['body', field], msg: message, type: 'value_error' }],
  });

/**
 * The handlers. The engine starts here, with the console app (its timers are unref'd and stop by themselves once
 * the store is closed).
 */
export function alertHandlers(deps: AlertDeps): ConsoleHandlers {
  const policy: TargetPolicy = { allow: deps.config.alertsAllowPrivateTargets ?? [] };
  const engine = createAlertEngine({
    store: deps.store,
    settings: deps.settings,
    upstream: deps.upstream,
    redactor: deps.redactor,
    policy,
    intervalS: deps.config.alertsIntervalS ?? 60,
    retryBaseMs: deps.config.alertsRetryBaseMs ?? 30_000,
  });
  engine.start();

  const notFound = (what: string) => new HttpProblem(404, `${what} does not exist (it may have been deleted)`);

  async function checkDestinations(ids: readonly string[]) {
    if (ids.length === 0) return;
    const known = new Set((await deps.store.listDestinations()).map((d) => d.destination_id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw fieldProblem('destination_ids', `Webhooks: ${missing.length} of the chosen webhooks no longer exist`);
    }
  }

  const handlers: ConsoleHandlers = {
    'console.alerts.rules.list': async () => ({ items: (await deps.store.listRules()).map(ruleAnswer) }),
    'console.alerts.rules.create': async ({ body, c }) => {
      if ((await deps.store.countRules()) >= ALERT_LIMITS.rules) {
        throw new HttpProblem(409, `At most ${ALERT_LIMITS.rules} rules; delete one to add another`);
      }
      await checkDestinations(body.destination_ids);
      const { name, kind, destination_ids, ...config } = body;
      // Only what the kind uses is kept, so the rules list shows no stray numbers.
      const used: Record<AlertRuleKind, Array<keyof typeof config>> = {
        consumption: ['org_id', 'threshold_percent', 'consumption_mode'],
        guardrail_violations: ['org_id', 'violations_per_day'],
        session_stuck: ['org_id', 'duration_minutes', 'session_statuses'],
        schedule_failed: ['org_id'],
        settings_changed: ['settings'],
        doctor_refused: [],
      };
      const kept = Object.fromEntries(used[kind].map((k) => [k, config[k]]));
      const row = await deps.store.createRule({
        name,
        kind,
        config: kept,
        destination_ids,
        muted: false,
        snoozed_until: null,
        created_at: nowS(),
        ...actorOf(c),
      });
      return ruleAnswer(row);
    },
    'console.alerts.rules.update': async ({ params, body }) => {
      if (body.destination_ids) await checkDestinations(body.destination_ids);
      const row = await deps.store.updateRule(params.rule_id, body);
      if (!row) throw notFound('This rule');
      return ruleAnswer(row);
    },
    'console.alerts.rules.delete': async ({ params }) => {
      if (!(await deps.store.deleteRule(params.rule_id))) throw notFound('This rule');
    },
    'console.alerts.evaluations.create': () => engine.evaluate(),
    'console.alerts.notifications.list': async ({ query }) => {
      const rows = await deps.store.notifications({
        first: query.first + 1,
        after: query.after === undefined ? undefined : Number(query.after),
        unread: query.unread === 'true',
      });
      const page = rows.slice(0, query.first);
      const more = rows.length > query.first;
      return {
        items: page.map(notificationAnswer),
        has_next_page: more,
        end_cursor: more ? String(page[page.length - 1]!.notification_id) : null,
      };
    },
    'console.alerts.unreadCount.get': async () => ({ unread: await deps.store.unreadCount() }),
    'console.alerts.notificationReads.create': async ({ params }) => {
      const n = await deps.store.markRead(params.notification_id, nowS());
      if (!n) throw notFound(`Notification #${params.notification_id}`);
      return notificationAnswer(n);
    },
    'console.alerts.acknowledgements.create': async ({ params, c }) => {
      const who = actorOf(c).made_by;
      const n = await deps.store.acknowledge(params.notification_id, nowS(), who);
      if (!n) throw notFound(`Notification #${params.notification_id}`);
      return notificationAnswer(n);
    },
    'console.alerts.notificationReads.apply': async () => {
      await deps.store.markAllRead(nowS());
      return { unread: await deps.store.unreadCount() };
    },
    'console.alerts.webhooks.list': async () => ({
      items: (await deps.store.listDestinations()).map(destinationAnswer),
    }),
    'console.alerts.webhooks.create': async ({ body, c, signal }) => {
      if ((await deps.store.countDestinations()) >= ALERT_LIMITS.destinations) {
        throw new HttpProblem(409, `At most ${ALERT_LIMITS.destinations} webhooks; remove one to add another`);
      }
      try {
        await vetTarget(body.url, policy, signal);
      } catch (err) {
        if (err instanceof TargetRefused) throw fieldProblem('url', `URL: ${err.message}`);
        throw err;
      }
      const secret = `whsec_${randomBytes(24).toString('base64url')}`;
      const row = await deps.store.createDestination({
        name: body.name,
        format: body.format,
        url: body.url,
        url_display: displayOf(body.url),
        secret,
        created_at: nowS(),
        ...actorOf(c),
      });
      return { ...destinationAnswer(row), signing_secret: secret };
    },
    'console.alerts.webhooks.delete': async ({ params }) => {
      if (!(await deps.store.deleteDestination(params.destination_id))) throw notFound('This webhook');
    },
    'console.alerts.deliveries.list': async ({ query }) => {
      const rows = await deps.store.attempts({
        first: query.first + 1,
        after: query.after === undefined ? undefined : Number(query.after),
        destinationId: query.destination_id,
      });
      const page = rows.slice(0, query.first);
      const more = rows.length > query.first;
      return {
        items: page.map((a) => ({ ...a })),
        has_next_page: more,
        end_cursor: more ? String(page[page.length - 1]!.attempt_id) : null,
      };
    },
  };
  return handlers;
}
