/**
 * Remediating findings, one or a selection: one call each (the API has no bulk form), a few at a time, and what
 * came of each — a new session, "already being remediated" (409, with the existing session), or an error.
 */
import type { CodeScanFinding, RemediateResult } from '@/api/operations/code-scans';
import { isTerminalStatus } from '@/api/operations/sessions';
import { isApiError } from '@/lib/api-error';
import { pool } from '@/api/pool';

export type RemediationOutcome =
  | { finding: CodeScanFinding; kind: 'started'; sessionId: string }
  | { finding: CodeScanFinding; kind: 'already'; sessionId: string | null }
  | { finding: CodeScanFinding; kind: 'error'; error: unknown };

/**
 * Whether a finding's remediation session still works (a status not final, or none seen yet): launching another
 * would only be refused as "already being remediated", so Remediate waits, and says so.
 */
export function remediationRunning(sessionId: string | null | undefined, status: string | null | undefined): boolean {
  return !!sessionId && (!status || !isTerminalStatus(status));
}

/** Calls at the same time: enough to be quick, few enough to stay well under any rate limit. */
const CONCURRENCY = 4;

export async function remediateAll(
  findings: readonly CodeScanFinding[],
  call: (f: CodeScanFinding) => Promise<RemediateResult>,
  onOutcome?: (o: RemediationOutcome) => void,
): Promise<RemediationOutcome[]> {
  return pool(findings, CONCURRENCY, async (finding) => {
    let o: RemediationOutcome;
    try {
      const r = await call(finding);
      o = { finding, kind: 'started', sessionId: r.session_id };
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        const fromProblem = (error.problem as { session_id?: unknown }).session_id;
        o = {
          finding,
          kind: 'already',
          sessionId: typeof fromProblem === 'string' ? fromProblem : (finding.remediation_session_id ?? null),
        };
      } else o = { finding, kind: 'error', error };
    }
    onOutcome?.(o);
    return o;
  });
}
