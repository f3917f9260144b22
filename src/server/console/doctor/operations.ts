/**
 * The doctor's operations section: every read operation of the contract's table (GET; whatever the table holds),
 * called once with the smallest request (`first=1`), path ids taken from earlier answers. Never a write: the HTTP
 * client can only send GET. An operation with `alternates` is tried at its paths in order (src/api/path-choice.ts,
 * with the run's own memory), and the report says which path the upstream serves. Each answer is recorded as
 * allowed, refused (naming the permission), not present, failed or skipped.
 */
import type {
  DoctorOperationResult,
  DoctorPathFinding,
  DoctorReport,
  DoctorVerdict,
} from '../../../api/console/doctor';
import { buildPath, type OperationDef } from '../../../api/operations/define';
import { callAtServedPath, candidatePaths, memoryPathMemory } from '../../../api/path-choice';
import { isPermission } from '../../../api/permissions';
import type { ConformanceTally } from './conformance-section';
import type { GetResult } from './http';
import { explainUnauthorized } from './identity';
import { guessQueryValue, IdPool, itemId, pathParamNames } from './ids';
import type { PacedSender } from './rate-limit';
import { plural, problemDetail, verdict, type DoctorRun, type OperationCaller } from './run';

/** `path` shortened after what it shares with `other`: `…/agent` beside `…/devin`. */
function shortBeside(path: string, other: string): string {
  const a = path.split('/');
  const b = other.split('/');
  let same = 0;
  while (same < a.length - 1 && a[same] === b[same]) same++;
  return same > 1 ? `…/${a.slice(same).join('/')}` : path;
}

/** What the doctor found about an operation with alternates: the path its upstream serves. */
function pathFinding(
  op: OperationDef,
  served: string | null,
  tried: Array<{ path: string; status: number }>,
): DoctorPathFinding {
  const first = tried[0];
  let line: string;
  if (served === op.path) line = `${op.id}: served at its first path ${op.path}`;
  else if (served) {
    const before = tried
      .filter((t) => t.path !== served)
      .map((t) => `${shortBeside(t.path, served)}: ${t.status}`)
      .join(', ');
    line = `${op.id}: served at ${served} (first choice ${before})`;
  } else if (tried.length > 0 && tried.every((t) => t.status === 404 || t.status === 405)) {
    const statuses = tried.map((t) => t.status).join(', ');
    // A 404 for one item does not tell a missing route from a missing item: say both.
    line = pathParamNames(op.path).length
      ? `${op.id}: ${statuses} at its ${plural(tried.length, 'path')} (served at none, or the item asked for does not exist)`
      : `${op.id}: served at none of its ${plural(tried.length, 'path')} (${statuses})`;
  } else {
    line = `${op.id}: not established (${first ? `${first.path} answered ${first.status === 0 ? 'nothing' : first.status}` : 'not sent'})`;
  }
  return { operation_id: op.id, path: op.path, served_path: served, tried, line };
}

/**
 * What a refused or failed answer (3xx, 4xx, 5xx) means for `op`: its outcome and a detail in plain words. A 401
 * also explains, once for the run, why the credential was refused.
 */
function unsuccessfulOutcome(run: DoctorRun, op: OperationDef, res: GetResult): Partial<DoctorOperationResult> {
  const { detail, body } = problemDetail(res.text);
  if (res.status === 401) {
    run.unauthorized ??= explainUnauthorized(res.text, run.credentialForm);
    return { outcome: 'failed', detail: run.clean(`401: ${detail ?? 'credential refused'}`) };
  }
  if (res.status === 403) {
    const named = typeof body?.permission === 'string' ? body.permission : null;
    const inDetail = (detail ?? '').match(/\b(View|Manage|Use|Index)[A-Z]\w+/g)?.find((w) => isPermission(w));
    const permission = named ?? inDetail ?? (op.permission === 'AnyCredential' ? null : op.permission);
    return {
      outcome: 'refused',
      refused_permission: permission,
      detail: run.clean(detail ?? `refused: needs ${permission ?? 'a permission the upstream did not name'}`),
    };
  }
  if (res.status === 404 || res.status === 405) {
    return { outcome: 'not_present', detail: run.clean(detail ?? `${res.status}: not on this upstream`) };
  }
  if (res.status < 400) {
    return {
      outcome: 'failed',
      detail: `${res.status}: a redirect${res.headers.location ? ` to ${run.clean(res.headers.location)}` : ''}; the doctor does not follow redirects`,
    };
  }
  return { outcome: 'failed', detail: run.clean(`${res.status}: ${detail ?? 'the upstream failed'}`) };
}

