/**
 * The console's configuration-as-code endpoints (`/console/configuration/*`), where the engine runs so that
 * locks, history and attribution apply to every change alike, whether it comes from the CLI or the screen.
 *
 * An apply carries out exactly the plan that was reviewed: it reads live state again and plans again, and
 * refuses (409, nothing applied) unless the plan is the same one (`plan_id`: the document, the options and a
 * fingerprint of the live state). Steps run in dependency order through the same guarded paths the screens use
 * where they exist (git permissions, the IP access list: version check, lock, history), wait out the API's
 * rate limit (429 Retry-After), stop at the first failure or on cancel, and end in a report stored with the
 * revision. A secret's value comes only in the apply request, is sent to the API once, and is scrubbed from
 * every message the apply produces.
 */
import { configDocumentJsonSchema } from '../../../api/config-document/schema';
import { parseConfigDocument, type DocumentError, type ParsedConfig } from '../../../api/config-document/parse';
import type {
  ConfigPlan,
  ConfigProgress,
  ConfigReport,
  ConfigRevisionStatus,
} from '../../../api/console/configuration';
import { ConsoleReplaceRequest } from '../../../api/git-permissions/rules';
import { HttpProblem } from '../../../node/problem-writer';
import type { Config } from '../../config';
import type { Redactor } from '../../redact';
import { actorOf } from '../actor';
import { gitPermissionHandlers } from '../git-permissions';
import { egressUnknownOf, enterpriseNameOf, ipAccessListHandlers, protectedAddressesOf } from '../ip-access-list';
import type { ConsoleHandlers, ConsoleInput } from '../mount';
import type { ConsoleStore } from '../storage/console-store';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';
import { exportYaml } from './export';
import { needsOf, readLive } from './live';
import { buildPlan, type Plan, type StepContext } from './plan';
import type { ConfigRevisionStore } from './store';

export interface ConfigurationDeps {
  config: Config;
  upstream: UpstreamClient;
  store: ConsoleStore & { configuration: ConfigRevisionStore };
  redactor: Redactor;
  /** Longest wait for the API's rate limit in one apply, in seconds (default 300). */
  maxRateLimitWaitS?: number;
}

/** Applies whose progress is kept for polling (finished ones are dropped first). */
const MAX_TRACKED_APPLIES = 100;

/** Longest single Retry-After honoured (a longer one is waited in steps of this). */
const MAX_RETRY_AFTER_S = 60;

/** The upstream client, waiting out 429s (Retry-After) within a budget, and stopping when `signal` aborts. */
export function patientUpstream(
  upstream: UpstreamClient,
  opts: { signal?: AbortSignal; budgetS: number; onWait?: (seconds: number) => void },
): UpstreamClient & { waitedS(): number } {
  let waited = 0;
  async function patiently<T>(work: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await work();
      } catch (err) {
        if (!(err instanceof UpstreamProblem) || err.status !== 429) throw err;
        const asked = Number(err.headers['retry-after'] ?? '1');
        const s = Math.min(Number.isFinite(asked) && asked >= 0 ? asked : 1, MAX_RETRY_AFTER_S);
        if (waited + s > opts.budgetS) throw err;
        opts.onWait?.(s);
        await sleep(s * 1000, opts.signal);
        waited += s;
      }
    }
  }
  return {
    call: (id, args) => patiently(() => upstream.call(id, args)),
    all: (id, args) => patiently(() => upstream.all(id, args)),
    waitedS: () => waited,
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Cancelled());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(new Cancelled());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** 422 naming every error of a document with its file, path and line; nothing is planned or applied. */
function documentProblem(errors: DocumentError[], more: number): HttpProblem {
  const first = errors[0];
  const where = first
    ? `${first.file}${first.line ? `:${first.line}` : ''}${first.path ? ` (${first.path})` : ''}`
    : '';
  return new HttpProblem(
    422,
    `The document has ${errors.length + more} error${errors.length + more === 1 ? '' : 's'}; nothing was applied. First: ${where}: ${first?.message ?? ''}`,
    {
      document_errors: errors,
      more_errors: more,
      errors: errors.slice(0, 50).map((e) => ({
        loc: ['body', 'document', ...(e.path ? e.path.split('.') : [])],
        msg: `${e.line ? `line ${e.line}: ` : ''}${e.message}`,
        type: 'document',
      })),
    },
  );
}

