/** One code-scan finding: what it is, where (the snippets: file, lines, code, commentary), and its remediation. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Wrench } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import type { CodeSnippet } from '@/api/operations/code-scans';
import { CopyId } from '@/components/copy-id';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDateTime } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { findingQueryOptions, useLiveRemediations } from './api';
import { remediationRunning } from './remediate';
import { OrgName, ScanName } from './names';
import { FindingStatusBadge, RemediationResults, RemediationStatus, SeverityBadge, useRemediation } from './parts';

function Snippet({ snippet: s }: { snippet: CodeSnippet }) {
  const lines = s.code.split('\n');
  return (
    <figure className="overflow-hidden rounded-lg border border-line">
      <figcaption className="flex flex-wrap items-center justify-between gap-2 border-b border-line bg-surface-2 px-3 py-1.5 text-xs">
        <span className="font-mono font-medium">{s.file_path}</span>
        <span className="text-muted">
          lines {s.start_line}–{s.end_line}
        </span>
      </figcaption>
      {/* Focusable: a long line scrolls sideways, by keyboard too. */}
      <pre
        tabIndex={0}
        aria-label={`${s.file_path}, lines ${s.start_line} to ${s.end_line}`}
        className="overflow-x-auto bg-surface p-0 text-xs leading-5 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
      >
        <code className="grid grid-cols-[auto_1fr]">
          {lines.map((line, i) => (
            <span key={i} className="contents">
              <span className="border-r border-line px-2 text-right text-muted select-none" aria-hidden>
                {s.start_line + i}
              </span>
              <span className="px-3 whitespace-pre">{line || ' '}</span>
            </span>
          ))}
        </code>
      </pre>
      {s.commentary && <p className="border-t border-line px-3 py-2 text-sm">{s.commentary}</p>}
    </figure>
  );
}

export function FindingDetail({ findingId }: { findingId: string }) {
  const { data: f } = useSuspenseQuery(findingQueryOptions(findingId));
  const remediation = useRemediation();
  const [confirm, setConfirm] = useState(false);
  const canRemediate = useHasPermission('UseAccountCodeScans');
  const started = remediation.outcomes.find((o) => o.kind === 'started');
  const sessionId = f.remediation_session_id ?? (started?.kind === 'started' ? started.sessionId : undefined);
  const sessions = useMemo(
    () => (sessionId ? [{ id: sessionId, status: f.remediation_session_status }] : []),
    [sessionId, f.remediation_session_status],
  );
  const live = useLiveRemediations(sessions);
  // A remediation session still working: another one would duplicate its pull request (the API answers 409).
  const sessionStatus = sessionId ? (live.seen.get(sessionId)?.status ?? f.remediation_session_status) : undefined;
  const inProgress = remediationRunning(sessionId, sessionStatus);
  const whyId = useId();
  const why = remediation.running
    ? 'Launching the remediation…'
    : inProgress
      ? `A remediation is running (session ${sessionId}, ${sessionStatus ?? 'starting'}): remediate again once it ends.`
      : canRemediate === false
        ? missingPermissionTitle('UseAccountCodeScans', canRemediate)
        : undefined;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/code-scans" className="text-accent underline underline-offset-2 hover:no-underline">
          ← Code-scan findings
        </Link>
      </p>
      <PageHeader
        title={f.title}
        description={<CopyId value={f.finding_id} label="finding id" />}
        actions={
          <div className="flex flex-col items-end gap-1">
            <Button
              variant="primary"
              onClick={() => setConfirm(true)}
              disabled={remediation.running || inProgress || canRemediate === false}
              aria-describedby={why ? whyId : undefined}
            >
              <Wrench className="size-4" aria-hidden />
              {remediation.running ? 'Remediating…' : 'Remediate'}
            </Button>
            {why && (
              <p id={whyId} className="max-w-xs text-right text-xs text-muted" data-testid="remediate-disabled-reason">
                {why}
              </p>
            )}
          </div>
        }
      />
      <div className="mb-4 flex flex-wrap items-center gap-2 text-sm">
        <SeverityBadge severity={f.severity} />
        <FindingStatusBadge status={f.status} />
        <span className="text-muted">{f.category}</span>
        <span className="font-mono text-xs">{f.repository}</span>
        <span className="text-xs text-muted">found {formatDateTime(f.created_at)}</span>
      </div>
      <RemediationResults outcomes={remediation.outcomes} live={live.seen} onDismiss={remediation.clear} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(16rem,2fr)]">
        <div className="flex min-w-0 flex-col gap-4">
          <section aria-labelledby="finding-description">
            <h2 id="finding-description" className="mb-1 text-base font-semibold">
              Description
            </h2>
            <p className="text-sm whitespace-pre-wrap">{f.description}</p>
          </section>
          <section aria-labelledby="finding-snippets" className="flex flex-col gap-3">
            <h2 id="finding-snippets" className="text-base font-semibold">
              Code ({f.code_snippets.length} snippet{f.code_snippets.length === 1 ? '' : 's'})
            </h2>
            {f.code_snippets.map((s, i) => (
              <Snippet key={`${s.file_path}:${s.start_line}:${i}`} snippet={s} />
            ))}
          </section>
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <section aria-labelledby="finding-recommendation">
            <h2 id="finding-recommendation" className="mb-1 text-base font-semibold">
              Recommendation
            </h2>
            <p className="text-sm whitespace-pre-wrap">{f.recommendation || '—'}</p>
          </section>
          <section aria-labelledby="finding-remediation">
            <h2 id="finding-remediation" className="mb-1 text-base font-semibold">
              Remediation
            </h2>
            <RemediationStatus
              finding={sessionId ? { ...f, remediation_session_id: sessionId } : f}
              live={sessionId ? live.seen.get(sessionId) : undefined}
            />
            <dl className="mt-2 grid grid-cols-[7rem_minmax(0,1fr)] gap-1 text-sm">
              <dt className="text-muted">Scan</dt>
              <dd>
                <ScanName scanId={f.scan_id} repository={f.repository} />
              </dd>
              <dt className="text-muted">Organization</dt>
              <dd>
                <OrgName orgId={f.org_id} />
              </dd>
            </dl>
          </section>
        </div>
      </div>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Remediate this finding?"
        description="An agent session, attributed to the console's credential, analyzes the code, implements a fix and opens a pull request."
        confirmLabel="Launch remediation"
        pending={remediation.running}
        onConfirm={() => {
          setConfirm(false);
          void remediation.run([f]);
        }}
      />
    </>
  );
}
