/**
 * The doctor's report and the console endpoints that run it (`/console/doctor`): one run checks the configured
 * upstream (or the embedded sandbox) section by section — reach, identity, what the credential may do,
 * conformance of every answer to the contract, rate limiting — and the console keeps the last report so the
 * shell can say when operations were refused. `npm run doctor` prints the same report.
 *
 * Also here, pure and shared by the Doctor screen and the CLI: which screens of the console will work, from
 * the operations the report found allowed.
 */
import { z } from 'zod';
import { UnixSeconds } from '../conventions';
import { defineConsoleOperations } from './define';

export const VERDICT_LEVELS = ['ok', 'warn', 'fail', 'skipped'] as const;
export type VerdictLevel = (typeof VERDICT_LEVELS)[number];

/** A section's one-line verdict. */
export const DoctorVerdict = z.object({ level: z.enum(VERDICT_LEVELS), line: z.string() });
export type DoctorVerdict = z.infer<typeof DoctorVerdict>;

/** What one read operation answered: allowed, refused (403), not present on this upstream (404), failed, skipped. */
export const OPERATION_OUTCOMES = ['allowed', 'refused', 'not_present', 'failed', 'skipped'] as const;
export type OperationOutcome = (typeof OPERATION_OUTCOMES)[number];

export const DoctorOperationResult = z.looseObject({
  id: z.string(),
  method: z.string(),
  /** The contract's path template. */
  path: z.string(),
  /** What was sent: the path with its ids and the query (`first=1`); null when skipped. */
  request: z.string().nullable(),
  permission: z.string(),
  scope: z.string(),
  outcome: z.enum(OPERATION_OUTCOMES),
  status: z.number().int().nullable(),
  ms: z.number().nullable(),
  /** Why it was refused, not present, failed or skipped, in plain words (the upstream's detail, redacted). */
  detail: z.string().nullable(),
  /** On a refusal: the permission the upstream named, or the one the contract names. */
  refused_permission: z.string().nullable(),
  /** Defects found in the answer (see `conformance`); null when there was no answer to check. */
  defects: z.number().int().nullable(),
  unknown_fields: z.number().int().nullable(),
});
export type DoctorOperationResult = z.infer<typeof DoctorOperationResult>;

export const CONFORMANCE_KINDS = [
  'missing_field',
  'wrong_type',
  'unknown_enum',
  'timestamp',
  'paging',
  'not_json',
  'other',
] as const;
export type ConformanceKind = (typeof CONFORMANCE_KINDS)[number];

export const ConformanceIssue = z.object({
  operation_id: z.string(),
  /** Where in the answer: `items[0].status`, `end_cursor`, `(body)`. */
  where: z.string(),
  kind: z.enum(CONFORMANCE_KINDS),
  message: z.string(),
});
export type ConformanceIssue = z.infer<typeof ConformanceIssue>;

export const UNAUTHORIZED_REASONS = [
  'missing',
  'malformed',
  'not_cog',
  'unknown',
  'expired',
  'revoked',
  'ip_not_allowed',
  'other',
] as const;
export type UnauthorizedReason = (typeof UNAUTHORIZED_REASONS)[number];

export const DoctorPrincipal = z.looseObject({
  principal_type: z.string().nullable(),
  service_user_id: z.string().nullable(),
  service_user_name: z.string().nullable(),
  org_id: z.string().nullable(),
  permissions: z.array(z.string()).nullable(),
});

export const DoctorReport = z.looseObject({
  version: z.literal(1),
  started_at: UnixSeconds,
  duration_ms: z.number().int(),
  target: z.object({
    /** The API's base URL, or the sandbox's loopback URL. Never the credential. */
    base_url: z.string(),
    mode: z.enum(['sandbox', 'upstream']),
  }),
  /** False when the credential does not work at all: unreachable, refused (401) or nothing allowed. */
  credential_works: z.boolean(),
  verdict: DoctorVerdict,
  reach: z.object({
    verdict: DoctorVerdict,
    scheme: z.string().nullable(),
    host: z.string().nullable(),
    loopback: z.boolean(),
    addresses: z.array(z.string()),
    rtt_ms: z.number().nullable(),
    status: z.number().int().nullable(),
    tls: z
      .object({
        protocol: z.string().nullable(),
        subject: z.string().nullable(),
        issuer: z.string().nullable(),
        valid_to: UnixSeconds.nullable(),
      })
      .nullable(),
    problem: z.string().nullable(),
  }),
  identity: z.object({
    verdict: DoctorVerdict,
    credential_form: z.enum(['cog', 'other', 'missing']),
    self: z.enum(['present', 'not_present', 'refused', 'failed', 'not_tried']),
    principal: DoctorPrincipal.nullable(),
    unauthorized: z
      .object({ reason: z.enum(UNAUTHORIZED_REASONS), explanation: z.string(), detail: z.string().nullable() })
      .nullable(),
  }),
  operations: z.object({
    verdict: DoctorVerdict,
    counts: z.object({
      allowed: z.number().int(),
      refused: z.number().int(),
      not_present: z.number().int(),
      failed: z.number().int(),
      skipped: z.number().int(),
    }),
    items: z.array(DoctorOperationResult),
  }),
  conformance: z.object({
    verdict: DoctorVerdict,
    checked: z.number().int(),
    conforming: z.number().int(),
    issues: z.array(ConformanceIssue),
    /** Fields the contract does not know: counted, never errors. */
    unknown_fields: z.object({
      count: z.number().int(),
      items: z.array(z.object({ operation_id: z.string(), where: z.string() })),
    }),
  }),
  rate_limit: z.object({
    verdict: DoctorVerdict,
    requests: z.number().int(),
    retry_after_seen: z.boolean(),
    responses_429: z.number().int(),
    waited_ms: z.number().int(),
    /** The least time between two requests the doctor kept. */
    min_interval_ms: z.number().int(),
    /** The most requests sent within any one second. */
    max_per_second: z.number().int(),
  }),
});
export type DoctorReport = z.infer<typeof DoctorReport>;