type Parsed = ParsedConfig & { expanded: NonNullable<ParsedConfig['expanded']> };
type ApplyInput = ConsoleInput<'console.configuration.apply'>;

function parse(text: string, file: string): Parsed {
  const parsed = parseConfigDocument(text, file);
  if (!parsed.expanded) throw documentProblem(parsed.errors, parsed.more_errors);
  return parsed as Parsed;
}

/** Reads live state and plans; plan-time errors (an unknown role, folder, connection) are document errors. */
async function planOf(parsed: Parsed, file: string, prune: boolean, upstream: UpstreamClient, signal?: AbortSignal) {
  const live = await readLive(upstream, needsOf(parsed.expanded), signal);
  const plan = buildPlan(parsed.expanded, live.view, live.ids, prune, live.fingerprint);
  if (plan.errors.length > 0) {
    throw documentProblem(
      plan.errors.map((e) => ({ ...e, file, ...parsed.locate(e.path) })),
      0,
    );
  }
  return { plan, live };
}

function planAnswer(
  parsed: Parsed,
  plan: Plan,
  fingerprint: string,
  prune: boolean,
  warnings: string[],
  existing: Set<string>,
): ConfigPlan {
  return {
    fingerprint,
    plan_id: plan.planId,
    prune,
    counts: plan.counts,
    changes: plan.changes,
    organizations: parsed.expanded.organizations.items.map((o) => {
      const { name, include, path: _path, ...settings } = o;
      return {
        name,
        include,
        exists: existing.has(name),
        settings,
        changes: plan.changes.filter((c) => c.organization === name || (c.kind === 'organization' && c.key === name))
          .length,
      };
    }),
    secret_env: plan.secretEnv,
    warnings,
    resources: parsed.resources,
  };
}

/** The git permissions and IP access list screens' own handlers, so an apply passes their guards. */
function guardedHandlers(deps: ConfigurationDeps, upstream: UpstreamClient) {
  return {
    git: gitPermissionHandlers({ upstream, store: deps.store, redactor: deps.redactor }),
    ip: ipAccessListHandlers({
      upstream,
      redactor: deps.redactor,
      store: deps.store.ipAccessList,
      protectedAddresses: protectedAddressesOf(deps.config),
      enterpriseName: enterpriseNameOf(deps.config),
      egressUnknown: egressUnknownOf(deps.config),
    }),
  };
}

const messageOf = (err: unknown): string => {
  if (err instanceof UpstreamProblem) return err.body.detail ?? err.body.title ?? `The API answered ${err.status}`;
  if (err instanceof HttpProblem) return err.detail;
  return err instanceof Error ? err.message : 'unknown error';
};

/** An apply under way or recently finished, with what cancels it. */
interface Running {
  cancel: AbortController;
  state: ConfigProgress;
}

/** Applies under way and recently finished, by apply_id (this replica's; bounded). */
function applyTracker() {
  const applies = new Map<string, Running>();
  return {
    track(r: Running) {
      applies.delete(r.state.apply_id);
      applies.set(r.state.apply_id, r);
      for (const [id, old] of applies) {
        if (applies.size <= MAX_TRACKED_APPLIES) break;
        if (old.state.finished) applies.delete(id);
      }
    },
    progressOf(applyId: string): Running {
      const r = applies.get(applyId);
      if (!r) {
        throw new HttpProblem(
          404,
          `No apply ${applyId} is known to this console (it never started here, or finished long ago: see the history)`,
        );
      }
      return r;
    },
  };
}
type ApplyTracker = ReturnType<typeof applyTracker>;

