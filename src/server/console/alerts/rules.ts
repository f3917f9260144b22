/**
 * What each kind of alert rule watches, read through the console's upstream client with the contract's
 * operations — the same figures the screens show (the usage screen's cycle, limit and forecast come from the
 * same `forecastCycle`). An evaluator answers the conditions that hold now, each with a subject (what it is
 * about, stable while it lasts), words for the notification and the console screen that explains it.
 *
 *   - `state` rules (consumption, guardrail violations, stuck sessions, refused operations) fire when a subject
 *     appears and clear when it is gone;
 *   - `event` rules (a failed scheduled run, a settings change) fire once per event after the rule was made.
 */
import {
  billingDayEnd,
  billingDayStart,
  cycleBounds,
  cycleContaining,
  type BillingCycle,
} from '../../../api/billing-day';
import { WATCHED_SETTING_LABELS, type AlertRuleKind, type WatchedSetting } from '../../../api/console/alerts';
import { DoctorReport } from '../../../api/console/doctor';
import { forecastCycle } from '../../../api/cycle-forecast';
import type { SettingsStore } from '../storage/settings';
import type { UpstreamClient } from '../upstream-client';
import { LAST_REPORT_KEY } from '../doctor';
import type { RuleRow } from './store';

export interface Condition {
  subject: string;
  title: string;
  detail: string;
  link: string;
}

export interface Evaluation {
  mode: 'state' | 'event';
  conditions: Condition[];
  /** Words for a subject that stopped (state rules). */
  clearedText?: (subject: string) => { title: string; detail: string; link: string };
  /** Doctor rules: what stands at the first look is a baseline, not news. */
  baselineFirst?: boolean;
}