export interface OperationsWalk {
  /** Calls one operation (identity's `GET /v3/self` goes through it too). */
  call: OperationCaller;
  /** Calls every operation not yet recorded, parents before the items they give ids to. */
  walk(): Promise<void>;
  readonly pathFindings: DoctorPathFinding[];
}

export function operationsWalk(run: DoctorRun, sender: PacedSender, tally: ConformanceTally): OperationsWalk {
  const pool = new IdPool();
  /** The first item of each list answered, and the ids it was asked with. */
  const firstItems = new Map<string, { params: Record<string, string>; item: unknown }>();
  const pathFindings: DoctorPathFinding[] = [];
  /** Which path each operation with alternates was answered at, learned during this run only. */
  const pathMemory = memoryPathMemory();

  const urlFor = (path: string, query: Record<string, string>) => {
    const u = new URL(run.opts.baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    return u;
  };

  /**
   * Sends `op` at the first of its paths the upstream serves (its own, then its alternates: a 404 or 405 on a path
   * moves on to the next), and notes which one answered.
   */
  async function sendAtServedPath(op: OperationDef, params: Record<string, string>, query: Record<string, string>) {
    const choice = await callAtServedPath(op, pathMemory, async (template) => {
      const path = buildPath(template, params);
      const url = urlFor(path, query);
      const answer = await sender.send(url);
      // No HTTP answer (status 0) is not "not served": it ends the search there.
      return { status: answer.result?.status ?? 0, answer, request: `${path}${url.search}` };
    });
    const definite = choice.result.status !== 0 && choice.result.status < 500 && choice.result.status !== 429;
    const notServed = choice.tried.every((t) => t.status === 404 || t.status === 405);
    const servedPath = definite && !notServed ? choice.path : null;
    if (op.alternates?.length) pathFindings.push(pathFinding(op, servedPath, choice.tried));
    return { ...choice.result, servedPath };
  }

  const call: OperationCaller = async (op, params, query) => {
    run.progress(op.id);
    const { answer, request, servedPath } = await sendAtServedPath(op, params, query);
    if (answer.error || !answer.result) {
      run.record(op, { request, outcome: 'failed', detail: run.clean(answer.error?.plain ?? 'no answer') });
      return undefined;
    }
    const res = answer.result;
    const base = { request, status: res.status, ms: res.ms, served_path: servedPath };
    if (answer.rateLimited) {
      run.record(op, { ...base, outcome: 'failed', detail: answer.rateLimited });
      return undefined;
    }
    if (res.status >= 300) {
      run.record(op, { ...base, ...unsuccessfulOutcome(run, op, res) });
      return undefined;
    }
    // Allowed: check what it answered, and keep its ids for the operations after it.
    const { json, defects, unknown } = tally.inspect(op, res, query);
    if (json !== undefined) {
      pool.harvest(json);
      const list = (json as { items?: unknown })?.items;
      if (op.paginated && Array.isArray(list) && list.length > 0) firstItems.set(op.id, { params, item: list[0] });
    }
    run.record(op, { ...base, outcome: 'allowed', defects, unknown_fields: unknown });
    return json;
  };

  return { call, walk: () => walkPending(run, call, pool, firstItems), pathFindings };
}

type Fill = { params: Record<string, string>; query: Record<string, string> } | { wait: true } | { missing: string };

/** Calls the operations not yet recorded, each once its ids are known, until none is left or one is refused 401. */
async function walkPending(
  run: DoctorRun,
  call: OperationCaller,
  pool: IdPool,
  firstItems: Map<string, { params: Record<string, string>; item: unknown }>,
): Promise<void> {
  const { table } = run;
  const pending = table.filter((op) => !run.items.has(op.id));
  /** The list whose items give `name`: its path (or an alternate) is the part of `op`'s before `/{name}`. */
  const parentOf = (op: OperationDef, name: string) => {
    const prefixes = candidatePaths(op)
      .filter((p) => p.includes(`/{${name}}`))
      .map((p) => p.slice(0, p.indexOf(`/{${name}}`)));
    return table.find((p) => p.paginated && p.id !== op.id && candidatePaths(p).some((c) => prefixes.includes(c)));
  };

  /** The path ids of `op`, or why it must wait or cannot be tried. */
  const fillParams = (
    op: OperationDef,
    waitForParents: boolean,
  ): { params: Record<string, string> } | { wait: true } | { missing: string } => {
    const params: Record<string, string> = {};
    const waiting = new Set(pending.map((p) => p.id));
    for (const name of pathParamNames(op.path)) {
      const parent = parentOf(op, name);
      if (parent && waitForParents && waiting.has(parent.id)) return { wait: true };
      const schema = op.params?.shape[name] as { safeParse(v: unknown): { success: boolean } } | undefined;
      const fits = (v: string | undefined): v is string => !!v && (!schema || schema.safeParse(v).success);
      let value: string | undefined;
      const first = parent ? firstItems.get(parent.id) : undefined;
      if (first && Object.entries(first.params).every(([k, v]) => params[k] === undefined || params[k] === v)) {
        const id = itemId(first.item, name, Object.keys(first.params));
        if (fits(id)) value = id;
      }
      value ??= pool.candidates(name, params).find(fits);
      if (!value) return { missing: name };
      params[name] = value;
    }
    return { params };
  };

  /** The smallest query `op` accepts (`first=1`, required values from earlier answers), or what is missing. */
  const fillQuery = (
    op: OperationDef,
    params: Record<string, string>,
  ): { query: Record<string, string> } | { missing: string } => {
    const query: Record<string, string> = {};
    if (!op.query) return { query };
    const shape = op.query.shape as Record<string, unknown>;
    if ('first' in shape) query.first = '1';
    const parsed = op.query.safeParse(query);
    if (parsed.success) return { query };
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if (typeof key !== 'string' || query[key] !== undefined) continue;
      const v = pool.candidates(key, params)[0] ?? guessQueryValue(key, Math.floor(Date.now() / 1000));
      if (!v) return { missing: key };
      query[key] = v;
    }
    return op.query.safeParse(query).success ? { query } : { missing: 'a query value the contract requires' };
  };

  const fill = (op: OperationDef, waitForParents: boolean): Fill => {
    const p = fillParams(op, waitForParents);
    if (!('params' in p)) return p;
    const q = fillQuery(op, p.params);
    return 'missing' in q ? q : { params: p.params, query: q.query };
  };

  let waitForParents = true;
  while (pending.length > 0) {
    let progressed = false;
    for (const op of [...pending]) {
      if (run.unauthorized) return;
      const f = fill(op, waitForParents);
      if ('params' in f) {
        pending.splice(pending.indexOf(op), 1);
        await call(op, f.params, f.query);
        progressed = true;
      }
    }
    if (progressed) {
      waitForParents = true;
      continue;
    }
    if (waitForParents) {
      // Parents that cannot be called themselves: try the ids seen elsewhere.
      waitForParents = false;
      continue;
    }
    for (const op of [...pending]) {
      const f = fill(op, false);
      const name = 'missing' in f ? f.missing : 'id';
      run.record(op, { outcome: 'skipped', detail: `skipped: no ${name} to try` });
    }
    pending.length = 0;
  }
}

