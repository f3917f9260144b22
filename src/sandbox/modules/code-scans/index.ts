/**
 * Code scans in the sandbox: scans of each organization's repositories over three months, their findings in
 * every severity and status (some already remediated), the findings list as the vendor documents it, and the
 * remediation the spec shows.
 *
 * Remediating a finding starts a real session through `createSession` in the finding's organization (origin
 * `code_scan_remediation`, tags `remediation` and `code-scan` where the organization's tag rules allow them,
 * the prompt built from the finding), which the sessions simulation moves along like any other and which opens
 * a pull request when it ends in `exit`. The finding links to the session, and through it to the pull request.
 * A finding that has a remediation session answers 409. Seeds after the sessions module.
 */
import type { CodeScan, CodeScanFinding, CodeSnippet, RemediateResult } from '../../../api/operations/code-scans';
import type { Db } from '../../../node/db';
import { HttpProblem, notFound } from '../../../node/problem-writer';
import type { Principal, SandboxContext, SandboxModule, SeedContext } from '../../context';
import { paginate } from '../../cursor';
import type { Rng } from '../../random';
import { allowedTagsOf } from '../org-tags';
import { createSession } from '../sessions/create';
import { AGENT_START } from '../sessions/seed-data';
import { advanceDue } from '../sessions/simulation';
import { FINDING_TEMPLATES, SEVERITY_RANK, type FindingTemplate } from './seed-data';

/** The origin and tags of every remediation session. */
export const REMEDIATION_ORIGIN = 'code_scan_remediation';
export const REMEDIATION_TAGS = ['remediation', 'code-scan'] as const;

interface FindingRow extends Record<string, unknown> {
  finding_id: string;
  scan_id: string;
  org_id: string;
  repository: string;
  title: string;
  description: string;
  category: string;
  severity: string;
  severity_rank: number;
  status: string;
  recommendation: string | null;
  snippets: string;
  remediation_session_id: string | null;
  remediated_by: string | null;
  created_at: number;
  updated_at: number;
  /** From the joined session. */
  session_status?: string | null;
  session_prs?: string | null;
}

interface ScanRow extends Record<string, unknown> {
  scan_id: string;
  org_id: string;
  repository: string;
  status: string;
  created_at: number;
  completed_at: number | null;
  findings_count: number;
}

const FINDING_SELECT = `SELECT f.*, s.status AS session_status, s.pull_requests AS session_prs
  FROM code_scan_findings f LEFT JOIN sessions s ON s.session_id = f.remediation_session_id`;