/** A run in progress. */
export const DoctorProgress = z.object({
  started_at: UnixSeconds,
  done: z.number().int(),
  total: z.number().int(),
  current: z.string().nullable(),
});
export type DoctorProgress = z.infer<typeof DoctorProgress>;

/** What the Doctor screen reads: the run in progress (if any), the last report (if any), and a failed run's error. */
export const DoctorState = z.looseObject({
  running: DoctorProgress.nullable(),
  report: DoctorReport.nullable(),
  /** Why the last run could not finish (the doctor itself failed, not the upstream). */
  error: z.string().nullable(),
});
export type DoctorState = z.infer<typeof DoctorState>;

/** What the shell reads on every screen: small. */
export const DoctorSummary = z.looseObject({
  running: z.boolean(),
  ran_at: UnixSeconds.nullable(),
  credential_works: z.boolean().nullable(),
  verdict: DoctorVerdict.nullable(),
  /** The operations the last report found refused (at most 50), each with the permission named. */
  refused: z.array(z.object({ id: z.string(), permission: z.string().nullable() })),
  refused_count: z.number().int(),
});
export type DoctorSummary = z.infer<typeof DoctorSummary>;

export const consoleDoctorOperations = defineConsoleOperations({
  'console.doctor.get': {
    id: 'console.doctor.get',
    method: 'GET',
    path: '/console/doctor',
    summary: 'The last doctor report and the run in progress, if any',
    response: DoctorState,
  },
  'console.doctor.summary.get': {
    id: 'console.doctor.summary.get',
    method: 'GET',
    path: '/console/doctor/summary',
    summary: 'When the doctor last ran, its verdict and the operations it found refused',
    response: DoctorSummary,
  },
  'console.doctor.runs.create': {
    id: 'console.doctor.runs.create',
    method: 'POST',
    path: '/console/doctor/runs',
    summary: 'Start a doctor run (or join the one in progress); it reads the upstream only, never writes',
    response: DoctorState,
    status: 202,
  },
});

/** A screen of the console as the doctor sees it: its label, route, and the operation its first read calls. */
export interface ScreenNeed {
  section: string;
  label: string;
  to: string;
  permission: string;
  operation: string;
}

export interface ScreenCheck extends ScreenNeed {
  works: 'yes' | 'no' | 'unknown';
  why: string;
}

/** Marks each screen with whether it will work, from what its operation answered in the report. */
export function screenChecks(items: readonly DoctorOperationResult[], screens: readonly ScreenNeed[]): ScreenCheck[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  return screens.map((s) => {
    const r = byId.get(s.operation);
    if (!r) return { ...s, works: 'unknown', why: `${s.operation} was not checked` };
    switch (r.outcome) {
      case 'allowed':
        return { ...s, works: 'yes', why: `${s.operation} allowed` };
      case 'refused':
        return { ...s, works: 'no', why: `refused: needs ${r.refused_permission ?? s.permission}` };
      case 'not_present':
        return { ...s, works: 'no', why: `${s.operation} is not present on this upstream` };
      case 'failed':
        return { ...s, works: 'no', why: `${s.operation} failed${r.detail ? `: ${r.detail}` : ''}` };
      default:
        return { ...s, works: 'unknown', why: r.detail ?? `${s.operation} was not tried` };
    }
  });
}

/** The one-line verdict of the screens section. */
export function screensVerdict(checks: readonly ScreenCheck[]): DoctorVerdict {
  const no = checks.filter((c) => c.works === 'no').length;
  const unknown = checks.filter((c) => c.works === 'unknown').length;
  const yes = checks.length - no - unknown;
  if (checks.length === 0) return { level: 'skipped', line: 'No screens to check' };
  if (no === 0 && unknown === 0) return { level: 'ok', line: `All ${yes} screens will work` };
  if (yes === 0) return { level: 'fail', line: `None of the ${checks.length} screens will work` };
  return {
    level: 'warn',
    line: `${yes} of ${checks.length} screens will work; ${no} will not${unknown ? `, ${unknown} unknown` : ''}`,
  };
}
