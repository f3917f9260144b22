/**
 * The doctor: checks one upstream with one credential, section by section, and answers a report
 * (`DoctorReport`, `src/api/console/doctor.ts`). Used by `npm run doctor` and by the console's
 * `/console/doctor` endpoints.
 *
 * 1. Reach: the base URL resolves and answers over HTTPS (plain HTTP only on loopback), with the round-trip
 *    time of a request without the credential; TLS problems named plainly.
 * 2. Identity: `GET /v3/self` when the upstream has it, the `cog_` form of the credential, and a 401 explained
 *    (missing, malformed, unknown, expired, revoked, refused by the IP access list).
 * 3. Operations: every read operation of the contract's table (GET; whatever the table holds), called once with
 *    the smallest request (`first=1`), path ids taken from earlier answers (the first organization, the first
 *    session of it…). Never a write: the HTTP client can only send GET. An operation with `alternates` is tried
 *    at its paths in order (src/api/path-choice.ts, with the run's own memory), and the report says which path
 *    the upstream serves. Which screens will work follows (`CONSOLE_SCREENS`).
 * 4. Conformance: every answer against its response schema and the paging rules (see `conformance.ts`), and the
 *    fields a screen relies on though the contract leaves them optional (`SCREEN_FIELDS`): one that is absent is
 *    marked missing, naming the screen.
 * 5. Rate limiting: at most 5 requests within any second on every upstream, loopback included (`pace.ts`), every
 *    429 waited out (`Retry-After`), what was seen recorded.
 *
 * The credential appears nowhere in the report: every text from the upstream goes through the redactor, and
 * the whole report once more at the end.
 */
import http from 'node:http';
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  CONSOLE_SCREENS,
  SCREEN_FIELDS,
  screenChecks,
  screenName,
  type ConformanceIssue,
  type DoctorOperationResult,
  type DoctorPathFinding,
  type DoctorReport,
  type DoctorVerdict,
  type NotPublishedField,
  type ScreenField,
  type ScreenNeed,
  type UnauthorizedReason,
} from '../../../api/console/doctor';
import { operationList } from '../../../api/operations';
import { buildPath, type OperationDef } from '../../../api/operations/define';
import { callAtServedPath, candidatePaths, memoryPathMemory } from '../../../api/path-choice';
import { isPermission } from '../../../api/permissions';
import { createRedactor, type Redactor } from '../../redact';
import { checkAnswer } from './conformance';
import { DoctorNetworkError, doctorGet, isLoopbackName, retryAfterSeconds, type GetResult } from './http';
import {
  busiestSecond,
  DEFAULT_MIN_INTERVAL_MS,
  MAX_REQUESTS_PER_SECOND,
  Pacer,
  realClock,
  type DoctorClock,
} from './pace';

export interface DoctorOptions {
  /** The API's base URL (or the sandbox's loopback URL). */
  baseUrl: string;
  /** The credential; undefined when none is configured (reported as missing). */
  apiKey: string | undefined;
  mode: 'sandbox' | 'upstream';
  /** The operation table to walk (the contract's by default); only its GET rows are ever called. */
  operations?: readonly OperationDef[];
  /** Per request. */
  timeoutMs?: number;
  /**
   * Least time between two requests (default 200 ms). Whatever it is, no more than 5 requests go within any
   * second, on every upstream (`pace.ts`).
   */
  minIntervalMs?: number;
  /** The clock the pace and the 429 waits keep (tests run a long walk on a virtual one). */
  clock?: DoctorClock;
  /** The screens to mark (the console's by default). */
  screens?: readonly ScreenNeed[];
  /** Longest single wait for a 429's `Retry-After`; a longer one ends that operation as failed. */
  maxRetryWaitMs?: number;
  /** How many times one operation waits out a 429 before it counts as failed. */
  maxRetries?: number;
  /** Further secrets to keep out of the report (the credential always is). */
  secrets?: ReadonlyArray<string | undefined>;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number; current: string | null }) => void;
}

const DEFAULTS = { timeoutMs: 15_000, maxRetryWaitMs: 120_000, maxRetries: 4 };
/** Certificates closer than this to their end get a warning. */
const CERT_WARN_DAYS = 14;
/** Path parameters whose ids the API writes under another field name. */
const PARAM_SYNONYMS: Record<string, string[]> = { agent_id: ['session_id'], session_id: ['agent_id'] };

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A problem body's detail (or title), if the answer is one. */
function problemDetail(text: string): { detail: string | null; body: Record<string, unknown> | null } {
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const b = body as Record<string, unknown>;
      const detail = typeof b.detail === 'string' ? b.detail : typeof b.title === 'string' ? b.title : null;
      return { detail, body: b };
    }
  } catch {
    // not JSON
  }
  return { detail: null, body: null };
}

