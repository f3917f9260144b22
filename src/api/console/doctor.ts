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
import { ENTERPRISE_SCREENS, ORGANIZATION_SCREENS } from './screens';

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
  /** The path template the upstream answered at (the operation's own or an alternate); null when nothing was sent. */
  served_path: z.string().nullable().optional(),
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

/** A field a screen relies on that the upstream's answer did not carry (see `SCREEN_FIELDS`). */
export const NotPublishedField = z.object({ operation_id: z.string(), field: z.string() });
export type NotPublishedField = z.infer<typeof NotPublishedField>;

/** Which of its paths the upstream serves, for an operation with `alternates` (src/api/path-choice.ts). */
export const DoctorPathFinding = z.object({
  operation_id: z.string(),
  /** The contract's path template, tried first. */
  path: z.string(),
  /** The template that answered; null when every path answered 404/405 or nothing definite came. */
  served_path: z.string().nullable(),
  tried: z.array(z.object({ path: z.string(), status: z.number().int() })),
  /** `acuLimits.list: served at /v3/…/devin (first choice …/agent: 404)`. */
  line: z.string(),
});
export type DoctorPathFinding = z.infer<typeof DoctorPathFinding>;

/** A screen of the console as the doctor sees it: its label, route, and the operation its first read calls. */
export const ScreenNeed = z.object({
  section: z.string(),
  label: z.string(),
  to: z.string(),
  permission: z.string(),
  operation: z.string(),
});
export type ScreenNeed = z.infer<typeof ScreenNeed>;

/**
 * Whether a screen will work: `partly` when it works but the upstream does not publish a field it relies on (the
 * screen then says so rather than derive anything from the absence).
 */
export const SCREEN_WORKS = ['yes', 'partly', 'no', 'unknown'] as const;
export const ScreenCheck = ScreenNeed.extend({
  works: z.enum(SCREEN_WORKS),
  why: z.string(),
  /** What the screen relies on and the upstream did not send, in the screen's words. */
  not_published: z.array(z.string()).optional(),
});
export type ScreenCheck = z.infer<typeof ScreenCheck>;

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
    /** For each operation with alternates that was called: the path the upstream serves. */
    paths: z.array(DoctorPathFinding).optional(),
  }),
  /** The console's screens, each marked with whether it will work (`CONSOLE_SCREENS`, `screenChecks`). */
  screens: z.array(ScreenCheck).optional(),
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
    /** Fields a screen relies on that an answer lacked (each also a `missing_field` issue naming the screen). */
    not_published: z.array(NotPublishedField).optional(),
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
    permission: null,
    path: '/console/doctor',
    summary: 'The last doctor report and the run in progress, if any',
    response: DoctorState,
  },
  'console.doctor.summary.get': {
    id: 'console.doctor.summary.get',
    method: 'GET',
    permission: null,
    path: '/console/doctor/summary',
    summary: 'When the doctor last ran, its verdict and the operations it found refused',
    response: DoctorSummary,
  },
  'console.doctor.runs.create': {
    id: 'console.doctor.runs.create',
    method: 'POST',
    permission: null,
    path: '/console/doctor/runs',
    summary: 'Start a doctor run (or join the one in progress); it reads the upstream only, never writes',
    response: DoctorState,
    status: 202,
  },
});

/**
 * The console's screens as the doctor sees them: the navigation's entries (`screens.ts`, which the navigation
 * links) with their section.
 */
export const CONSOLE_SCREENS: readonly ScreenNeed[] = [
  ...ENTERPRISE_SCREENS.map((s) => ({ section: 'Enterprise', ...s })),
  ...ORGANIZATION_SCREENS.map((s) => ({ section: 'Organization', ...s })),
];

/** A field of an operation's answer that a screen relies on though the contract leaves it optional. */
export interface ScreenField {
  operation: string;
  /** The field of the answer, or of each item of a list answer. */
  field: string;
  /** What it is, in the screen's words. */
  label: string;
}

const field = (operation: string, name: string, label: string): ScreenField => ({ operation, field: name, label });

/**
 * The fields each screen (by route) relies on and the vendor's service may leave out (the contract keeps them
 * optional for that reason). When an answer lacks one, the doctor marks it missing, naming the screen; the screen
 * itself says the API does not publish it and derives nothing from its absence.
 */
export const SCREEN_FIELDS: Readonly<Record<string, readonly ScreenField[]>> = {
  '/members': [
    field('members.users.list', 'idp_role_assignments', 'roles held through IdP groups'),
    field('members.users.list', 'created_at', 'when each member joined'),
  ],
  '/roles': [
    field('roles.list', 'permissions', 'permissions'),
    field('roles.list', 'is_built_in', 'built-in or custom'),
  ],
  '/service-users': [
    field('serviceUsers.list', 'expires_at', 'when each credential expires'),
    field('serviceUsers.list', 'created_at', 'when each was created'),
  ],
  '/idp-groups': [
    field('idpGroups.roles.list', 'role_assignments', "each group's enterprise role"),
    field('idpGroups.organization.roles.list', 'role_assignments', "each group's role in an organization"),
    field('idpGroups.list', 'member_count', 'how many members each group has'),
    field('idpGroups.list', 'created_at', 'when each group was registered'),
  ],
  // Roles held through IdP groups come from the IdP users' list when the members' list lacks them: not needed here.
  '/access': [field('roles.list', 'permissions', "the roles' permissions")],
  '/orgs/$orgId/members': [
    field('members.organization.users.list', 'idp_role_assignments', 'roles held through IdP groups'),
    field('members.organization.users.list', 'created_at', 'when each member joined'),
  ],
  '/orgs/$orgId/service-users': [
    field('serviceUsers.organization.list', 'expires_at', 'when each credential expires'),
    field('serviceUsers.organization.list', 'created_at', 'when each was created'),
  ],
};