export interface EvalContext {
  upstream: UpstreamClient;
  settings: SettingsStore;
  /** Unix seconds. */
  now: number;
  signal: AbortSignal;
  /** Organization names by id, read once per evaluation. */
  orgNames(): Promise<Map<string, { name: string; max_cycle_acu_limit: number | null }>>;
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
const dateOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
/** "Name (org-…)": a name a person reads, with the id beside it. */
const orgLabel = (names: Map<string, { name: string }>, id: string) => {
  const name = names.get(id)?.name;
  return name ? name : `organization ${id}`;
};

async function consumption(rule: RuleRow, ctx: EvalContext): Promise<Evaluation> {
  const c = rule.config as {
    org_id: string | null;
    threshold_percent: number;
    consumption_mode: 'reached' | 'forecast';
  };
  const cycles = (await ctx.upstream.call('consumption.cycles.list', {
    query: { first: 24 },
    signal: ctx.signal,
  })) as { items: BillingCycle[] };
  const cycle: BillingCycle = cycleContaining(cycles.items, ctx.now) ?? cycleBounds(ctx.now, 1);
  const range = { time_after: cycle.after, time_before: Math.min(cycle.before, billingDayEnd(ctx.now)) };
  const [limits, daily, names] = await Promise.all([
    ctx.upstream.all('acuLimits.list', { query: { first: 200 }, signal: ctx.signal, maxItems: 5_000 }) as Promise<
      Array<{ scope: string; org_id?: string | null; cycle_acu_limit: number }>
    >,
    c.org_id
      ? ctx.upstream.call('consumption.daily.organization.get', {
          params: { org_id: c.org_id },
          query: range,
          signal: ctx.signal,
        })
      : ctx.upstream.call('consumption.daily.get', { query: range, signal: ctx.signal }),
    c.org_id
      ? ctx.orgNames()
      : Promise.resolve(new Map<string, { name: string; max_cycle_acu_limit: number | null }>()),
  ]);
  // As the usage screen: the enterprise's limit, or the organization's (from the limits, else the organization).
  const limit = c.org_id
    ? (limits.find((l) => l.scope === 'org' && l.org_id === c.org_id)?.cycle_acu_limit ??
      names.get(c.org_id)?.max_cycle_acu_limit ??
      null)
    : (limits.find((l) => l.scope === 'enterprise')?.cycle_acu_limit ?? null);
  const who = c.org_id ? orgLabel(names, c.org_id) : 'The enterprise';
  const link = c.org_id ? `/orgs/${c.org_id}/usage` : '/usage';
  const subject = `cycle:${cycle.after}`;
  const clearedText = () => ({
    title: `${who} is back under ${c.threshold_percent} % of its ACU limit`,
    detail: `The cycle starting ${dateOf(cycle.after)} no longer crosses the rule's share of the limit.`,
    link,
  });
  if (limit === null || limit <= 0) return { mode: 'state', conditions: [], clearedText };
  const f = forecastCycle({ cycle, now: ctx.now, days: daily.consumption_by_date, limit });
  const threshold = (limit * c.threshold_percent) / 100;
  const value = c.consumption_mode === 'forecast' ? f.forecastAtEnd : f.cycleToDate;
  if (value < threshold) return { mode: 'state', conditions: [], clearedText };
  const share = Math.round((value / limit) * 100);
  return {
    mode: 'state',
    clearedText,
    conditions: [
      {
        subject,
        title:
          c.consumption_mode === 'forecast'
            ? `${who} is forecast to use ${share} % of its ACU limit this cycle`
            : `${who} has used ${share} % of its ACU limit this cycle`,
        detail:
          `${fmt(f.cycleToDate)} ACUs so far this cycle (from ${dateOf(cycle.after)}), ${fmt(f.burnRate)} a day lately; ` +
          `${fmt(f.forecastAtEnd)} forecast by the cycle's end, against a limit of ${fmt(limit)} ` +
          `(the rule fires at ${c.threshold_percent} %, ${fmt(threshold)} ACUs).`,
        link,
      },
    ],
  };
}

async function guardrailViolations(rule: RuleRow, ctx: EvalContext): Promise<Evaluation> {
  const c = rule.config as { org_id: string | null; violations_per_day: number };
  const day = billingDayStart(ctx.now);
  const query = { first: 200, time_after: day, time_before: ctx.now + 1 };
  const items = (await (c.org_id
    ? ctx.upstream.all('guardrails.violations.organization.list', {
        params: { org_id: c.org_id },
        query,
        signal: ctx.signal,
        maxItems: 20_000,
      })
    : ctx.upstream.all('guardrails.violations.list', { query, signal: ctx.signal, maxItems: 20_000 }))) as Array<{
    org_id: string;
  }>;
  const byOrg = new Map<string, number>();
  for (const v of items) byOrg.set(v.org_id, (byOrg.get(v.org_id) ?? 0) + 1);
  const names = await ctx.orgNames();
  const conditions: Condition[] = [];
  for (const [org, n] of byOrg) {
    if (n <= c.violations_per_day) continue;
    conditions.push({
      subject: `${org}:${day}`,
      title: `${orgLabel(names, org)}: ${n} guardrail violations today`,
      detail: `More than ${c.violations_per_day} guardrail violations in the billing day starting ${dateOf(day)} (08:00 UTC).`,
      link: `/orgs/${org}/guardrails`,
    });
  }
  return {
    mode: 'state',
    conditions,
    clearedText: (subject) => {
      const org = subject.split(':')[0]!;
      return {
        title: `${orgLabel(names, org)}: guardrail violations back under ${c.violations_per_day + 1} a day`,
        detail: 'The billing day ended or the count fell under the rule’s number.',
        link: `/orgs/${org}/guardrails`,
      };
    },
  };
}

async function sessionStuck(rule: RuleRow, ctx: EvalContext): Promise<Evaluation> {
  const c = rule.config as { org_id: string | null; duration_minutes: number; session_statuses: string[] };
  const before = ctx.now - c.duration_minutes * 60;
  const sessions = (await ctx.upstream.all('sessions.enterprise.list', {
    query: {
      first: 200,
      status: c.session_statuses,
      updated_before: before,
      ...(c.org_id ? { org_ids: [c.org_id] } : {}),
    },
    signal: ctx.signal,
    maxItems: 5_000,
  })) as Array<{ session_id: string; title?: string | null; status: string; org_id: string; updated_at: number }>;
  const names = await ctx.orgNames();
  // Filtered here too: the status filter is a sandbox extension an upstream may ignore.
  const stuck = sessions.filter(
    (s) => c.session_statuses.includes(s.status) && s.updated_at <= before && (!c.org_id || s.org_id === c.org_id),
  );
  const titleOf = (s: { title?: string | null; session_id: string }) => (s.title ? `"${s.title}"` : s.session_id);
  return {
    mode: 'state',
    conditions: stuck.map((s) => ({
      subject: `${s.session_id}:${s.status}`,
      title: `Session ${titleOf(s)} is ${s.status} for more than ${c.duration_minutes} minutes`,
      detail: `In ${orgLabel(names, s.org_id)}; ${s.status} since ${new Date(s.updated_at * 1000).toISOString()}.`,
      link: `/sessions/${s.session_id}`,
    })),
    clearedText: (subject) => {
      const id = subject.split(':')[0]!;
      return {
        title: `Session ${id} is no longer ${subject.split(':')[1] ?? 'stuck'}`,
        detail: 'It resumed, ended or was removed.',
        link: `/sessions/${id}`,
      };
    },
  };
}

async function scheduleFailed(rule: RuleRow, ctx: EvalContext): Promise<Evaluation> {
  const c = rule.config as { org_id: string | null };
  const names = await ctx.orgNames();
  const orgs = c.org_id ? [c.org_id] : [...names.keys()].slice(0, 100);
  const conditions: Condition[] = [];
  for (const org of orgs) {
    const schedules = (await ctx.upstream.all('schedules.list', {
      params: { org_id: org },
      query: { first: 200 },
      signal: ctx.signal,
      maxItems: 2_000,
    })) as Array<{
      scheduled_session_id: string;
      name: string;
      last_error_at?: string | null;
      consecutive_failures: number;
    }>;
    for (const s of schedules) {
      const at = s.last_error_at ? Math.floor(Date.parse(s.last_error_at) / 1000) : NaN;
      // Runs that failed before the rule existed are not news.
      if (!(at >= rule.created_at)) continue;
      conditions.push({
        subject: `${s.scheduled_session_id}@${at}`,
        title: `Scheduled run of "${s.name}" failed`,
        detail: `In ${orgLabel(names, org)} at ${new Date(at * 1000).toISOString()}; ${s.consecutive_failures} failure(s) in a row.`,
        link: `/orgs/${org}/schedules/${s.scheduled_session_id}`,
      });
    }
  }
  return { mode: 'event', conditions };
}

const SETTING_OF: Array<[WatchedSetting, RegExp]> = [
  ['ip_access_list', /ip_access_list/],
  ['git_permissions', /git_permission/],
  ['roles', /role/],
];

async function settingsChanged(rule: RuleRow, ctx: EvalContext): Promise<Evaluation> {
  const c = rule.config as { settings: WatchedSetting[] };
  // The rule evaluates every minute or so: two days back covers a console that was down for a while.
  const after = Math.max(rule.created_at, ctx.now - 2 * 86_400);
  const entries = (await ctx.upstream.all('auditLogs.list', {
    query: { first: 200, time_after: after, order: 'asc' },
    signal: ctx.signal,
    maxItems: 5_000,
  })) as Array<{
    audit_log_id: string;
    action: string;
    org_id?: string | null;
    user_email?: string | null;
    service_user_name?: string | null;
    created_at: number;
    data?: Record<string, unknown> | null;
  }>;
  const names = await ctx.orgNames();
  const conditions: Condition[] = [];
  for (const e of entries) {
    const setting = SETTING_OF.find(([, re]) => re.test(e.action))?.[0];
    if (!setting || !c.settings.includes(setting)) continue;
    const org = e.org_id ?? (typeof e.data?.org_id === 'string' ? e.data.org_id : null);
    const who = e.user_email ?? e.service_user_name ?? 'someone';
    conditions.push({
      subject: `audit:${e.audit_log_id}`,
      title: `${WATCHED_SETTING_LABELS[setting]} changed by ${who}`,
      detail: `${e.action.replaceAll('_', ' ')}${org ? ` in ${orgLabel(names, org)}` : ''} at ${new Date(e.created_at * 1000).toISOString()}.`,
      link:
        setting === 'ip_access_list'
          ? '/settings/ip-access-list'
          : setting === 'git_permissions' && org
            ? `/orgs/${org}/git-permissions`
            : setting === 'roles'
              ? '/roles'
              : '/audit-logs',
    });
  }
  return { mode: 'event', conditions };
}

async function doctorRefused(_rule: RuleRow, ctx: EvalContext): Promise<Evaluation> {
  const parsed = DoctorReport.safeParse(await ctx.settings.get(LAST_REPORT_KEY));
  const refused = parsed.success ? parsed.data.operations.items.filter((i) => i.outcome === 'refused') : [];
  return {
    mode: 'state',
    baselineFirst: true,
    conditions: refused.map((i) => ({
      subject: i.id,
      title: `The doctor finds ${i.method} ${i.path} newly refused`,
      detail: `The credential lacks ${i.refused_permission ?? i.permission}; the screens that need it will say so.`,
      link: '/doctor',
    })),
    clearedText: (subject) => ({
      title: `The doctor finds ${subject} allowed again`,
      detail: 'The last doctor run no longer finds it refused.',
      link: '/doctor',
    }),
  };
}

export const EVALUATORS: Record<AlertRuleKind, (rule: RuleRow, ctx: EvalContext) => Promise<Evaluation>> = {
  consumption,
  guardrail_violations: guardrailViolations,
  session_stuck: sessionStuck,
  schedule_failed: scheduleFailed,
  settings_changed: settingsChanged,
  doctor_refused: doctorRefused,
};
