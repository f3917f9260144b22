import { describe, expect, it } from 'vitest';
import type { CodeScanFinding } from '@/api/operations/code-scans';
import { ApiError } from '@/lib/api-error';
import { remediateAll, remediationRunning } from './remediate';

const finding = (id: string, session: string | null = null): CodeScanFinding => ({
  finding_id: id,
  scan_id: 'scan-1',
  org_id: 'org-1',
  title: `Finding ${id}`,
  description: '',
  category: 'injection',
  severity: 'high',
  status: 'open',
  repository: 'acme/web-app',
  code_snippets: [],
  remediation_session_id: session,
  created_at: 0,
});

describe('remediateAll', () => {
  it('answers a session per started finding, a 409 as already being remediated, other errors as errors', async () => {
    const findings = [finding('a'), finding('b', 'session-old'), finding('c'), finding('d')];
    const outcomes = await remediateAll(findings, async (f) => {
      if (f.finding_id === 'b') {
        throw new ApiError(409, {
          status: 409,
          title: 'Conflict',
          detail: 'already',
          session_id: 'session-b',
        } as never);
      }
      if (f.finding_id === 'd')
        throw new ApiError(403, {
          status: 403,
          title: 'Forbidden',
          type: 'about:blank',
          detail: 'UseAccountCodeScans',
        });
      return { finding_id: f.finding_id, session_id: `session-${f.finding_id}` };
    });
    expect(outcomes.map((o) => o.kind)).toEqual(['started', 'already', 'started', 'error']);
    expect(outcomes[0]).toMatchObject({ sessionId: 'session-a' });
    expect(outcomes[1]).toMatchObject({ sessionId: 'session-b' });
  });

  it('falls back to the finding’s own session when the 409 does not name one', async () => {
    const [o] = await remediateAll([finding('x', 'session-known')], async () => {
      throw new ApiError(409, { status: 409, title: 'Conflict', type: 'about:blank', detail: 'already' });
    });
    expect(o).toMatchObject({ kind: 'already', sessionId: 'session-known' });
  });
});

describe('remediationRunning', () => {
  it('a session not final (or not seen yet) is running; a final one, or none, is not', () => {
    expect(remediationRunning('session-1', 'running')).toBe(true);
    expect(remediationRunning('session-1', 'new')).toBe(true);
    expect(remediationRunning('session-1', null)).toBe(true);
    expect(remediationRunning('session-1', 'exit')).toBe(false);
    expect(remediationRunning('session-1', 'error')).toBe(false);
    expect(remediationRunning(null, 'running')).toBe(false);
  });
});