/** A screen's name in a sentence: "Roles", "Organization members". */
export function screenName(s: Pick<ScreenNeed, 'section' | 'label'>): string {
  return s.section === 'Organization' ? `Organization ${s.label.toLowerCase()}` : s.label;
}

/**
 * Marks each screen with whether it will work, from what its operation answered in the report; `notPublished`
 * (the report's `conformance.not_published`) turns a working screen that lacks a field it relies on into `partly`.
 */
export function screenChecks(
  items: readonly DoctorOperationResult[],
  screens: readonly ScreenNeed[] = CONSOLE_SCREENS,
  notPublished: readonly NotPublishedField[] = [],
): ScreenCheck[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const missing = new Set(notPublished.map((n) => `${n.operation_id} ${n.field}`));
  return screens.map((s): ScreenCheck => {
    const r = byId.get(s.operation);
    if (!r) return { ...s, works: 'unknown', why: `${s.operation} was not checked` };
    switch (r.outcome) {
      case 'allowed': {
        const lacking = (SCREEN_FIELDS[s.to] ?? [])
          .filter((f) => missing.has(`${f.operation} ${f.field}`))
          .map((f) => f.label);
        if (lacking.length === 0) return { ...s, works: 'yes', why: `${s.operation} allowed` };
        return {
          ...s,
          works: 'partly',
          why: `${s.operation} allowed; not published by this upstream: ${lacking.join(', ')} (the screen says so)`,
          not_published: lacking,
        };
      }
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
  const partly = checks.filter((c) => c.works === 'partly');
  const working = checks.length - no - unknown;
  if (checks.length === 0) return { level: 'skipped', line: 'No screens to check' };
  const without = partly.length
    ? `; ${partly.length} without data this upstream does not publish (${partly.map(screenName).join(', ')})`
    : '';
  if (no === 0 && unknown === 0) {
    return { level: partly.length ? 'warn' : 'ok', line: `All ${working} screens will work${without}` };
  }
  if (working === 0) return { level: 'fail', line: `None of the ${checks.length} screens will work` };
  return {
    level: 'warn',
    line: `${working} of ${checks.length} screens will work${without}; ${no} will not${unknown ? `, ${unknown} unknown` : ''}`,
  };
}

/**
 * What the signed-in person's console roles allow (`GET /console/session`'s `permissions`): per API permission,
 * `'*'` (every organization) or the organizations the roles are limited to; a permission absent is refused.
 */
export type RoleScope = Readonly<Partial<Record<string, '*' | readonly string[]>>>;

/** `no`: the console's policy refuses it to this person; `some`: only in some organizations. */
export const ROLE_ALLOWS = ['yes', 'some', 'no'] as const;
export interface RoleCheck {
  allows: (typeof ROLE_ALLOWS)[number];
  /** In words, naming the permission (and, on a refusal, that the console's policy refuses it). */
  why: string;
}

const organizations = (n: number) => (n === 1 ? '1 organization' : `${n} organizations`);

/**
 * Whether the person's console roles allow what needs `permission` at `level`, told apart from what the
 * credential may do: a role limited to organizations never covers an enterprise-wide operation or screen.
 */
export function roleCheck(scope: RoleScope, permission: string, level: 'enterprise' | 'organization'): RoleCheck {
  if (permission === 'AnyCredential') return { allows: 'yes', why: 'Any console role may' };
  const where = scope[permission];
  if (where === '*') return { allows: 'yes', why: `Your console roles allow ${permission}` };
  if (!where || where.length === 0) {
    return {
      allows: 'no',
      why: `Your console roles do not allow ${permission}: the console's policy refuses it, whatever the credential may do`,
    };
  }
  if (level === 'enterprise') {
    return {
      allows: 'no',
      why: `Your console roles allow ${permission} only in ${organizations(where.length)}, not across the enterprise: the console's policy refuses it`,
    };
  }
  return { allows: 'some', why: `Your console roles allow ${permission} only in ${organizations(where.length)}` };
}

/** A screen's level: the organization's screens act in one organization, the others enterprise-wide. */
export const screenLevel = (s: Pick<ScreenNeed, 'section'>) =>
  s.section === 'Organization' ? 'organization' : 'enterprise';

/**
 * An operation's level as the console's policy sees it: one naming an organization in its path (`{org_id}`) acts
 * in that organization, whatever its scope in the contract; the others act enterprise-wide.
 */
export const operationLevel = (i: Pick<DoctorOperationResult, 'path'>) =>
  i.path.includes('{org_id}') ? 'organization' : 'enterprise';

/** The one line the doctor says of the person: how many read operations and screens their roles refuse. */
export function roleVerdict(
  scope: RoleScope,
  items: readonly Pick<DoctorOperationResult, 'permission' | 'path'>[],
  screens: readonly Pick<ScreenNeed, 'permission' | 'section'>[],
): DoctorVerdict {
  const ops = items.filter((i) => roleCheck(scope, i.permission, operationLevel(i)).allows === 'no').length;
  const scr = screens.filter((s) => roleCheck(scope, s.permission, screenLevel(s)).allows === 'no').length;
  if (ops === 0 && scr === 0) {
    return {
      level: 'ok',
      line: 'Your console roles allow every read operation and screen the credential is checked for',
    };
  }
  return {
    level: 'warn',
    line: `Your console roles refuse ${ops} of ${items.length} read operations and ${scr} of ${screens.length} screens: the console's policy refuses them to you, whatever the credential may do`,
  };
}