/** Why a 401: from the problem body's `reason` and detail, in the words of the sandbox and of real services. */
export function explainUnauthorized(
  text: string,
  credentialForm: 'cog' | 'other' | 'missing',
): { reason: UnauthorizedReason; explanation: string; detail: string | null } {
  const { detail, body } = problemDetail(text);
  const d = (detail ?? '').toLowerCase();
  const reasonField = typeof body?.reason === 'string' ? body.reason.toLowerCase() : '';
  const r = (reason: UnauthorizedReason, explanation: string) => ({ reason, explanation, detail });
  if (credentialForm === 'missing' || d.startsWith('missing') || reasonField === 'missing') {
    return r('missing', 'No credential was sent: set AGENT_PLATFORM_API_KEY to a service-user credential (cog_…).');
  }
  if (reasonField === 'ip_not_allowed' || /ip access list|ip address|not allowed from|ip allow/.test(d)) {
    return r(
      'ip_not_allowed',
      "The enterprise's IP access list refuses this machine's address: add it to the list (Enterprise settings → IP access list) or run the console from an allowed address.",
    );
  }
  if (d.startsWith('malformed')) return r('malformed', 'The Authorization header was malformed.');
  if (credentialForm === 'other' || d.includes('start with "cog_"') || d.includes('not a service-user credential')) {
    return r(
      'not_cog',
      'The credential is not a service-user credential: those start with cog_. Legacy v1/v2 keys do not work with v3.',
    );
  }
  if (d.startsWith('expired') || reasonField === 'expired' || (/\bexpired?\b/.test(d) && !d.includes('or expired'))) {
    return r('expired', 'The credential has expired: create a new one for the service user and set it.');
  }
  if (
    d.startsWith('revoked') ||
    reasonField === 'revoked' ||
    (/revoked|deleted/.test(d) && !d.includes('revoked or'))
  ) {
    return r('revoked', 'The credential was revoked (its service user was deleted or the credential withdrawn).');
  }
  if (/unknown|invalid|not recogni[sz]ed|revoked or expired/.test(d) || reasonField === 'unknown') {
    return r(
      'unknown',
      'The upstream does not know this credential (mistyped, revoked or expired): check AGENT_PLATFORM_API_KEY and AGENT_PLATFORM_BASE_URL (a credential works only on its own service).',
    );
  }
  return r(
    'other',
    'The upstream refused the credential (401) without saying why: check AGENT_PLATFORM_API_KEY, its expiry, and the IP access list.',
  );
}

interface Harvested {
  key: string;
  value: string;
  /** 0: a field of the answer or of a list item; higher: nested deeper. */
  rank: number;
  seq: number;
  /** The other ids of the object it was found in (to keep an org's session with that org). */
  context: Record<string, string>;
}

/** Ids seen in earlier answers, to fill the path parameters of later operations. */
class IdPool {
  private entries: Harvested[] = [];
  private seq = 0;

  harvest(body: unknown): void {
    const visit = (node: unknown, rank: number, depth: number) => {
      if (depth > 5 || node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        node.slice(0, 5).forEach((n) => visit(n, rank, depth + 1));
        return;
      }
      const obj = node as Record<string, unknown>;
      const context: Record<string, string> = {};
      for (const [k, v] of Object.entries(obj)) {
        if (typeof v === 'string' && v !== '' && (k.endsWith('_id') || k === 'id')) context[k] = v;
      }
      for (const [k, v] of Object.entries(context)) {
        this.entries.push({ key: k, value: v, rank, seq: this.seq++, context });
      }
      for (const [k, v] of Object.entries(obj)) {
        if (v && typeof v === 'object') visit(v, k === 'items' && rank === 0 ? 0 : rank + 1, depth + 1);
      }
    };
    visit(body, 0, 0);
  }

