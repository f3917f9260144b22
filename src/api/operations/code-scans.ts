/**
 * Code scans: the findings of the enterprise's code scans and the remediation the spec shows ("Remediate a code
 * scan finding", "States and transitions → Code scan finding remediation").
 *
 * The spec names only the remediation. The findings list (`GET /v3/enterprise/code-scans/findings`) is taken
 * from the vendor's documentation, in the spec's vocabulary; the scans list and the one-finding read are sandbox
 * extensions the console falls back without.
 */
import { z } from 'zod';
import { OrgId, PageQuery, UnixSeconds, queryArray } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';

import { CODE_SCAN_LIMITS, FINDING_SEVERITIES, FINDING_STATUSES } from '../values';

export {
  CODE_SCAN_LIMITS,
  FINDING_SEVERITIES,
  FINDING_STATUSES,
  type FindingSeverity,
  type FindingStatus,
} from '../values';

/** One code snippet of a finding: where it is and what the scanner says about it. */
export const CodeSnippet = z.looseObject({
  file_path: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  code: z.string(),
  commentary: z.string().nullish(),
});
export type CodeSnippet = z.infer<typeof CodeSnippet>;

/**
 * A finding (vendor documentation). `remediation_session_id` is set once a remediation session was launched;
 * `remediation_session_status` and `remediation_pull_request_url` are sandbox extensions (the session's
 * status and the pull request it opened), so the list can show both without reading each session.
 */
export const CodeScanFinding = z.looseObject({
  finding_id: z.string(),
  scan_id: z.string(),
  org_id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  /** One of FINDING_SEVERITIES; others are shown as they are. */
  severity: z.string(),
  /** One of FINDING_STATUSES; others are shown as they are. */
  status: z.string(),
  recommendation: z.string().nullish(),
  repository: z.string(),
  code_snippets: z.array(CodeSnippet).default([]),
  remediation_session_id: z.string().nullish(),
  remediation_session_status: z.string().nullish(),
  remediation_pull_request_url: z.string().nullish(),
  created_at: UnixSeconds,
  updated_at: UnixSeconds.nullish(),
});
export type CodeScanFinding = z.infer<typeof CodeScanFinding>;

/** A scan (sandbox extension). */
export const CodeScan = z.looseObject({
  scan_id: z.string(),
  org_id: z.string(),
  repository: z.string(),
  status: z.string(),
  created_at: UnixSeconds,
  completed_at: UnixSeconds.nullish(),
  findings_count: z.number().int().nullish(),
});
export type CodeScan = z.infer<typeof CodeScan>;

export const RemediateResult = z.looseObject({
  finding_id: z.string(),
  session_id: z.string(),
});
export type RemediateResult = z.infer<typeof RemediateResult>;

const Id = (name: string) =>
  z
    .string()
    .min(1, `${name} must not be empty`)
    .max(CODE_SCAN_LIMITS.id, `${name} is at most ${CODE_SCAN_LIMITS.id} characters`);
const listOf = <T extends z.ZodType>(name: string, item: T) =>
  queryArray(item, { count: CODE_SCAN_LIMITS.filterValues, what: `${name} values per filter` });

/** Findings filters (vendor documentation). Array filters accept repeated keys and comma-joined values. */
export const FindingsQuery = z.object({
  ...PageQuery.shape,
  org_ids: listOf('org_ids', OrgId.max(CODE_SCAN_LIMITS.id)),
  /** Only this scan's findings (404 when the scan does not exist). */
  scan_id: Id('scan_id').optional(),
  /** `owner/name`, exact. */
  repository: z
    .string()
    .min(1, 'repository must not be empty')
    .max(CODE_SCAN_LIMITS.repository, `repository is at most ${CODE_SCAN_LIMITS.repository} characters`)
    .optional(),
  severity: listOf(
    'severity',
    z.enum(FINDING_SEVERITIES, { message: `severity values are ${FINDING_SEVERITIES.join(', ')}` }),
  ),
  status: listOf('status', z.enum(FINDING_STATUSES, { message: `status values are ${FINDING_STATUSES.join(', ')}` })),
});
export type FindingsQuery = z.input<typeof FindingsQuery>;

export const ScansQuery = z.object({
  ...PageQuery.shape,
  org_ids: listOf('org_ids', OrgId.max(CODE_SCAN_LIMITS.id)),
});

export const codeScanOperations = defineOperations({
  'codeScans.findings.list': {
    id: 'codeScans.findings.list',
    method: 'GET',
    path: '/v3/enterprise/code-scans/findings',
    permission: 'ViewAccountCodeScans',
    scope: 'enterprise',
    summary: 'Code-scan findings across the enterprise, most severe and newest first, with filters',
    query: FindingsQuery,
    response: pageOf(CodeScanFinding),
    paginated: true,
    note: "Taken from the vendor's documentation (the spec names only the remediation). Permission not shown; ViewAccountCodeScans chosen. 422 for an unknown severity or status; 404 for an unknown scan_id. remediation_session_status and remediation_pull_request_url are sandbox extensions.",
  },
  'codeScans.findings.get': {
    id: 'codeScans.findings.get',
    method: 'GET',
    path: '/v3/enterprise/code-scans/findings/{finding_id}',
    permission: 'ViewAccountCodeScans',
    scope: 'enterprise',
    summary: 'One finding with its snippets and remediation',
    params: z.object({ finding_id: Id('finding_id') }),
    response: CodeScanFinding,
    extension: true,
    note: 'Sandbox extension; the console falls back to the finding as the list gave it.',
  },
  'codeScans.list': {
    id: 'codeScans.list',
    method: 'GET',
    path: '/v3/enterprise/code-scans',
    permission: 'ViewAccountCodeScans',
    scope: 'enterprise',
    summary: "The enterprise's code scans, newest first",
    query: ScansQuery,
    response: pageOf(CodeScan),
    paginated: true,
    extension: true,
    note: 'Sandbox extension (for the repository filter); the console falls back to the repositories of the findings it has loaded.',
  },
  'codeScans.findings.remediate': {
    id: 'codeScans.findings.remediate',
    method: 'POST',
    path: '/v3/enterprise/organizations/{org_id}/code-scans/{scan_id}/findings/{finding_id}/remediate',
    permission: 'UseAccountCodeScans',
    scope: 'enterprise',
    summary: 'Launch a remediation session for a finding, attributed to the caller; 409 when it already has one',
    params: z.object({ org_id: OrgId, scan_id: Id('scan_id'), finding_id: Id('finding_id') }),
    response: RemediateResult,
    note: 'Spec. No body. The 409 problem carries session_id, the existing remediation session (sandbox extension member).',
  },
});