function toFinding(r: FindingRow): CodeScanFinding {
  let prs: Array<{ pr_url?: string }> = [];
  try {
    prs = r.session_prs ? (JSON.parse(r.session_prs) as typeof prs) : [];
  } catch {
    prs = [];
  }
  return {
    finding_id: r.finding_id,
    scan_id: r.scan_id,
    org_id: r.org_id,
    title: r.title,
    description: r.description,
    category: r.category,
    severity: r.severity,
    status: r.status,
    recommendation: r.recommendation,
    repository: r.repository,
    code_snippets: JSON.parse(r.snippets) as CodeSnippet[],
    remediation_session_id: r.remediation_session_id,
    remediation_session_status: r.remediation_session_id ? (r.session_status ?? null) : null,
    remediation_pull_request_url: prs[0]?.pr_url ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const toScan = (r: ScanRow): CodeScan => ({
  scan_id: r.scan_id,
  org_id: r.org_id,
  repository: r.repository,
  status: r.status,
  created_at: r.created_at,
  completed_at: r.completed_at,
  findings_count: r.findings_count,
});

/** The remediation prompt: what was found, where, and what to do. */
export function remediationPrompt(f: CodeScanFinding): string {
  const where = f.code_snippets
    .map(
      (s) =>
        `- ${s.file_path}, lines ${s.start_line}–${s.end_line}${s.commentary ? `: ${s.commentary}` : ''}\n\n\`\`\`\n${s.code}\n\`\`\``,
    )
    .join('\n');
  return [
    `Remediate the ${f.severity} code-scan finding "${f.title}" (${f.category}) in ${f.repository}.`,
    '',
    f.description,
    '',
    'Where:',
    where,
    '',
    `Recommendation: ${f.recommendation ?? 'fix the issue in the way the codebase does elsewhere.'}`,
    '',
    `Analyze the code, implement a fix with tests, and open a pull request that references finding ${f.finding_id} (scan ${f.scan_id}).`,
  ].join('\n');
}

function loadFinding(db: Db, findingId: string): FindingRow {
  const row = db.prepare(`${FINDING_SELECT} WHERE f.finding_id = ?`).get(findingId) as FindingRow | undefined;
  if (!row) throw notFound('Finding', findingId);
  return row;
}

function remediate(
  ctx: SandboxContext,
  p: { org_id: string; scan_id: string; finding_id: string },
  principal: Principal,
): RemediateResult {
  const { db } = ctx;
  const scan = db.prepare('SELECT org_id FROM code_scans WHERE scan_id = ?').get(p.scan_id) as
    { org_id: string } | undefined;
  if (!scan || scan.org_id !== p.org_id) {
    throw new HttpProblem(404, `Scan ${p.scan_id} was not found in organization ${p.org_id}`);
  }
  const row = db.prepare('SELECT * FROM code_scan_findings WHERE finding_id = ?').get(p.finding_id) as
    FindingRow | undefined;
  if (!row || row.scan_id !== p.scan_id) {
    throw new HttpProblem(404, `Finding ${p.finding_id} was not found in scan ${p.scan_id}`);
  }
  if (row.remediation_session_id) {
    throw new HttpProblem(
      409,
      `Finding ${p.finding_id} already has a remediation session (${row.remediation_session_id})`,
      { finding_id: p.finding_id, session_id: row.remediation_session_id },
    );
  }
  const finding = toFinding(row);
  const allowed = allowedTagsOf(db, row.org_id);
  // Where the organization restricts tags, only the remediation tags it allows; the origin still says it.
  const tags = REMEDIATION_TAGS.filter((t) => allowed.length === 0 || allowed.includes(t));
  let sessionId = '';
  db.transaction(() => {
    const session = createSession(
      ctx,
      row.org_id,
      {
        prompt: remediationPrompt(finding),
        title: `Remediate: ${finding.title}`.slice(0, 200),
        tags: [...tags],
        repos: [finding.repository],
        resumable: true,
      },
      principal,
      { origin: REMEDIATION_ORIGIN, auditData: { finding_id: row.finding_id, scan_id: row.scan_id } },
    );
    sessionId = session.session_id;
    db.prepare(
      `UPDATE code_scan_findings SET remediation_session_id = ?, remediated_by = ?, updated_at = ? WHERE finding_id = ?`,
    ).run(sessionId, principal.service_user_id, ctx.now(), row.finding_id);
    ctx.audit({
      action: 'remediate_code_scan_finding',
      org_id: row.org_id,
      principal: { service_user_id: principal.service_user_id, service_user_name: principal.service_user_name },
      data: {
        finding_id: row.finding_id,
        scan_id: row.scan_id,
        session_id: sessionId,
        severity: row.severity,
        repository: row.repository,
      },
    });
  })();
  return { finding_id: row.finding_id, session_id: sessionId };
}

// ---------------------------------------------------------------- seed

const STATUS_WEIGHTS: ReadonlyArray<[string, number]> = [
  ['open', 55],
  ['resolved', 30],
  ['dismissed', 15],
];

function weighted(rng: Rng, weights: ReadonlyArray<[string, number]>): string {
  const total = weights.reduce((n, [, w]) => n + w, 0);
  let x = rng.next() * total;
  for (const [v, w] of weights) {
    x -= w;
    if (x < 0) return v;
  }
  return weights[0]![0];
}

function snippetsOf(t: FindingTemplate, rng: Rng): CodeSnippet[] {
  return t.snippets.map((s) => {
    const start = s.start + rng.int(0, 40);
    return {
      file_path: s.file,
      start_line: start,
      end_line: start + s.code.split('\n').length - 1,
      code: s.code,
      commentary: s.commentary,
    };
  });
}

function seedCodeScans(ctx: SeedContext): void {
  const { db, rng } = ctx;
  const now = ctx.now();
  const nowMs = ctx.nowMs();
  const insertScan = db.prepare(
    `INSERT INTO code_scans (scan_id, org_id, repository, status, created_at, completed_at) VALUES (?, ?, ?, 'completed', ?, ?)`,
  );
  const insertFinding = db.prepare(
    `INSERT INTO code_scan_findings (finding_id, scan_id, org_id, repository, title, description, category, severity,
       severity_rank, status, recommendation, snippets, remediation_session_id, remediated_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSession = db.prepare(
    `INSERT INTO sessions (session_id, org_id, status, status_detail, title, prompt, origin, category, created_at,
       updated_at, tags, acus_consumed, pull_requests, service_user_id, repos, sim_next_ms, sim_steps, sim_outcome)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'security', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    'INSERT INTO session_messages (event_id, session_id, source, message, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  ctx.orgIds().forEach((orgId, orgIndex) => {
    const repoRows = db
      .prepare(
        `SELECT DISTINCT j.value AS repo FROM sessions s, json_each(s.repos) j WHERE s.org_id = ? ORDER BY j.value`,
      )
      .all(orgId) as Array<{ repo: string }>;
    const repos = rng.sample(
      repoRows.map((r) => r.repo),
      3,
    );
    if (repos.length === 0) repos.push('acme/web-app');
    const allowed = allowedTagsOf(db, orgId);
    const tags = REMEDIATION_TAGS.filter((t) => allowed.length === 0 || allowed.includes(t));
    for (const repo of repos) {
      const scanTimes = Array.from({ length: rng.int(2, 3) }, () => now - rng.int(2 * 3_600, 90 * 86_400)).sort(
        (a, b) => a - b,
      );
      scanTimes.forEach((scannedAt, scanIndex) => {
        const newest = scanIndex === scanTimes.length - 1;
        const scanId = `scan-${rng.hex(12)}`;
        insertScan.run(scanId, orgId, repo, scannedAt, scannedAt + rng.int(120, 1_800));
        for (const t of rng.sample(FINDING_TEMPLATES, rng.int(2, 5))) {
          const severity = rng.pick(t.severities);
          // Findings of the newest scan are mostly open; older ones mostly dealt with.
          const status = newest ? weighted(rng, STATUS_WEIGHTS) : rng.chance(0.7) ? 'resolved' : 'dismissed';
          const findingId = `finding-${rng.hex(12)}`;
          const snippets = snippetsOf(t, rng);
          const createdAt = scannedAt + rng.int(60, 600);
          // Some findings were remediated already: resolved ones by a merged fix, some open ones in flight.
          const remediated =
            (status === 'resolved' && rng.chance(0.5)) ||
            (status === 'open' && rng.chance(orgIndex === 0 ? 0.4 : 0.25));
          let sessionId: string | null = null;
          if (remediated) {
            sessionId = `session-${rng.hex(16)}`;
            const startedAt = Math.min(now - 60, createdAt + rng.int(3_600, 5 * 86_400));
            const live = status === 'open' && rng.chance(0.3);
            const failed = !live && status === 'open' && rng.chance(0.25);
            const sessionStatus = live ? 'running' : failed ? 'error' : 'exit';
            const finished = live ? now - rng.int(5, 60) : Math.min(now - 30, startedAt + rng.int(900, 3 * 3_600));
            const prs =
              sessionStatus === 'exit'
                ? [
                    {
                      pr_url: `https://github.com/${repo}/pull/${rng.int(100, 9_999)}`,
                      pr_state: status === 'resolved' ? 'merged' : 'open',
                    },
                  ]
                : [];
            const finding: CodeScanFinding = {
              finding_id: findingId,
              scan_id: scanId,
              org_id: orgId,
              title: t.title,
              description: t.description,
              category: t.category,
              severity,
              status,
              recommendation: t.recommendation,
              repository: repo,
              code_snippets: snippets,
              created_at: createdAt,
            };
            const prompt = remediationPrompt(finding);
            insertSession.run(
              sessionId,
              orgId,
              sessionStatus,
              live ? 'working' : null,
              `Remediate: ${t.title}`,
              prompt,
              REMEDIATION_ORIGIN,
              startedAt,
              finished,
              JSON.stringify(tags),
              live ? rng.int(5, 80) / 100 : rng.int(50, 900) / 100,
              JSON.stringify(prs),
              'service-user-sandbox-admin',
              JSON.stringify([repo]),
              live ? nowMs + rng.int(2, 20) * ctx.tickMs : null,
              live ? rng.int(3, 8) : 0,
              live ? 'exit' : null,
            );
            const thread: Array<['user' | 'agent', string]> = [
              ['user', prompt],
              ['agent', rng.pick(AGENT_START)],
            ];
            if (sessionStatus === 'exit')
              thread.push(['agent', `The fix is ready for review: ${prs[0]!.pr_url} (tests added and passing).`]);
            if (sessionStatus === 'error')
              thread.push(['agent', 'I could not reproduce the finding on the default branch; stopping here.']);
            thread.forEach(([source, text], k) =>
              insertMessage.run(
                `event-${rng.hex(16)}`,
                sessionId,
                source,
                text,
                startedAt + Math.floor(((finished - startedAt) * k) / Math.max(1, thread.length - 1)),
              ),
            );
          }
          insertFinding.run(
            findingId,
            scanId,
            orgId,
            repo,
            t.title,
            t.description,
            t.category,
            severity,
            SEVERITY_RANK[severity] ?? 9,
            status,
            t.recommendation,
            JSON.stringify(snippets),
            sessionId,
            sessionId ? 'service-user-sandbox-admin' : null,
            createdAt,
            createdAt,
          );
        }
      });
    }
  });
}

// ---------------------------------------------------------------- lists

const inList = (col: string, values: readonly string[]): [string, ...string[]] => [
  `${col} IN (${values.map(() => '?').join(', ')})`,
  ...values,
];

export const codeScansModule: SandboxModule = {
  name: 'code-scans',
  migrations: [
    {
      id: 'code-scans-001-create',
      sql: `CREATE TABLE code_scans (
        scan_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL,
        repository TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        completed_at INTEGER
      );
      CREATE INDEX code_scans_org ON code_scans (org_id, created_at);
      CREATE TABLE code_scan_findings (
        finding_id TEXT PRIMARY KEY,
        scan_id TEXT NOT NULL REFERENCES code_scans (scan_id),
        org_id TEXT NOT NULL,
        repository TEXT NOT NULL,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        category TEXT NOT NULL,
        severity TEXT NOT NULL,
        severity_rank INTEGER NOT NULL,
        status TEXT NOT NULL,
        recommendation TEXT,
        snippets TEXT NOT NULL DEFAULT '[]',
        remediation_session_id TEXT,
        remediated_by TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX code_scan_findings_order ON code_scan_findings (severity_rank, created_at, finding_id);
      CREATE INDEX code_scan_findings_scan ON code_scan_findings (scan_id);`,
    },
  ],
  seed: seedCodeScans,
  handlers: {
    'codeScans.findings.list': ({ query }, ctx) => {
      const { db } = ctx;
      if (query.scan_id !== undefined && !db.prepare('SELECT 1 FROM code_scans WHERE scan_id = ?').get(query.scan_id))
        throw notFound('Scan', query.scan_id);
      advanceDue(ctx);
      const where: Array<[string, ...Array<string | number>]> = [];
      if (query.org_ids?.length) where.push(inList('f.org_id', query.org_ids));
      if (query.scan_id !== undefined) where.push(['f.scan_id = ?', query.scan_id]);
      if (query.repository !== undefined) where.push(['f.repository = ?', query.repository]);
      if (query.severity?.length) where.push(inList('f.severity', query.severity));
      if (query.status?.length) where.push(inList('f.status', query.status));
      return paginate<FindingRow, CodeScanFinding>(db, {
        scope: 'code-scan-findings',
        select: FINDING_SELECT,
        where,
        order: [
          { col: 'f.severity_rank', dir: 'asc' },
          { col: 'f.created_at', dir: 'desc' },
          { col: 'f.finding_id', dir: 'desc' },
        ],
        first: query.first,
        after: query.after,
        map: toFinding,
      });
    },

    'codeScans.findings.get': ({ params }, ctx) => {
      advanceDue(ctx);
      return toFinding(loadFinding(ctx.db, params.finding_id));
    },

    'codeScans.list': ({ query }, ctx) => {
      const where: Array<[string, ...Array<string | number>]> = [];
      if (query.org_ids?.length) where.push(inList('c.org_id', query.org_ids));
      return paginate<ScanRow, CodeScan>(ctx.db, {
        scope: 'code-scans',
        select: `SELECT c.*, (SELECT count(*) FROM code_scan_findings f WHERE f.scan_id = c.scan_id) AS findings_count
          FROM code_scans c`,
        where,
        order: [
          { col: 'c.created_at', dir: 'desc' },
          { col: 'c.scan_id', dir: 'desc' },
        ],
        first: query.first,
        after: query.after,
        map: toScan,
      });
    },

    'codeScans.findings.remediate': ({ params, principal }, ctx) => remediate(ctx, params, principal),
  },
};