  /**
   * Candidates for parameter `name`, best first: consistent with the ids already chosen, then the field of that
   * very name before a synonym or a `…_name` field, then the least nested, then the earliest seen.
   */
  candidates(name: string, chosen: Record<string, string>): string[] {
    const quality = (key: string) =>
      key === name ? 0 : (PARAM_SYNONYMS[name] ?? []).includes(key) ? 1 : key.endsWith(`_${name}`) ? 2 : -1;
    const consistent = (e: Harvested) =>
      Object.entries(chosen).every(([k, v]) => e.context[k] === undefined || e.context[k] === v);
    const scored = this.entries
      .map((e) => ({ e, q: quality(e.key) }))
      .filter((x) => x.q >= 0)
      .sort(
        (a, b) =>
          Number(consistent(b.e)) - Number(consistent(a.e)) || a.q - b.q || a.e.rank - b.e.rank || a.e.seq - b.e.seq,
      );
    return [...new Set(scored.map((x) => x.e.value))];
  }
}

/** The id of a list item for parameter `name`: the field of that name, a synonym, `…_name`, or `id`. */
function itemId(item: unknown, name: string, skip: readonly string[]): string | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string) : undefined);
  return (
    str(name) ??
    (PARAM_SYNONYMS[name] ?? []).map(str).find(Boolean) ??
    Object.keys(o)
      .filter((k) => k.endsWith(`_${name}`))
      .map(str)
      .find(Boolean) ??
    str('id') ??
    // Last resort: the item's own id is, by habit, its first `…_id` field (`scheduled_session_id`).
    Object.keys(o)
      .filter((k) => k.endsWith('_id') && !skip.includes(k))
      .map(str)
      .find(Boolean)
  );
}

/**
 * A value for a required query parameter that no answer carried: a time range's bounds (the last 7 days, in
 * Unix seconds), or nothing.
 */
function guessQueryValue(name: string, nowS: number): string | undefined {
  if (/(^|_)(after|from|since|start)$/.test(name)) return String(nowS - 7 * 86_400);
  if (/(^|_)(before|to|until|end)$/.test(name)) return String(nowS);
  return undefined;
}

const pathParamNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

