/**
 * One doctor run's shared state: its options with their defaults, the redactor, the single pacer every request
 * goes through, the results recorded so far and the progress they make. Each section (reach, identity,
 * operations, conformance, rate limiting) reads and adds to it; `engine.ts` runs them in order.
 */
import {
  CONSOLE_SCREENS,
  type DoctorOperationResult,
  type DoctorReport,
  type DoctorVerdict,
  type ScreenNeed,
} from '../../../api/console/doctor';
import { operationList } from '../../../api/operations';
import type { OperationDef } from '../../../api/operations/define';
import { createRedactor, type Redactor } from '../../redact';
import { DEFAULT_MIN_INTERVAL_MS, Pacer, realClock, type DoctorClock } from './pace';

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

export type CredentialForm = 'cog' | 'other' | 'missing';

/** What the requests of a run saw of rate limiting. */
export interface RateSeen {
  requests: number;
  retryAfterSeen: boolean;
  responses429: number;
  waitedMs: number;
}

export interface DoctorRun {
  readonly opts: DoctorOptions;
  readonly startedMs: number;
  readonly redactor: Redactor;
  readonly timeoutMs: number;
  readonly maxRetryWaitMs: number;
  readonly maxRetries: number;
  readonly minIntervalMs: number;
  readonly clock: DoctorClock;
  /** One pacer for every request of the run: the reach check, the walk, every alternate path and every retry. */
  readonly pacer: Pacer;
  readonly rate: RateSeen;
  /** The GET rows of the operation table: the only ones the doctor calls. */
  readonly table: readonly OperationDef[];
  readonly screens: readonly ScreenNeed[];
  readonly credentialForm: CredentialForm;
  /** Each operation's result, once recorded. */
  readonly items: Map<string, DoctorOperationResult>;
  /** The first 401's explanation: once the credential is refused, the walk stops. */
  unauthorized: DoctorReport['identity']['unauthorized'];
  /** A text from the upstream, redacted and clipped. */
  clean(s: string | null | undefined): string | null;
  progress(current: string | null): void;
  /** Records `op`'s result (skipped unless `r` says otherwise) and counts it done. */
  record(op: OperationDef, r: Partial<DoctorOperationResult>): void;
  /** Records every operation not yet recorded as skipped, saying why. */
  skipAll(why: string): void;
}

export const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function verdict(level: DoctorVerdict['level'], line: string): DoctorVerdict {
  return { level, line };
}

function credentialFormOf(apiKey: string | undefined): CredentialForm {
  if (!apiKey) return 'missing';
  return /^cog_[^\s]+$/.test(apiKey) ? 'cog' : 'other';
}

export function startRun(opts: DoctorOptions): DoctorRun {
  const redactor = createRedactor([opts.apiKey, ...(opts.secrets ?? [])]);
  const clock = opts.clock ?? realClock;
  const minIntervalMs = Math.max(0, opts.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS);
  const table = (opts.operations ?? operationList).filter((op) => op.method === 'GET');
  const items = new Map<string, DoctorOperationResult>();
  let done = 0;
  const run: DoctorRun = {
    opts,
    startedMs: Date.now(),
    redactor,
    timeoutMs: opts.timeoutMs ?? DEFAULTS.timeoutMs,
    maxRetryWaitMs: opts.maxRetryWaitMs ?? DEFAULTS.maxRetryWaitMs,
    maxRetries: opts.maxRetries ?? DEFAULTS.maxRetries,
    minIntervalMs,
    clock,
    pacer: new Pacer(clock, minIntervalMs),
    rate: { requests: 0, retryAfterSeen: false, responses429: 0, waitedMs: 0 },
    table,
    screens: opts.screens ?? CONSOLE_SCREENS,
    credentialForm: credentialFormOf(opts.apiKey),
    items,
    unauthorized: null,
    clean: (s) => (s == null ? null : clip(redactor.redact(s))),
    progress: (current) => opts.onProgress?.({ done, total: table.length, current }),
    record(op, r) {
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
      run.progress(null);
    },
    skipAll(why) {
      for (const op of table) if (!items.has(op.id)) run.record(op, { outcome: 'skipped', detail: why });
    },
  };
  return run;
}

/** A problem body's detail (or title), if the answer is one. */
export function problemDetail(text: string): { detail: string | null; body: Record<string, unknown> | null } {
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

/** Calls one operation with its ids and query, records what it answered, and answers its JSON when allowed. */
export type OperationCaller = (
  op: OperationDef,
  params: Record<string, string>,
  query: Record<string, string>,
) => Promise<unknown>;
