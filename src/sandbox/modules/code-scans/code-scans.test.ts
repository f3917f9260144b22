/** Code-scan findings and remediation over HTTP: the seed, filters, remediate → session → 409, 403, 404, 422. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDING_SEVERITIES, FINDING_STATUSES } from '../../../api/operations/code-scans';
import { VIEWER, startTestSandbox } from '../../../test/harness';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;

interface Finding {
  finding_id: string;
  scan_id: string;
  org_id: string;
  title: string;
  severity: string;
  status: string;
  repository: string;
  code_snippets: Array<{ file_path: string; start_line: number; end_line: number; code: string }>;
  remediation_session_id?: string | null;
  remediation_session_status?: string | null;
  remediation_pull_request_url?: string | null;
}

const LIST = '/v3/enterprise/code-scans/findings';
const remediatePath = (f: Pick<Finding, 'org_id' | 'scan_id' | 'finding_id'>) =>
  `/v3/enterprise/organizations/${f.org_id}/code-scans/${f.scan_id}/findings/${f.finding_id}/remediate`;

async function all(query = ''): Promise<Finding[]> {
  const out: Finding[] = [];
  let after: string | null = null;
  do {
    const res: { status: number; body: any } = await sb.api.get(
      `${LIST}?first=200${query}${after ? `&after=${after}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

let findings: Finding[];

beforeAll(async () => {
  // The simulation moves sessions every 50 ms, so a remediation's session can be watched to its end.
  sb = await startTestSandbox({ tickMs: 50 });
  findings = await all();
});
afterAll(() => sb.stop());

describe('seed and filters', () => {
  it('findings of every severity and status, across organizations, repositories and scans, some remediated', () => {
    expect(new Set(findings.map((f) => f.severity))).toEqual(new Set(FINDING_SEVERITIES));
    expect(new Set(findings.map((f) => f.status))).toEqual(new Set(FINDING_STATUSES));
    expect(new Set(findings.map((f) => f.org_id)).size).toBeGreaterThan(1);
    expect(new Set(findings.map((f) => f.repository)).size).toBeGreaterThan(3);
    expect(new Set(findings.map((f) => f.scan_id)).size).toBeGreaterThan(5);
    expect(findings.some((f) => f.remediation_session_id)).toBe(true);
    expect(findings.some((f) => !f.remediation_session_id && f.status === 'open')).toBe(true);
    for (const f of findings) {
      expect(f.code_snippets.length).toBeGreaterThan(0);
      for (const s of f.code_snippets) expect(s.end_line).toBeGreaterThanOrEqual(s.start_line);
    }
  });

  it('most severe first', () => {
    const rank = (s: string) => FINDING_SEVERITIES.indexOf(s as never);
    for (let i = 1; i < findings.length; i++)
      expect(rank(findings[i - 1]!.severity)).toBeLessThanOrEqual(rank(findings[i]!.severity));
  });

  it('severity, status, repository, organization and scan filters', async () => {
    const crit = await all('&severity=critical,high&status=open');
    expect(crit.length).toBeGreaterThan(0);
    expect(crit.every((f) => ['critical', 'high'].includes(f.severity) && f.status === 'open')).toBe(true);
    const repo = findings[0]!.repository;
    const byRepo = await all(`&repository=${encodeURIComponent(repo)}`);
    expect(byRepo.length).toBe(findings.filter((f) => f.repository === repo).length);
    const orgId = findings[0]!.org_id;
    const byOrg = await all(`&org_ids=${orgId}`);
    expect(byOrg.every((f) => f.org_id === orgId)).toBe(true);
    const scan = findings[0]!.scan_id;
    const byScan = await all(`&scan_id=${scan}`);
    expect(byScan.every((f) => f.scan_id === scan)).toBe(true);
  });

  it('an unknown severity answers 422; an unknown scan, finding or organization 404', async () => {
    const bad = await sb.api.get(`${LIST}?severity=catastrophic`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['query', 'severity', 0]);
    expect((await sb.api.get(`${LIST}?status=fixed`)).status).toBe(422);
    expect((await sb.api.get(`${LIST}?scan_id=scan-nope`)).status).toBe(404);
    expect((await sb.api.get(`${LIST}/finding-nope`)).status).toBe(404);
    const f = findings.find((x) => !x.remediation_session_id)!;
    const call = (p: string) => sb.api.call('POST', p);
    expect((await call(remediatePath({ ...f, finding_id: 'finding-nope' }))).status).toBe(404);
    expect((await call(remediatePath({ ...f, scan_id: 'scan-nope' }))).status).toBe(404);
    expect((await call(remediatePath({ ...f, org_id: 'org-nope' }))).status).toBe(404);
    const otherScan = findings.find((x) => x.org_id === f.org_id && x.scan_id !== f.scan_id)!;
    expect((await call(remediatePath({ ...f, scan_id: otherScan.scan_id }))).status).toBe(404);
    // A refused call changed nothing.
    expect((await sb.api.get(`${LIST}/${f.finding_id}`)).body.remediation_session_id ?? null).toBeNull();
  });
});

describe('remediation', () => {
  it('launches a real session, attributed to the caller, then answers 409 on the second call', async () => {
    const f = findings.find((x) => !x.remediation_session_id && x.status === 'open')!;
    const res = await sb.api.call('POST', remediatePath(f));
    expect(res.status).toBe(200);
    expect(res.body.finding_id).toBe(f.finding_id);
    const sessionId = res.body.session_id as string;

    const session = await sb.api.get(`/v3/organizations/${f.org_id}/sessions/${sessionId}`);
    expect(session.status).toBe(200);
    expect(session.body.origin).toBe('code_scan_remediation');
    expect(session.body.service_user_id).toBe('service-user-sandbox-admin');
    expect(session.body.prompt).toContain(f.title);
    expect(session.body.prompt).toContain(f.code_snippets[0]!.file_path);

    const linked = await sb.api.get(`${LIST}/${f.finding_id}`);
    expect(linked.body.remediation_session_id).toBe(sessionId);

    const again = await sb.api.call('POST', remediatePath(f));
    expect(again.status).toBe(409);
    expect(again.body.session_id).toBe(sessionId);
    expect(again.body.detail).toContain('already has a remediation session');

    const audit = await sb.api.get('/v3/enterprise/audit-logs?action=remediate_code_scan_finding&first=1');
    expect(audit.body.items[0].data).toMatchObject({ finding_id: f.finding_id, session_id: sessionId });
  });

  it('the remediation session moves through its statuses and, ending in exit, links its pull request', async () => {
    // Enough findings that at least one run ends in exit (the simulation picks each run's outcome).
    const open = findings.filter((x) => !x.remediation_session_id && x.status === 'open').slice(1, 9);
    const ids = [];
    for (const f of open) {
      const res = await sb.api.call('POST', remediatePath(f));
      expect(res.status).toBe(200);
      ids.push(f.finding_id);
    }
    const deadline = Date.now() + 15_000;
    let done: Finding[] = [];
    while (Date.now() < deadline) {
      const now = await Promise.all(ids.map((id) => sb.api.get(`${LIST}/${id}`).then((r) => r.body as Finding)));
      done = now.filter((f) => ['exit', 'error', 'suspended'].includes(f.remediation_session_status ?? ''));
      if (done.length === ids.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const exited = done.filter((f) => f.remediation_session_status === 'exit');
    expect(exited.length).toBeGreaterThan(0);
    for (const f of exited) expect(f.remediation_pull_request_url).toMatch(/^https:\/\/github\.com\/.+\/pull\/\d+$/);
  });

  it('the viewer gets 403 naming UseAccountCodeScans, and nothing changes', async () => {
    const f = findings.filter((x) => !x.remediation_session_id).at(-1)!;
    const res = await sb.api.call('POST', remediatePath(f), { token: VIEWER });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('UseAccountCodeScans');
    expect((await sb.api.get(`${LIST}/${f.finding_id}`)).body.remediation_session_id ?? null).toBeNull();
  });
});