function verdict(level: DoctorVerdict['level'], line: string): DoctorVerdict {
  return { level, line };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

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

interface Answer {
  result: GetResult | null;
  error: DoctorNetworkError | null;
  /** A 429 that outlasted the waits. */
  rateLimited: string | null;
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorReport> {
  const startedMs = Date.now();
  const redactor: Redactor = createRedactor([opts.apiKey, ...(opts.secrets ?? [])]);
  const clean = (s: string | null | undefined) => (s == null ? null : clip(redactor.redact(s)));
  const timeoutMs = opts.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxRetryWaitMs = opts.maxRetryWaitMs ?? DEFAULTS.maxRetryWaitMs;
  const maxRetries = opts.maxRetries ?? DEFAULTS.maxRetries;
  const table = (opts.operations ?? operationList).filter((op) => op.method === 'GET');
  const credentialForm: 'cog' | 'other' | 'missing' = !opts.apiKey
    ? 'missing'
    : /^cog_[^\s]+$/.test(opts.apiKey)
      ? 'cog'
      : 'other';

  const items = new Map<string, DoctorOperationResult>();
  const issues: ConformanceIssue[] = [];
  const unknownFields: Array<{ operation_id: string; where: string }> = [];
  let unknownCount = 0;
  let checked = 0;
  let conforming = 0;
  let done = 0;
  const progress = (current: string | null) => opts.onProgress?.({ done, total: table.length, current });

  const clock = opts.clock ?? realClock;
  const minIntervalMs = Math.max(0, opts.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS);
  // One pacer for every request of the run: the reach check, the walk, every alternate path and every retry.
  const pacer = new Pacer(clock, minIntervalMs);
  const rate = { requests: 0, retryAfterSeen: false, responses429: 0, waitedMs: 0 };
  const screens = opts.screens ?? CONSOLE_SCREENS;
  /** The fields the screens rely on, by operation. */
  const fieldNeeds = new Map<string, Array<{ screen: ScreenNeed; field: ScreenField }>>();
  for (const screen of screens) {
    for (const f of SCREEN_FIELDS[screen.to] ?? []) {
      const list = fieldNeeds.get(f.operation) ?? [];
      list.push({ screen, field: f });
      fieldNeeds.set(f.operation, list);
    }
  }
  const notPublished: NotPublishedField[] = [];
  const pathFindings: DoctorPathFinding[] = [];

  // --- 1. Reach -------------------------------------------------------------------------------------------
  const reach: DoctorReport['reach'] = {
    verdict: verdict('fail', ''),
    scheme: null,
    host: null,
    loopback: false,
    addresses: [],
    rtt_ms: null,
    status: null,
    tls: null,
    problem: null,
  };
  let base: URL | null;
  try {
    base = new URL(opts.baseUrl);
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('scheme');
  } catch {
    base = null;
    reach.problem = 'the base URL is not an http(s) URL';
  }
  if (base) {
    const hostname = base.hostname.replace(/^\[|\]$/g, '');
    reach.scheme = base.protocol.replace(':', '');
    reach.host = base.host;
    reach.loopback = isLoopbackName(hostname);
    if (base.protocol === 'http:' && !reach.loopback) {
      reach.problem = `plain HTTP to ${base.host}: the credential would cross the network in clear, so the doctor sends nothing; use https:// (plain HTTP is accepted on loopback only)`;
    } else {
      if (isIP(hostname)) reach.addresses = [hostname];
      else {
        try {
          reach.addresses = (await lookup(hostname, { all: true })).map((a) => a.address).slice(0, 8);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? 'ENOTFOUND';
          reach.problem =
            code === 'ENOTFOUND'
              ? `the host name ${hostname} does not resolve (DNS found no address)`
              : `the host name ${hostname} could not be resolved (${code})`;
        }
      }
      if (!reach.problem) {
        // Without the credential, on a fresh connection: the time to connect (and shake hands) and answer.
        const probeUrl = new URL(`${opts.baseUrl.replace(/\/+$/, '')}/v3/self`);
        try {
          await pacer.next(opts.signal);
          rate.requests++;
          const res = await doctorGet(probeUrl, { timeoutMs, agent: false, signal: opts.signal });
          reach.rtt_ms = res.ms;
          reach.status = res.status;
          reach.tls = res.tls;
          if (res.status === 429) {
            rate.responses429++;
            if (res.headers['retry-after']) rate.retryAfterSeen = true;
          }
        } catch (err) {
          reach.problem = err instanceof DoctorNetworkError ? err.plain : String(err);
        }
      }
    }
  }
  if (reach.problem) {
    reach.verdict = verdict('fail', `Cannot reach ${reach.host ?? opts.baseUrl}: ${reach.problem}`);
  } else {
    const tls = reach.tls;
    const daysLeft = tls?.valid_to ? Math.floor((tls.valid_to * 1000 - Date.now()) / 86_400_000) : null;
    const tlsText = tls
      ? `, ${tls.protocol ?? 'TLS'}${tls.subject ? `, certificate for ${tls.subject}` : ''}${daysLeft !== null ? ` valid ${plural(daysLeft, 'more day')}` : ''}`
      : reach.loopback
        ? ', plain HTTP on loopback'
        : '';
    const line = `Reached ${base!.origin} in ${Math.round(reach.rtt_ms ?? 0)} ms (HTTP ${reach.status}${tlsText})`;
    reach.verdict =
      daysLeft !== null && daysLeft < CERT_WARN_DAYS
        ? verdict('warn', `${line}; the TLS certificate ends in ${plural(daysLeft, 'day')}`)
        : verdict('ok', line);
  }

  // --- The paced, 429-aware GET of the walk ---------------------------------------------------------------
  const agent =
    base?.protocol === 'https:'
      ? new https.Agent({ keepAlive: true, maxSockets: 1 })
      : new http.Agent({ keepAlive: true, maxSockets: 1 });
  async function send(url: URL): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      await pacer.next(opts.signal);
      rate.requests++;
      let res: GetResult;
      try {
        res = await doctorGet(url, { apiKey: opts.apiKey, timeoutMs, agent, signal: opts.signal });
      } catch (err) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        return { result: null, error: err as DoctorNetworkError, rateLimited: null };
      }
      if (res.status !== 429) return { result: res, error: null, rateLimited: null };
      rate.responses429++;
      const seconds = retryAfterSeconds(res.headers['retry-after']);
      if (seconds !== undefined) rate.retryAfterSeen = true;
      const waitMs = (seconds ?? 2 ** attempt) * 1000;
      if (attempt >= maxRetries) {
        return {
          result: res,
          error: null,
          rateLimited: `still rate limited (429) after ${plural(maxRetries, 'wait')}`,
        };
      }
      if (waitMs > maxRetryWaitMs) {
        return {
          result: res,
          error: null,
          rateLimited: `rate limited (429): Retry-After ${seconds} s is longer than the doctor waits (${Math.round(maxRetryWaitMs / 1000)} s)`,
        };
      }
      rate.waitedMs += waitMs;
      // The wait is longer than the pace's gap: the retry goes as soon as it ends (if the window allows).
      await clock.sleep(waitMs, opts.signal);
    }
  }

  const urlFor = (path: string, query: Record<string, string>) => {
    const u = new URL(opts.baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    return u;
  };

  const pool = new IdPool();
  /** The first item of each list answered, and the ids it was asked with. */
  const firstItems = new Map<string, { params: Record<string, string>; item: unknown }>();
  let unauthorized: DoctorReport['identity']['unauthorized'] = null;

  const record = (op: OperationDef, r: Partial<DoctorOperationResult>) => {
    items.set(op.id, {
      id: op.id,
      method: op.method,
      path: op.path,
      request: null,
      permission: op.permission,
      scope: op.scope,
      outcome: 'skipped',
      status: null,
      ms: null,
      detail: null,
      refused_permission: null,
      defects: null,
      unknown_fields: null,
      served_path: null,
      ...r,
    });
    done++;
    progress(null);
  };

  /** Which path each operation with alternates was answered at, learned during this run only. */
  const pathMemory = memoryPathMemory();

  /**
   * Sends `op` at the first of its paths the upstream serves (its own, then its alternates: a 404 or 405 on a path
   * moves on to the next), and notes which one answered.
   */
  async function sendAtServedPath(op: OperationDef, params: Record<string, string>, query: Record<string, string>) {
    const choice = await callAtServedPath(op, pathMemory, async (template) => {
      const path = buildPath(template, params);
      const url = urlFor(path, query);
      const answer = await send(url);
      // No HTTP answer (status 0) is not "not served": it ends the search there.
      return { status: answer.result?.status ?? 0, answer, request: `${path}${url.search}` };
    });
    const definite = choice.result.status !== 0 && choice.result.status < 500 && choice.result.status !== 429;
    const notServed = choice.tried.every((t) => t.status === 404 || t.status === 405);
    const servedPath = definite && !notServed ? choice.path : null;
    if (op.alternates?.length) pathFindings.push(pathFinding(op, servedPath, choice.tried));
    return { ...choice.result, servedPath };
  }

  /** Calls one operation and records what it answered. */
  async function call(op: OperationDef, params: Record<string, string>, query: Record<string, string>) {
    progress(op.id);
    const { answer, request, servedPath } = await sendAtServedPath(op, params, query);
    if (answer.error || !answer.result) {
      record(op, { request, outcome: 'failed', detail: clean(answer.error?.plain ?? 'no answer') });
      return undefined;
    }
    const res = answer.result;
    const base = { request, status: res.status, ms: res.ms, served_path: servedPath };
    if (answer.rateLimited) {
      record(op, { ...base, outcome: 'failed', detail: answer.rateLimited });
      return undefined;
    }
    const { detail, body } = res.status >= 400 ? problemDetail(res.text) : { detail: null, body: null };
    if (res.status === 401) {
      unauthorized ??= explainUnauthorized(res.text, credentialForm);
      record(op, { ...base, outcome: 'failed', detail: clean(`401: ${detail ?? 'credential refused'}`) });
      return undefined;
    }
    if (res.status === 403) {
      const named = typeof body?.permission === 'string' ? body.permission : null;
      const inDetail = (detail ?? '').match(/\b(View|Manage|Use|Index)[A-Z]\w+/g)?.find((w) => isPermission(w));
      const permission = named ?? inDetail ?? (op.permission === 'AnyCredential' ? null : op.permission);
      record(op, {
        ...base,
        outcome: 'refused',
        refused_permission: permission,
        detail: clean(detail ?? `refused: needs ${permission ?? 'a permission the upstream did not name'}`),
      });
      return undefined;
    }
    if (res.status === 404 || res.status === 405) {
      record(op, {
        ...base,
        outcome: 'not_present',
        detail: clean(detail ?? `${res.status}: not on this upstream`),
      });
      return undefined;
    }
    if (res.status >= 300 && res.status < 400) {
      record(op, {
        ...base,
        outcome: 'failed',
        detail: `${res.status}: a redirect${res.headers.location ? ` to ${clean(res.headers.location)}` : ''}; the doctor does not follow redirects`,
      });
      return undefined;
    }
    if (res.status >= 400) {
      record(op, { ...base, outcome: 'failed', detail: clean(`${res.status}: ${detail ?? 'the upstream failed'}`) });
      return undefined;
    }
    // Allowed: check what it answered.
    checked++;
    let json: unknown;
    let defects = 0;
    let unknown = 0;
    if (res.status === 204 || res.text.trim() === '') {
      json = undefined;
      if (op.response) {
        issues.push({ operation_id: op.id, where: '(body)', kind: 'missing_field', message: 'an empty answer' });
        defects = 1;
      }
    } else {
      try {
        json = JSON.parse(res.text);
      } catch {
        json = undefined;
        issues.push({
          operation_id: op.id,
          where: '(body)',
          kind: 'not_json',
          message: `the answer is not JSON (${clean(res.headers['content-type'] ?? 'no content type')})`,
        });
        defects = 1;
      }
      if (json !== undefined) {
        const first = query.first !== undefined ? Number(query.first) : undefined;
        const check = checkAnswer(op, json, first);
        defects = check.issues.length;
        unknown = check.unknown.length;
        for (const i of check.issues) issues.push({ ...i, message: clean(i.message)! });
        unknownCount += unknown;
        for (const w of check.unknown)
          if (unknownFields.length < 200) unknownFields.push({ operation_id: op.id, where: w });
        for (const i of missingScreenFields(op, json)) {
          issues.push(i);
          defects++;
        }
        pool.harvest(json);
        const list = (json as { items?: unknown })?.items;
        if (op.paginated && Array.isArray(list) && list.length > 0) firstItems.set(op.id, { params, item: list[0] });
      }
    }
    if (defects === 0) conforming++;
    record(op, { ...base, outcome: 'allowed', defects, unknown_fields: unknown });
    return json;
  }

  /**
   * The fields the screens rely on that this answer lacks (in it, or in each item of a list): one issue per
   * screen, naming it. Absent only: a null is the upstream saying "none", which the screen can show.
   */
  function missingScreenFields(op: OperationDef, json: unknown): ConformanceIssue[] {
    const needs = fieldNeeds.get(op.id);
    if (!needs) return [];
    const list = (json as { items?: unknown } | null)?.items;
    const targets: Array<{ at: string; value: unknown }> =
      op.paginated && Array.isArray(list)
        ? list.map((value, i) => ({ at: `items[${i}].`, value }))
        : [{ at: '', value: json }];
    const out: ConformanceIssue[] = [];
    for (const { screen, field } of needs) {
      const lacking = targets.find(
        (t) =>
          t.value !== null &&
          typeof t.value === 'object' &&
          !Array.isArray(t.value) &&
          !Object.prototype.hasOwnProperty.call(t.value, field.field),
      );
      if (!lacking) continue;
      if (!notPublished.some((n) => n.operation_id === op.id && n.field === field.field)) {
        notPublished.push({ operation_id: op.id, field: field.field });
      }
      out.push({
        operation_id: op.id,
        where: `${lacking.at}${field.field}`,
        kind: 'missing_field',
        message: `${screenName(screen)}: ${field.label} not published; the screen says so`,
      });
    }
    return out;
  }

  // --- 2. Identity, 3. operations -------------------------------------------------------------------------
  const identity: DoctorReport['identity'] = {
    verdict: verdict('skipped', ''),
    credential_form: credentialForm,
    self: 'not_tried',
    principal: null,
    unauthorized: null,
  };
  const skipAll = (why: string) => {
    for (const op of table) if (!items.has(op.id)) record(op, { outcome: 'skipped', detail: why });
  };

  const reachable = !reach.problem;
  if (!reachable) {
    skipAll('not tried: the upstream cannot be reached');
  } else if (credentialForm === 'missing') {
    unauthorized = explainUnauthorized('', 'missing');
    skipAll('not tried: no credential');
  } else {
    const selfOp = table.find((op) => op.path === '/v3/self' && !op.params);
    if (selfOp) {
      const json = await call(selfOp, {}, {});
      const r = items.get(selfOp.id)!;
      identity.self =
        r.outcome === 'allowed'
          ? 'present'
          : r.outcome === 'not_present'
            ? 'not_present'
            : r.status === 401
              ? 'refused'
              : 'failed';
      if (json && typeof json === 'object') {
        const s = json as Record<string, unknown>;
        const str = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : null);
        identity.principal = {
          principal_type: str('principal_type'),
          service_user_id: str('service_user_id'),
          service_user_name: str('service_user_name'),
          org_id: str('org_id'),
          permissions: Array.isArray(s.permissions) ? s.permissions.filter((p) => typeof p === 'string') : null,
        };
      }
    }
    if (!unauthorized) {
      await walk();
    }
    if (unauthorized) skipAll('not tried: the credential was refused (401)');
  }
  agent.destroy();

  async function walk() {
    const pending = table.filter((op) => !items.has(op.id));
    const pendingIds = () => new Set(pending.map((p) => p.id));
    /** The list whose items give `name`: its path (or an alternate) is the part of `op`'s before `/{name}`. */
    const parentOf = (op: OperationDef, name: string) => {
      const prefixes = candidatePaths(op)
        .filter((p) => p.includes(`/{${name}}`))
        .map((p) => p.slice(0, p.indexOf(`/{${name}}`)));
      return table.find((p) => p.paginated && p.id !== op.id && candidatePaths(p).some((c) => prefixes.includes(c)));
    };

    /** The ids and query for `op`, or why it must wait or cannot be tried. */
    const fill = (
      op: OperationDef,
      waitForParents: boolean,
    ): { params: Record<string, string>; query: Record<string, string> } | { wait: true } | { missing: string } => {
      const params: Record<string, string> = {};
      const waiting = pendingIds();
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
      const query: Record<string, string> = {};
      if (op.query) {
        const shape = op.query.shape as Record<string, unknown>;
        if ('first' in shape) query.first = '1';
        const parsed = op.query.safeParse(query);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            const key = issue.path[0];
            if (typeof key !== 'string' || query[key] !== undefined) continue;
            const v = pool.candidates(key, params)[0] ?? guessQueryValue(key, Math.floor(Date.now() / 1000));
            if (!v) return { missing: key };
            query[key] = v;
          }
          if (!op.query.safeParse(query).success) return { missing: 'a query value the contract requires' };
        }
      }
      return { params, query };
    };

    let waitForParents = true;
    while (pending.length > 0) {
      let progressed = false;
      for (const op of [...pending]) {
        if (unauthorized) return;
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
        record(op, { outcome: 'skipped', detail: `skipped: no ${name} to try` });
      }
      pending.length = 0;
    }
  }

  // --- Verdicts -------------------------------------------------------------------------------------------
  const list = table.map((op) => items.get(op.id)!).filter(Boolean);
  const counts = { allowed: 0, refused: 0, not_present: 0, failed: 0, skipped: 0 };
  for (const r of list) counts[r.outcome]++;

  identity.unauthorized = unauthorized;
  if (!reachable) identity.verdict = verdict('skipped', 'Not checked: the upstream cannot be reached');
  else if (unauthorized) {
    identity.verdict = verdict(
      'fail',
      `The credential does not work (401, ${unauthorized.reason}): ${unauthorized.explanation}`,
    );
  } else {
    const who = identity.principal
      ? `${identity.principal.principal_type ?? 'principal'} ${identity.principal.service_user_name ? `"${identity.principal.service_user_name}" ` : ''}(${identity.principal.service_user_id ?? 'no id'})${identity.principal.org_id ? ` of ${identity.principal.org_id}` : ', enterprise-wide'}`
      : null;
    const form =
      credentialForm === 'cog' ? 'the credential has the cog_ form' : 'the credential does NOT have the cog_ form';
    if (identity.self === 'present') {
      identity.verdict = verdict(credentialForm === 'cog' ? 'ok' : 'warn', `Signed in as ${who}; ${form}`);
    } else if (counts.allowed > 0) {
      identity.verdict = verdict(
        'warn',
        `GET /v3/self is ${identity.self === 'not_present' ? 'not present on this upstream' : 'not answering'}; the credential works (${plural(counts.allowed, 'operation')} allowed); ${form}`,
      );
    } else {
      identity.verdict = verdict('fail', `No identity and no operation allowed; ${form}`);
    }
  }

  const refusedPermissions = [
    ...new Set(list.filter((r) => r.outcome === 'refused').map((r) => r.refused_permission ?? '?')),
  ];
  let opsVerdict: DoctorVerdict;
  if (!reachable || unauthorized || credentialForm === 'missing') {
    opsVerdict = verdict(
      'skipped',
      `Not checked: ${!reachable ? 'the upstream cannot be reached' : 'the credential was refused'}`,
    );
  } else if (counts.allowed === 0) {
    opsVerdict = verdict('fail', `None of the ${list.length} read operations is allowed`);
  } else if (counts.allowed + counts.skipped === list.length) {
    opsVerdict = verdict(
      'ok',
      counts.skipped === 0
        ? `All ${list.length} read operations allowed`
        : `All ${counts.allowed} read operations tried were allowed; ${counts.skipped} skipped (no id to try)`,
    );
  } else {
    const parts = [`${counts.allowed} of ${list.length} read operations allowed`];
    if (counts.refused) parts.push(`${counts.refused} refused (${refusedPermissions.join(', ')})`);
    if (counts.not_present) parts.push(`${counts.not_present} not present`);
    if (counts.failed) parts.push(`${counts.failed} failed`);
    if (counts.skipped) parts.push(`${counts.skipped} skipped`);
    opsVerdict = verdict(counts.failed > 0 ? 'fail' : 'warn', parts.join('; '));
  }

  const defectiveAnswers = checked - conforming;
  const conformanceVerdict =
    checked === 0
      ? verdict('skipped', 'No answer to check')
      : defectiveAnswers === 0
        ? verdict(
            'ok',
            `All ${plural(checked, 'answer')} conform to the contract${unknownCount ? ` (${plural(unknownCount, 'unknown extra field')} counted, not errors)` : ''}`,
          )
        : verdict(
            'fail',
            `${plural(issues.length, 'defect')} in ${defectiveAnswers} of ${plural(checked, 'answer')}${unknownCount ? `; ${plural(unknownCount, 'unknown extra field')} counted` : ''}`,
          );

  const { maxPerSecond, minGapMs: minGap } = busiestSecond(pacer.sentAt);
  const paceText = `${plural(rate.requests, 'request')}, at most ${maxPerSecond} within any second (the doctor keeps to ${MAX_REQUESTS_PER_SECOND}, at least ${minIntervalMs} ms apart)`;
  const rateVerdict =
    rate.requests === 0
      ? verdict('skipped', 'No request sent')
      : rate.responses429 === 0
        ? verdict('ok', `No 429 seen; ${paceText}`)
        : verdict(
            'warn',
            `${rate.responses429} × 429 (${rate.retryAfterSeen ? 'Retry-After seen' : 'without Retry-After'}), waited ${Math.round(rate.waitedMs / 1000)} s in all; ${paceText}`,
          );

  const credentialWorks = reachable && !unauthorized && credentialForm !== 'missing' && counts.allowed > 0;
  const overall: DoctorVerdict = !reachable
    ? verdict('fail', `The upstream cannot be reached: ${reach.problem}`)
    : credentialForm === 'missing'
      ? verdict('fail', 'No credential is configured (AGENT_PLATFORM_API_KEY)')
      : unauthorized
        ? verdict('fail', `The credential does not work: ${unauthorized.explanation}`)
        : !credentialWorks
          ? verdict('fail', 'The credential is accepted but no read operation is allowed')
          : [opsVerdict, conformanceVerdict].some((v) => v.level === 'fail') ||
              counts.refused > 0 ||
              [reach.verdict, identity.verdict, rateVerdict].some((v) => v.level === 'warn')
            ? verdict(
                'warn',
                `The credential works, with findings: ${
                  [
                    counts.refused ? `${counts.refused} refused` : null,
                    counts.not_present ? `${counts.not_present} not present` : null,
                    counts.failed ? `${counts.failed} failed` : null,
                    defectiveAnswers ? `${plural(defectiveAnswers, 'non-conforming answer')}` : null,
                    rate.responses429 ? `${rate.responses429} × 429` : null,
                  ]
                    .filter(Boolean)
                    .join(', ') || 'see the sections'
                }`,
              )
            : verdict('ok', 'The credential works: every read operation allowed and every answer conforming');

  const report: DoctorReport = {
    version: 1,
    started_at: Math.floor(startedMs / 1000),
    duration_ms: Date.now() - startedMs,
    target: { base_url: opts.baseUrl, mode: opts.mode },
    credential_works: credentialWorks,
    verdict: overall,
    reach,
    identity,
    operations: { verdict: opsVerdict, counts, items: list, paths: pathFindings },
    screens: screenChecks(list, screens, notPublished),
    conformance: {
      verdict: conformanceVerdict,
      checked,
      conforming,
      issues,
      unknown_fields: { count: unknownCount, items: unknownFields },
      not_published: notPublished,
    },
    rate_limit: {
      verdict: rateVerdict,
      requests: rate.requests,
      retry_after_seen: rate.retryAfterSeen,
      responses_429: rate.responses429,
      waited_ms: rate.waitedMs,
      min_interval_ms: Number.isFinite(minGap) ? Math.round(minGap) : 0,
      max_per_second: maxPerSecond,
    },
  };
  progress(null);
  // Last guard: whatever the upstream echoed, the credential leaves in no encoding.
  return redactor.redactValue(JSON.parse(redactor.redact(JSON.stringify(report))) as DoctorReport);
}