/** 409 when the plan is not the one reviewed; 422 when a secret's environment variable did not come along. */
function refuseUnlessApplicable(plan: Plan, fingerprint: string, body: ApplyInput['body']) {
  if (plan.planId !== body.plan_id) {
    throw new HttpProblem(
      409,
      `Live state or the document changed since the plan was shown (the plan now has ${plan.counts.create} to create, ${plan.counts.update} to update, ${plan.counts.delete} to delete). Nothing was applied: plan again, review, and apply that plan.`,
      { reason: 'stale_plan', plan_id: plan.planId, fingerprint, counts: plan.counts },
    );
  }
  const missing = plan.secretEnv.filter(
    (name) => body.secret_values[name] === undefined || body.secret_values[name] === '',
  );
  if (missing.length > 0) {
    throw new HttpProblem(
      422,
      `The plan creates secrets whose values come from the environment, and ${missing.length === 1 ? 'this variable is' : 'these variables are'} not set: ${missing.join(', ')}. Nothing was applied.`,
      {
        missing_env: missing,
        errors: missing.map((m) => ({ loc: ['body', 'secret_values', m], msg: `Set ${m}`, type: 'missing' })),
      },
    );
  }
}

/** What the steps run with: the patient upstream, ids by name, secret values and the screens' guarded paths. */
function stepContext(
  deps: ConfigurationDeps,
  upstream: UpstreamClient,
  orgs: Map<string, string>,
  input: ApplyInput,
  signal: AbortSignal,
): StepContext {
  const { body, c } = input;
  const guarded = guardedHandlers(deps, upstream);
  return {
    upstream,
    orgId: (name) => {
      const id = orgs.get(name);
      if (!id) throw new Error(`The organization ${name} does not exist`);
      return id;
    },
    secretValue: (env) => body.secret_values[env]!,
    replaceGitPermissions: async (orgId, baseVersion, permissions) => {
      const request = ConsoleReplaceRequest.parse({ base_version: baseVersion, permissions, allow_per_item: true });
      await guarded.git['console.gitPermissions.replace']!({
        params: { org_id: orgId },
        query: undefined,
        body: request,
        signal,
        c,
      });
    },
    applyIpAccessList: async (baseVersion, list) => {
      await guarded.ip['console.ipAccessList.apply']!({
        params: undefined,
        query: undefined,
        body: { base_version: baseVersion, ip_ranges: list },
        signal,
        c,
      });
    },
  };
}

/**
 * Runs the steps in order into `progress`, stopping at the first failure or on cancel (the rest are skipped);
 * answers 'applied', 'failed' or 'cancelled'.
 */
async function runSteps(
  plan: Plan,
  ctx: StepContext,
  signal: AbortSignal,
  progress: ConfigProgress,
  scrub: (text: string) => string,
): Promise<ConfigRevisionStatus> {
  const steps = progress.steps;
  let status: ConfigRevisionStatus = 'applied';
  for (const step of plan.steps) {
    const { id, organization, kind, key, action } = step.change;
    if (status !== 'applied' || signal.aborted) {
      if (status === 'applied') status = 'cancelled';
      steps.push({ id, organization, kind, key, action, status: 'skipped', error: null });
      continue;
    }
    try {
      await step.run(ctx);
      steps.push({ id, organization, kind, key, action, status: 'applied', error: null });
    } catch (err) {
      if (err instanceof Cancelled) {
        status = 'cancelled';
        steps.push({ id, organization, kind, key, action, status: 'skipped', error: null });
      } else {
        status = 'failed';
        steps.push({
          id,
          organization,
          kind,
          key,
          action,
          status: 'failed',
          error: scrub(messageOf(err)).slice(0, 2_000),
        });
      }
    }
    progress.waiting_s = 0;
  }
  return status;
}

