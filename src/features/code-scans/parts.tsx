/** Pieces the findings list and a finding's page share: severity, remediation status, launching remediations. */
import { Link } from '@tanstack/react-router';
import { ExternalLink } from 'lucide-react';
import { useCallback, useState, type ReactNode } from 'react';
import type { CodeScanFinding } from '@/api/operations/code-scans';
import { isTerminalStatus } from '@/api/operations/sessions';
import { Badge, type Tone } from '@/components/badge';
import { errorMessage } from '@/lib/api-error';
import { remediateFinding, useInvalidateFindings, type LiveSession } from './api';
import { remediateAll, type RemediationOutcome } from './remediate';

const SEVERITY_TONES: Record<string, Tone> = { critical: 'danger', high: 'warn', medium: 'info', low: 'neutral' };
const STATUS_TONES: Record<string, Tone> = { open: 'accent', resolved: 'success', dismissed: 'neutral' };
const SESSION_TONES: Record<string, Tone> = { exit: 'success', error: 'danger', suspended: 'warn' };

export function SeverityBadge({ severity }: { severity: string }) {
  return <Badge tone={SEVERITY_TONES[severity] ?? 'neutral'}>{severity}</Badge>;
}

export function FindingStatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{status}</Badge>;
}

export function SessionLink({ sessionId, children }: { sessionId: string; children?: ReactNode }) {
  return (
    <Link
      to="/sessions/$sessionId"
      params={{ sessionId }}
      className="font-mono text-xs text-accent underline underline-offset-2 hover:no-underline"
    >
      {children ?? sessionId}
    </Link>
  );
}

/** A finding's remediation: its session (linked) with the latest status seen, and the pull request it opened. */
export function RemediationStatus({
  finding,
  live,
}: {
  finding: Pick<
    CodeScanFinding,
    'remediation_session_id' | 'remediation_session_status' | 'remediation_pull_request_url'
  >;
  live?: LiveSession | undefined;
}) {
  const sessionId = finding.remediation_session_id;
  if (!sessionId) return <span className="text-xs text-muted">Not remediated</span>;
  const status = live?.status ?? finding.remediation_session_status ?? 'unknown';
  const pr = live?.pull_request_url ?? finding.remediation_pull_request_url;
  const terminal = isTerminalStatus(status);
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-1.5">
      <Badge tone={SESSION_TONES[status] ?? 'info'} title={terminal ? 'Final status' : 'Live: updates on its own'}>
        {!terminal && <span className="size-1.5 animate-pulse rounded-full bg-current" aria-hidden />}
        <span data-testid="remediation-status">{status}</span>
      </Badge>
      <SessionLink sessionId={sessionId}>
        <span className="sr-only">Remediation session </span>
        {sessionId}
      </SessionLink>
      {pr && (
        <a
          href={pr}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-0.5 text-xs text-accent underline underline-offset-2 hover:no-underline"
        >
          Pull request
          <ExternalLink className="size-3" aria-hidden />
        </a>
      )}
    </span>
  );
}

/** Launches remediations and keeps what came of each, in the order given. */
export function useRemediation() {
  const invalidate = useInvalidateFindings();
  const [outcomes, setOutcomes] = useState<RemediationOutcome[]>([]);
  const [running, setRunning] = useState(false);
  const run = useCallback(
    async (findings: readonly CodeScanFinding[]) => {
      setRunning(true);
      setOutcomes([]);
      try {
        const all = await remediateAll(findings, remediateFinding);
        setOutcomes(all);
        return all;
      } finally {
        setRunning(false);
        void invalidate();
      }
    },
    [invalidate],
  );
  return { outcomes, running, run, clear: () => setOutcomes([]) };
}

/** What came of each remediation: a new session, "already being remediated" with its session, or the error. */
export function RemediationResults({
  outcomes,
  live,
  onDismiss,
}: {
  outcomes: readonly RemediationOutcome[];
  live: ReadonlyMap<string, LiveSession>;
  onDismiss?: () => void;
}) {
  if (outcomes.length === 0) return null;
  const started = outcomes.filter((o) => o.kind === 'started').length;
  const already = outcomes.filter((o) => o.kind === 'already').length;
  const failed = outcomes.filter((o) => o.kind === 'error').length;
  const summary = [
    started ? `${started} remediation${started === 1 ? '' : 's'} started` : '',
    already ? `${already} already being remediated` : '',
    failed ? `${failed} failed` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <section
      aria-label="Remediation results"
      className="mb-3 rounded-lg border border-line bg-surface p-3 text-sm"
      data-testid="remediation-results"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <p role="status" className="font-medium">
          {summary}.
        </p>
        {onDismiss && (
          <button type="button" className="text-xs text-muted underline underline-offset-2" onClick={onDismiss}>
            Dismiss
          </button>
        )}
      </div>
      <ul className="flex flex-col gap-1.5">
        {outcomes.map((o) => (
          <li key={o.finding.finding_id} className="flex flex-wrap items-center gap-2" data-kind={o.kind}>
            <span className="min-w-0 truncate font-medium">{o.finding.title}</span>
            <span className="font-mono text-xs text-muted">{o.finding.finding_id}</span>
            {o.kind === 'started' ? (
              <>
                <Badge tone="success">Remediation started</Badge>
                <SessionLink sessionId={o.sessionId}>Open session {o.sessionId}</SessionLink>
                {live.get(o.sessionId) && (
                  <span className="text-xs text-muted">status {live.get(o.sessionId)!.status}</span>
                )}
              </>
            ) : o.kind === 'already' ? (
              <>
                <Badge tone="info">Already being remediated</Badge>
                {o.sessionId ? (
                  <SessionLink sessionId={o.sessionId}>Open session {o.sessionId}</SessionLink>
                ) : (
                  <span className="text-xs text-muted">by an earlier session</span>
                )}
              </>
            ) : (
              <>
                <Badge tone="danger">Failed</Badge>
                <span className="text-xs text-danger">{errorMessage(o.error)}</span>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
