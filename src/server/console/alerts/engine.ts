/**
 * The alerts engine of one console replica: evaluates every rule on a schedule (CONSOLE_ALERTS_INTERVAL_S) or
 * when asked ("Check now"), turns what changed into notifications and webhook deliveries through the store (once
 * across replicas: see store.ts), and sends due deliveries with retries — exponential backoff from
 * CONSOLE_ALERTS_RETRY_BASE_MS on 5xx, 408, 429, timeouts and connection failures, at most
 * MAX_DELIVERY_ATTEMPTS attempts.
 *
 * One replica evaluates at a time (a lease row in the shared store), so the upstream is read once per interval
 * whatever the number of replicas; the store's conditional transitions make a second evaluation harmless anyway.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  ALERT_LIMITS,
  MAX_DELIVERY_ATTEMPTS,
  webhookBodyOf,
  type AlertRuleKind,
  type EvaluationReport,
} from '../../../api/console/alerts';
import type { Redactor } from '../../redact';
import type { SettingsStore } from '../storage/settings';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';
import { EVALUATORS, type EvalContext } from './rules';
import type { AlertStore, RuleRow } from './store';
import type { TargetPolicy } from './targets';
import { sendWebhook } from './webhooks';

export interface AlertEngineOptions {
  store: AlertStore;
  settings: SettingsStore;
  upstream: UpstreamClient;
  redactor: Redactor;
  policy: TargetPolicy;
  /** Seconds between evaluations; 0: only when asked. */
  intervalS: number;
  retryBaseMs: number;
  /** Epoch milliseconds (tests move it). */
  now?: () => number;
  /** Longest one webhook attempt may take. */
  webhookTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface AlertEngine {
  evaluate(): Promise<EvaluationReport>;
  /** Sends every delivery due now; answers how many were delivered. */
  deliverDue(): Promise<number>;
  start(): void;
  stop(): void;
}

const EVALUATION_LEASE_MS = 120_000;
const EVALUATION_DEADLINE_MS = 90_000;
/** How long a claimed delivery stays with its replica (longer than one attempt may take). */
const CLAIM_MS = 60_000;

/** The problem an upstream answered, as a rule's last error (a person reads it on the rules screen). */
function errorText(err: unknown): string {
  if (err instanceof UpstreamProblem) {
    if (err.status === 403) return `The API refused a read this rule needs (403): ${err.body.detail ?? err.body.title}`;
    return `The API answered ${err.status}: ${err.body.detail ?? err.body.title}`;
  }
  return err instanceof Error ? err.message : 'unknown error';
}

/**
 * One rule's conditions now against those firing: new ones fire, gone ones clear (for rules about a state), each
 * a notification unless the rule is muted or snoozed. A rule that measures "newly" first records a baseline.
 */
async function evaluateRule(
  store: AlertStore,
  rule: RuleRow,
  ctx: EvalContext,
  report: EvaluationReport,
): Promise<void> {
  const at = ctx.now;
  const evaluation = await EVALUATORS[rule.kind as AlertRuleKind](rule, ctx);
  const silent = rule.muted || (rule.snoozed_until !== null && rule.snoozed_until > at);
  const firingNow = new Set(await store.firing(rule.rule_id));
  if (evaluation.baselineFirst && !rule.seeded) {
    await store.seed(
      rule.rule_id,
      evaluation.conditions.map((c) => c.subject),
      at,
    );
    return;
  }
  const bodyFor = webhookBodies(rule, at);
  let raised = 0;
  const present = new Set<string>();
  for (const c of evaluation.conditions) {
    present.add(c.subject);
    if (firingNow.has(c.subject)) continue;
    // Bounded: a flood (hundreds of stuck sessions) is told in parts, the rest at the next evaluation.
    if (raised >= ALERT_LIMITS.eventsPerEvaluation) break;
    const r = await store.transition({
      rule,
      subject: c.subject,
      to: 'firing',
      at,
      silent,
      title: c.title,
      detail: c.detail,
      link: c.link,
      bodyFor: bodyFor('firing', c.title, c.detail, c.link),
    });
    if (r && r !== 'silent') {
      raised++;
      report.fired++;
    }
  }
  if (evaluation.mode === 'state' && evaluation.clearedText) {
    for (const subject of firingNow) {
      if (present.has(subject)) continue;
      const words = evaluation.clearedText(subject);
      const r = await store.transition({
        rule,
        subject,
        to: 'cleared',
        at,
        silent,
        ...words,
        bodyFor: bodyFor('cleared', words.title, words.detail, words.link),
      });
      if (r && r !== 'silent') report.cleared++;
    }
  }
}

/** The webhook body of a notification of `rule` at `at`, in each destination's format. */
const webhookBodies =
  (rule: RuleRow, at: number) =>
  (state: 'firing' | 'cleared', title: string, detail: string, link: string) =>
  (format: 'json' | 'slack', notificationId: number) =>
    webhookBodyOf(format, {
      type: state === 'firing' ? 'alert.firing' : 'alert.cleared',
      notification_id: notificationId,
      rule: { rule_id: rule.rule_id, name: rule.name, kind: rule.kind as AlertRuleKind },
      title,
      detail,
      link,
      occurred_at: at,
    });