/** The report of a finished apply: counts, the outcome in a sentence, and every step's result. */
function reportOf(
  revisionId: number,
  plan: Plan,
  outcome: ConfigRevisionStatus,
  progress: ConfigProgress,
  waitedS: number,
  durationMs: number,
): ConfigReport {
  const steps = progress.steps;
  const applied = steps.filter((s) => s.status === 'applied').length;
  const failed = steps.filter((s) => s.status === 'failed').length;
  const skipped = steps.filter((s) => s.status === 'skipped').length;
  const cancelled = outcome === 'cancelled';
  const status = outcome !== 'applied' && applied > 0 ? 'partial' : outcome;
  const message =
    plan.steps.length === 0
      ? 'No changes: live state already matches the document.'
      : cancelled
        ? `Cancelled: ${applied} of ${plan.steps.length} changes were applied before the apply stopped; ${skipped} were not.`
        : failed > 0
          ? `Stopped at a failure: ${applied} of ${plan.steps.length} changes were applied; ${skipped} were not tried. ${steps.find((s) => s.status === 'failed')?.error ?? ''}`
          : `Applied ${applied} change${applied === 1 ? '' : 's'}.`;
  return {
    revision_id: revisionId,
    status,
    applied,
    failed,
    skipped,
    waited_s: waitedS,
    duration_ms: durationMs,
    steps: [...steps],
    message,
  };
}

/**
 * Plans again, checks it is the reviewed plan, records the revision, runs the steps (followed by `apply_id`),
 * and stores the report with the revision.
 */
async function applyReviewed(deps: ConfigurationDeps, tracker: ApplyTracker, input: ApplyInput) {
  const { body, c } = input;
  const store = deps.store.configuration;
  const parsed = parse(body.document, body.file);
  const { plan, live } = await planOf(parsed, body.file, body.prune, deps.upstream, input.signal);
  refuseUnlessApplicable(plan, live.fingerprint, body);
  // A secret's value is scrubbed from every message the apply produces.
  const values = Object.values(body.secret_values).filter((v) => v.length > 0);
  const scrub = (text: string) =>
    deps.redactor.redact(values.reduce((t, v) => t.split(v).join('[secret value]'), text));

  const revisionId = await store.begin({
    kind: 'apply',
    status: 'applying',
    file: body.file,
    document: body.document,
    plan: plan.changes,
    counts: plan.counts,
    fingerprint: live.fingerprint,
    ...actorOf(c),
  });
  const cancel = new AbortController();
  const signal = AbortSignal.any([cancel.signal, input.signal]);
  const progress: Running = {
    cancel,
    state: {
      apply_id: body.apply_id ?? `revision-${revisionId}`,
      revision_id: revisionId,
      total: plan.steps.length,
      steps: [],
      waiting_s: 0,
      cancelling: false,
      finished: false,
      report: null,
    },
  };
  tracker.track(progress);

  const started = Date.now();
  const upstream = patientUpstream(deps.upstream, {
    signal,
    budgetS: deps.maxRateLimitWaitS ?? 300,
    onWait: (s) => {
      progress.state.waiting_s = s;
    },
  });
  const ctx = stepContext(deps, upstream, live.ids.orgs, input, signal);
  const outcome = await runSteps(plan, ctx, signal, progress.state, scrub);
  const report = reportOf(revisionId, plan, outcome, progress.state, upstream.waitedS(), Date.now() - started);
  await store.finish(revisionId, report.status, report).catch((err: unknown) => {
    console.error(
      `[console] recording configuration revision ${revisionId} failed: ${err instanceof Error ? err.message : 'unknown error'}`,
    );
  });
  progress.state.finished = true;
  progress.state.report = report;
  return report;
}

/** Live state written as a document (every setting the document can hold). */
async function exportLive(deps: ConfigurationDeps, signal?: AbortSignal) {
  const live = await readLive(deps.upstream, needsOf('all'), signal);
  return { live, yaml: exportYaml(live.view, new Date()) };
}

