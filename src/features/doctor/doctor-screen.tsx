/**
 * The Doctor: runs the console's doctor on demand against its upstream (the configured API, or the embedded
 * sandbox) and shows the last report section by section — reach, identity, what the credential may do and which
 * screens will work, conformance of every answer, rate limiting — each with its one-line verdict. The same
 * report as `npm run doctor`; the console keeps the last one, and the shell's notice reads it.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Stethoscope } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { DoctorReport } from '@/api/console/doctor';
import { Badge } from '@/components/badge';
import { EmptyState, PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { doctorKeys } from '@/lib/doctor-summary';
import { doctorStateQueryOptions, useRunDoctor } from './api';
import {
  ConformanceSection,
  IdentitySection,
  LEVEL,
  OperationsSection,
  RateLimitSection,
  ReachSection,
} from './sections';

function Report({ report }: { report: DoctorReport }) {
  const overall = LEVEL[report.verdict.level];
  return (
    <div className="flex flex-col gap-4">
      <div
        role="status"
        className={cn(
          'rounded-lg border p-4',
          report.verdict.level === 'ok' && 'border-success/40 bg-success/5',
          report.verdict.level === 'warn' && 'border-warn/40 bg-warn/5',
          report.verdict.level === 'fail' && 'border-danger/40 bg-danger/5',
        )}
      >
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={overall.tone}>{overall.text}</Badge>
          <p className="font-semibold" data-testid="doctor-verdict">
            {report.verdict.line}
          </p>
        </div>
        <p className="mt-1 text-sm text-muted">
          {report.target.mode === 'sandbox' ? 'Embedded sandbox' : 'Upstream'}{' '}
          <span className="font-mono break-all">{report.target.base_url}</span> · ran{' '}
          <RelativeTime value={report.started_at} /> · took {(report.duration_ms / 1000).toFixed(1)} s
        </p>
      </div>
      <ReachSection reach={report.reach} />
      <IdentitySection identity={report.identity} />
      <OperationsSection report={report} />
      <ConformanceSection conformance={report.conformance} />
      <RateLimitSection rate={report.rate_limit} />
    </div>
  );
}

export function DoctorScreen() {
  const state = useQuery(doctorStateQueryOptions());
  const run = useRunDoctor();
  const queryClient = useQueryClient();
  const running = state.data?.running ?? null;

  // When a run ends, the shell's notice reads the new report's summary.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (running) wasRunning.current = true;
    else if (wasRunning.current) {
      wasRunning.current = false;
      void queryClient.invalidateQueries({ queryKey: doctorKeys.summary() });
    }
  }, [running, queryClient]);

  const busy = running !== null || run.isPending;
  return (
    <>
      <PageHeader
        title="Doctor"
        description="Checks the console's credential against its upstream: reach, identity, every read operation of the contract (never a write), conformance of the answers, and rate limiting. The same report as npm run doctor."
        actions={
          <Button variant="primary" onClick={() => run.mutate()} disabled={busy || state.isPending}>
            <Stethoscope className="size-4" aria-hidden />
            {busy ? 'Running…' : 'Run the doctor'}
          </Button>
        }
      />
      {run.isError && <ProblemView error={run.error} compact onRetry={() => run.mutate()} />}
      {running && (
        <div role="status" className="mb-4 rounded-lg border border-line bg-surface p-4 text-sm">
          <p>
            Checking{running.current ? <span className="font-mono"> {running.current}</span> : '…'}{' '}
            {running.total > 0 && `(${running.done} of ${running.total} operations)`}
          </p>
          <div
            role="progressbar"
            aria-label="Doctor run"
            aria-valuemin={0}
            aria-valuemax={running.total || 1}
            aria-valuenow={running.done}
            className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-2"
          >
            <div
              className="h-full bg-accent transition-[width]"
              style={{ width: `${running.total ? Math.round((running.done / running.total) * 100) : 5}%` }}
            />
          </div>
        </div>
      )}
      {state.data?.error && (
        <p role="alert" className="mb-4 rounded-lg border border-danger/40 bg-danger/5 p-3 text-sm text-danger">
          {state.data.error}
        </p>
      )}
      {state.isPending ? (
        <div className="flex flex-col gap-3" aria-hidden>
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : state.isError ? (
        <ProblemView error={state.error} onRetry={() => void state.refetch()} />
      ) : state.data.report ? (
        <Report report={state.data.report} />
      ) : running ? null : (
        <EmptyState title="The doctor has not run yet">
          Run it to see what the console's credential may do on this upstream. From a terminal:{' '}
          <code className="font-mono">npm run doctor</code>.
        </EmptyState>
      )}
    </>
  );
}