export type OperationCounts = DoctorReport['operations']['counts'];

export function countOutcomes(list: readonly DoctorOperationResult[]): OperationCounts {
  const counts = { allowed: 0, refused: 0, not_present: 0, failed: 0, skipped: 0 };
  for (const r of list) counts[r.outcome]++;
  return counts;
}

/** Section 3's verdict: how many of the read operations the credential may call. */
export function operationsVerdict(
  run: DoctorRun,
  reachable: boolean,
  list: readonly DoctorOperationResult[],
  counts: OperationCounts,
): DoctorVerdict {
  if (!reachable || run.unauthorized || run.credentialForm === 'missing') {
    return verdict(
      'skipped',
      `Not checked: ${!reachable ? 'the upstream cannot be reached' : 'the credential was refused'}`,
    );
  }
  if (counts.allowed === 0) return verdict('fail', `None of the ${list.length} read operations is allowed`);
  if (counts.allowed + counts.skipped === list.length) {
    return verdict(
      'ok',
      counts.skipped === 0
        ? `All ${list.length} read operations allowed`
        : `All ${counts.allowed} read operations tried were allowed; ${counts.skipped} skipped (no id to try)`,
    );
  }
  const refusedPermissions = [
    ...new Set(list.filter((r) => r.outcome === 'refused').map((r) => r.refused_permission ?? '?')),
  ];
  const parts = [`${counts.allowed} of ${list.length} read operations allowed`];
  if (counts.refused) parts.push(`${counts.refused} refused (${refusedPermissions.join(', ')})`);
  if (counts.not_present) parts.push(`${counts.not_present} not present`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.skipped) parts.push(`${counts.skipped} skipped`);
  return verdict(counts.failed > 0 ? 'fail' : 'warn', parts.join('; '));
}