/** How far live state has moved from the last applied document (its errors, when it no longer plans). */
async function driftOf(deps: ConfigurationDeps, signal: AbortSignal) {
  const checked_at = Math.floor(Date.now() / 1000);
  const rev = await deps.store.configuration.baseline();
  const empty = { create: 0, update: 0, delete: 0, destructive: 0 };
  if (!rev) return { revision: null, checked_at, counts: empty, changes: [], errors: [] };
  const { document: _d, plan: _p, report: _r, ...summary } = rev;
  const parsed = parseConfigDocument(rev.document, rev.file);
  if (!parsed.expanded) return { revision: summary, checked_at, counts: empty, changes: [], errors: parsed.errors };
  try {
    const { plan } = await planOf(parsed as Parsed, rev.file, false, deps.upstream, signal);
    return { revision: summary, checked_at, counts: plan.counts, changes: plan.changes, errors: [] };
  } catch (err) {
    if (err instanceof HttpProblem && err.status === 422 && Array.isArray(err.extra.document_errors)) {
      return {
        revision: summary,
        checked_at,
        counts: empty,
        changes: [],
        errors: err.extra.document_errors as DocumentError[],
      };
    }
    throw err;
  }
}

export function configurationHandlers(deps: ConfigurationDeps): ConsoleHandlers {
  const store = deps.store.configuration;
  const tracker = applyTracker();
  return {
    'console.configuration.schema.get': () => configDocumentJsonSchema(),
    'console.configuration.validate': ({ body }) => {
      const parsed = parseConfigDocument(body.document, body.file);
      return {
        valid: parsed.errors.length === 0,
        errors: parsed.errors,
        more_errors: parsed.more_errors,
        resources: parsed.resources,
      };
    },
    'console.configuration.plan': async ({ body, signal }) => {
      const parsed = parse(body.document, body.file);
      const { plan, live } = await planOf(parsed, body.file, body.prune, deps.upstream, signal);
      return planAnswer(parsed, plan, live.fingerprint, body.prune, live.warnings, new Set(live.ids.orgs.keys()));
    },
    'console.configuration.apply': (input) => applyReviewed(deps, tracker, input),
    'console.configuration.progress.get': ({ params }) => tracker.progressOf(params.apply_id).state,
    'console.configuration.cancel': ({ params }) => {
      const r = tracker.progressOf(params.apply_id);
      if (!r.state.finished) {
        r.state.cancelling = true;
        r.cancel.abort();
      }
      return r.state;
    },
    'console.configuration.export': async ({ signal }) => {
      const { yaml } = await exportLive(deps, signal);
      const parsed = parseConfigDocument(yaml, 'export.yaml');
      return { file: 'agent-platform-config.yaml', document: yaml, resources: parsed.resources };
    },
    'console.configuration.revisions.export': async ({ c, signal }) => {
      const { live, yaml } = await exportLive(deps, signal);
      const id = await store.begin({
        kind: 'export',
        status: 'recorded',
        file: 'agent-platform-config.yaml',
        document: yaml,
        plan: [],
        counts: { create: 0, update: 0, delete: 0, destructive: 0 },
        fingerprint: live.fingerprint,
        ...actorOf(c),
      });
      const rev = await store.get(id);
      const { document: _d, plan: _p, report: _r, ...summary } = rev!;
      return summary;
    },
    'console.configuration.revisions.list': async ({ query }) => {
      const page = await store.list({ first: query.first, after: query.after });
      const last = page.items[page.items.length - 1];
      return { ...page, end_cursor: page.has_next_page && last ? String(last.revision_id) : null };
    },
    'console.configuration.revisions.get': async ({ params }) => {
      const rev = await store.get(params.revision_id);
      if (!rev)
        throw new HttpProblem(404, `Revision ${params.revision_id} was not found in the configuration’s history`);
      return rev;
    },
    'console.configuration.drift.get': ({ signal }) => driftOf(deps, signal),
  };
}