/** What rules read with during one evaluation: the upstream within a deadline, organizations' names read once. */
function evalContext(opts: AlertEngineOptions, startedMs: number): EvalContext {
  const signal = AbortSignal.timeout(EVALUATION_DEADLINE_MS);
  let names: ReturnType<EvalContext['orgNames']> | undefined;
  return {
    upstream: opts.upstream,
    settings: opts.settings,
    now: Math.floor(startedMs / 1000),
    signal,
    orgNames: () =>
      (names ??= opts.upstream
        .all('organizations.list', { query: { first: 200 }, signal, maxItems: 5_000 })
        .then(
          (orgs) =>
            new Map(
              (orgs as Array<{ org_id: string; name: string; max_cycle_acu_limit?: number | null }>).map((o) => [
                o.org_id,
                { name: o.name, max_cycle_acu_limit: o.max_cycle_acu_limit ?? null },
              ]),
            ),
        )),
  };
}

/** One attempt of a claimed delivery, recorded with its next attempt (backing off) or its end; true: delivered. */
async function deliverOne(
  opts: AlertEngineOptions,
  d: Awaited<ReturnType<AlertStore['claimDue']>>[number],
  now: () => number,
  log: (line: string) => void,
): Promise<boolean> {
  const at = Math.floor(now() / 1000);
  if (!d.destination) {
    await opts.store.recordAttempt({
      delivery: d,
      at,
      outcome: 'failed',
      responseCode: null,
      error: 'The webhook was removed',
      nextAttemptAt: null,
    });
    return false;
  }
  const r = await sendWebhook({
    url: d.destination.url,
    secret: d.destination.secret,
    body: d.body,
    deliveryId: d.delivery_id,
    policy: opts.policy,
    timeoutMs: opts.webhookTimeoutMs ?? 10_000,
    now,
  });
  const attempt = d.attempts + 1;
  const retry = r.kind === 'retry' && attempt < MAX_DELIVERY_ATTEMPTS;
  await opts.store.recordAttempt({
    delivery: d,
    at,
    outcome: r.kind === 'delivered' ? 'delivered' : retry ? 'retrying' : 'failed',
    responseCode: r.responseCode,
    error: r.kind === 'retry' && !retry ? `${r.error ?? 'failed'}; gave up after ${attempt} attempts` : r.error,
    nextAttemptAt: retry ? now() + opts.retryBaseMs * 2 ** (attempt - 1) : null,
  });
  if (r.kind !== 'delivered') log(`alerts: webhook "${d.destination.name}" attempt ${attempt}: ${r.error}`);
  return r.kind === 'delivered';
}

export function createAlertEngine(opts: AlertEngineOptions): AlertEngine {
  const now = opts.now ?? Date.now;
  const holder = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const log = opts.log ?? (() => undefined);
  let timers: NodeJS.Timeout[] = [];
  let delivering: Promise<number> | null = null;

  async function evaluate(): Promise<EvaluationReport> {
    const report: EvaluationReport = { evaluated: 0, fired: 0, cleared: 0, delivered: 0, ran: false, errors: [] };
    const startedMs = now();
    if (!(await opts.store.tryLease(holder, startedMs, EVALUATION_LEASE_MS))) {
      report.delivered = await deliverDue();
      return report;
    }
    report.ran = true;
    try {
      const rules = await opts.store.listRules();
      const ctx = evalContext(opts, startedMs);
      for (const rule of rules) {
        report.evaluated++;
        let error: string | null = null;
        try {
          await evaluateRule(opts.store, rule, ctx, report);
        } catch (err) {
          error = opts.redactor.redact(errorText(err)).slice(0, 500);
          report.errors.push({ rule_id: rule.rule_id, name: rule.name, error });
        }
        await opts.store.noteEvaluated(rule.rule_id, ctx.now, error);
      }
    } finally {
      await opts.store.releaseLease(holder).catch(() => undefined);
    }
    report.delivered = await deliverDue();
    return report;
  }

  async function deliverOnce(): Promise<number> {
    let delivered = 0;
    // A few rounds: a batch, then what became due meanwhile; never more than 200 attempts per call.
    for (let round = 0; round < 4; round++) {
      const t = now();
      const due = await opts.store.claimDue(t, t + CLAIM_MS, 50);
      if (due.length === 0) break;
      const results = await Promise.all(due.map((d) => deliverOne(opts, d, now, log)));
      delivered += results.filter(Boolean).length;
    }
    return delivered;
  }

  function deliverDue(): Promise<number> {
    // One sender per replica at a time; a caller arriving meanwhile waits for it, then sends what is still due.
    const run = (delivering ?? Promise.resolve(0)).catch(() => 0).then(() => deliverOnce());
    delivering = run;
    void run
      .finally(() => {
        if (delivering === run) delivering = null;
      })
      .catch(() => undefined);
    return run;
  }

  /** A store that was closed under a running timer (the server stopped): the timers stop too. */
  const closed = (err: unknown) =>
    err instanceof Error && /not open|closed|after calling end|Cannot use a pool/i.test(err.message);

  function every(ms: number, work: () => Promise<unknown>) {
    const timer = setInterval(() => {
      work().catch((err: unknown) => {
        if (closed(err)) stop();
        else log(`alerts: ${opts.redactor.redact(errorText(err))}`);
      });
    }, ms);
    timer.unref();
    timers.push(timer);
  }

  function stop() {
    for (const t of timers) clearInterval(t);
    timers = [];
  }

  return {
    evaluate,
    deliverDue,
    start() {
      if (timers.length > 0) return;
      if (opts.intervalS > 0) every(opts.intervalS * 1000, evaluate);
      // Retries fall between evaluations.
      every(Math.min(Math.max(opts.retryBaseMs, 1_000), 15_000), deliverDue);
    },
    stop,
  };
}
