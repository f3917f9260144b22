/**
 * The Doctor: runs the console's doctor on demand against its upstream (the configured API, or the embedded
 * sandbox) and shows the last report section by section — reach, identity, what the credential may do and which
 * screens will work, conformance of every answer, rate limiting — each with its one-line verdict. The same
 * report as `npm run doctor`; the console keeps the last one, and the shell's notice reads it.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Stethoscope } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  CONSOLE_SCREENS,
  screenChecks,
  screensVerdict,
  type ConformanceIssue,
  type DoctorOperationResult,
  type DoctorReport,
  type DoctorVerdict,
  type OperationOutcome,
  type ScreenCheck,
} from '@/api/console/doctor';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper, DataTable } from '@/components/data-table';
import { EmptyState, PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { doctorKeys } from '@/lib/doctor-summary';
import { formatDateTime } from '@/lib/format';
import { doctorStateQueryOptions, useRunDoctor } from './api';

const LEVEL: Record<DoctorVerdict['level'], { tone: Tone; text: string }> = {
  ok: { tone: 'success', text: 'OK' },
  warn: { tone: 'warn', text: 'Warning' },
  fail: { tone: 'danger', text: 'Failed' },
  skipped: { tone: 'neutral', text: 'Skipped' },
};

function VerdictBadge({ verdict }: { verdict: DoctorVerdict }) {
  const l = LEVEL[verdict.level];
  return <Badge tone={l.tone}>{l.text}</Badge>;
}

const OUTCOME: Record<OperationOutcome, { tone: Tone; text: string }> = {
  allowed: { tone: 'success', text: 'Allowed' },
  refused: { tone: 'danger', text: 'Refused' },
  not_present: { tone: 'warn', text: 'Not present' },
  failed: { tone: 'danger', text: 'Failed' },
  skipped: { tone: 'neutral', text: 'Skipped' },
};

/** The report's screens; a report written before it carried them is marked from its operations. */
function reportScreens(report: DoctorReport): ScreenCheck[] {
  return report.screens ?? screenChecks(report.operations.items, CONSOLE_SCREENS, report.conformance.not_published);
}

function Section({
  n,
  id,
  title,
  verdict,
  children,
}: {
  n: number;
  id: string;
  title: string;
  verdict: DoctorVerdict;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`doctor-${id}`} className="rounded-lg border border-line bg-surface p-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id={`doctor-${id}`} className="text-base font-semibold">
          {n}. {title}
        </h2>
        <VerdictBadge verdict={verdict} />
      </div>
      <p className="mt-1 text-sm" data-testid={`doctor-verdict-${id}`}>
        {verdict.line}
      </p>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1.5 text-sm sm:grid-cols-[12rem_1fr]">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted">{k}</dt>
          <dd className="min-w-0 break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

const opCol = columnHelper<DoctorOperationResult>();
const OPERATION_COLUMNS = opCol.columns([
  opCol.accessor('id', {
    header: 'Operation',
    enableSorting: true,
    enableHiding: false,
    meta: { width: 'minmax(14rem,1.2fr)', className: '[overflow-wrap:anywhere] font-mono text-xs', card: 'title' },
  }),
  opCol.accessor('outcome', {
    header: 'Result',
    enableSorting: true,
    meta: { width: '8rem', card: 'aside' },
    cell: ({ getValue }) => {
      const o = OUTCOME[getValue()];
      return <Badge tone={o.tone}>{o.text}</Badge>;
    },
  }),
  opCol.accessor((r) => (r.outcome === 'refused' ? (r.refused_permission ?? r.permission) : r.permission), {
    id: 'permission',
    header: 'Needs',
    enableSorting: true,
    meta: { width: 'minmax(12rem,1fr)', className: '[overflow-wrap:anywhere] text-xs' },
  }),
  opCol.accessor((r) => (r.status === null ? '—' : String(r.status)), {
    id: 'status',
    header: 'HTTP',
    meta: { width: '4rem', align: 'end', className: 'tabular-nums' },
  }),
  opCol.accessor((r) => (r.outcome === 'allowed' ? (r.request ?? '') : (r.detail ?? '')), {
    id: 'detail',
    header: 'Request or reason',
    meta: {
      width: 'minmax(16rem,2fr)',
      className: '[overflow-wrap:anywhere] text-xs',
      cellTitle: (r: DoctorOperationResult) => (r.outcome === 'allowed' ? r.request : r.detail) ?? undefined,
    },
  }),
]);

const screenCol = columnHelper<ScreenCheck>();
const SCREEN_COLUMNS = screenCol.columns([
  screenCol.accessor((s) => `${s.section}: ${s.label}`, {
    id: 'screen',
    header: 'Screen',
    enableSorting: true,
    enableHiding: false,
    meta: { width: 'minmax(14rem,1.2fr)', className: '[overflow-wrap:anywhere] font-medium', card: 'title' },
  }),
  screenCol.accessor('works', {
    header: 'Will it work',
    enableSorting: true,
    meta: { width: '8rem', card: 'aside' },
    cell: ({ getValue }) => {
      const v = getValue();
      return v === 'yes' ? (
        <Badge tone="success">Works</Badge>
      ) : v === 'partly' ? (
        <Badge tone="warn">Works, data missing</Badge>
      ) : v === 'no' ? (
        <Badge tone="danger">Will not work</Badge>
      ) : (
        <Badge>Unknown</Badge>
      );
    },
  }),
  screenCol.accessor('permission', {
    header: 'Needs',
    meta: { width: 'minmax(12rem,1fr)', className: '[overflow-wrap:anywhere] text-xs' },
  }),
  screenCol.accessor('why', {
    header: 'Why',
    meta: { width: 'minmax(14rem,1.5fr)', className: '[overflow-wrap:anywhere] text-xs' },
  }),
]);

const issueCol = columnHelper<ConformanceIssue & { key: string }>();
const ISSUE_COLUMNS = issueCol.columns([
  issueCol.accessor('operation_id', {
    header: 'Operation',
    enableSorting: true,
    meta: { width: 'minmax(12rem,1fr)', className: '[overflow-wrap:anywhere] font-mono text-xs', card: 'title' },
  }),
  issueCol.accessor('where', {
    header: 'Where',
    meta: { width: 'minmax(10rem,1fr)', className: '[overflow-wrap:anywhere] font-mono text-xs' },
  }),
  issueCol.accessor('kind', {
    header: 'Defect',
    enableSorting: true,
    meta: { width: '9rem', card: 'aside' },
    cell: ({ getValue }) => <Badge tone="danger">{getValue().replace(/_/g, ' ')}</Badge>,
  }),
  issueCol.accessor('message', {
    header: 'What',
    meta: {
      width: 'minmax(16rem,2fr)',
      className: '[overflow-wrap:anywhere] text-xs',
      cellTitle: (r: ConformanceIssue) => r.message,
    },
  }),
]);

const FILTERS: Array<{ value: OperationOutcome | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'allowed', label: 'Allowed' },
  { value: 'refused', label: 'Refused' },
  { value: 'not_present', label: 'Not present' },
  { value: 'failed', label: 'Failed' },
  { value: 'skipped', label: 'Skipped' },
];

function OperationsTable({ report }: { report: DoctorReport }) {
  const [show, setShow] = useState<OperationOutcome | 'all'>(() =>
    report.operations.counts.refused > 0 ? 'refused' : 'all',
  );
  const filter = useMemo(() => (show === 'all' ? undefined : (r: DoctorOperationResult) => r.outcome === show), [show]);
  const counts = report.operations.counts;
  return (
    <div className="flex flex-col gap-2">
      <div role="group" aria-label="Show operations" className="flex flex-wrap gap-1.5">
        {FILTERS.map((f) => {
          const count = f.value === 'all' ? report.operations.items.length : counts[f.value];
          return (
            <Button
              key={f.value}
              size="sm"
              variant={show === f.value ? 'primary' : 'secondary'}
              aria-pressed={show === f.value}
              onClick={() => setShow(f.value)}
            >
              {f.label} ({count})
            </Button>
          );
        })}
      </div>
      <DataTable
        label="Read operations"
        tableId="doctor-operations"
        columns={OPERATION_COLUMNS}
        data={report.operations.items}
        filter={filter}
        getRowId={(r) => r.id}
        empty={{ title: 'No operation in this group' }}
        className="max-h-[28rem]"
      />
    </div>
  );
}

function Report({ report }: { report: DoctorReport }) {
  const screens = useMemo(() => reportScreens(report), [report]);
  const paths = report.operations.paths ?? [];
  const screenVerdict = screensVerdict(screens);
  const issues = useMemo(
    () => report.conformance.issues.map((i, n) => ({ ...i, key: `${n}` })),
    [report.conformance.issues],
  );
  const { reach, identity, rate_limit: rate, conformance } = report;
  const p = identity.principal;
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

      <Section n={1} id="reach" title="Reach" verdict={reach.verdict}>
        <Facts
          rows={[
            [
              'Scheme',
              reach.scheme
                ? `${reach.scheme}${reach.scheme === 'http' ? (reach.loopback ? ' (loopback: allowed)' : ' (refused off loopback)') : ''}`
                : '—',
            ],
            ['Host', reach.host ?? '—'],
            ['Resolves to', reach.addresses.join(', ') || '—'],
            [
              'Round trip',
              reach.rtt_ms === null
                ? '—'
                : `${Math.round(reach.rtt_ms)} ms (HTTP ${reach.status}, without the credential)`,
            ],
            [
              'TLS',
              reach.tls
                ? `${reach.tls.protocol ?? '?'}; certificate for ${reach.tls.subject ?? '?'} by ${reach.tls.issuer ?? '?'}${reach.tls.valid_to ? `, valid until ${formatDateTime(reach.tls.valid_to)}` : ''}`
                : reach.scheme === 'http'
                  ? 'None (plain HTTP)'
                  : '—',
            ],
            ...(reach.problem
              ? ([['Problem', <span className="text-danger">{reach.problem}</span>]] as Array<[string, ReactNode]>)
              : []),
          ]}
        />
      </Section>

      <Section n={2} id="identity" title="Identity" verdict={identity.verdict}>
        <Facts
          rows={[
            [
              'Credential',
              identity.credential_form === 'cog'
                ? 'In the cog_ form (a service-user credential; never shown)'
                : identity.credential_form === 'missing'
                  ? 'Missing'
                  : 'Not in the cog_ form',
            ],
            ['GET /v3/self', identity.self.replace('_', ' ')],
            ...(p
              ? ([
                  [
                    'Principal',
                    `${p.principal_type ?? '?'} ${p.service_user_name ?? ''} (${p.service_user_id ?? 'no id'})`,
                  ],
                  ['Organization', p.org_id ?? 'Enterprise-wide'],
                  ...(p.permissions ? [['Permissions', `${p.permissions.length}: ${p.permissions.join(', ')}`]] : []),
                ] as Array<[string, ReactNode]>)
              : []),
            ...(identity.unauthorized
              ? ([
                  ['Why 401', identity.unauthorized.reason.replace(/_/g, ' ')],
                  ['What to do', identity.unauthorized.explanation],
                  ...(identity.unauthorized.detail ? [['The upstream said', identity.unauthorized.detail]] : []),
                ] as Array<[string, ReactNode]>)
              : []),
          ]}
        />
      </Section>

      <Section n={3} id="operations" title="What this credential may do" verdict={report.operations.verdict}>
        <OperationsTable report={report} />
        {paths.length > 0 && (
          <div className="mt-5">
            <h3 className="text-sm font-semibold">Paths the upstream serves</h3>
            <ul className="mt-1 flex flex-col gap-0.5 text-sm" data-testid="doctor-paths">
              {paths.map((p) => (
                <li key={p.operation_id} className="font-mono text-xs break-all">
                  {p.line}
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="mt-5 flex flex-wrap items-center gap-x-3 gap-y-1">
          <h3 className="text-sm font-semibold">Screens of the console</h3>
          <VerdictBadge verdict={screenVerdict} />
          <p className="w-full text-sm" data-testid="doctor-verdict-screens">
            {screenVerdict.line}
          </p>
        </div>
        <div className="mt-2">
          <DataTable
            label="Screens of the console"
            tableId="doctor-screens"
            columns={SCREEN_COLUMNS}
            data={screens}
            getRowId={(s) => `${s.section}:${s.to}`}
            empty={{ title: 'No screens' }}
            className="max-h-[28rem]"
          />
        </div>
      </Section>

      <Section n={4} id="conformance" title="Conformance" verdict={conformance.verdict}>
        <p className="mb-2 text-sm text-muted">
          {conformance.checked} answers checked, {conformance.conforming} conforming. {conformance.unknown_fields.count}{' '}
          fields the contract does not know (counted, not errors).
        </p>
        {issues.length > 0 && (
          <DataTable
            label="Conformance defects"
            tableId="doctor-conformance"
            columns={ISSUE_COLUMNS}
            data={issues}
            getRowId={(i) => i.key}
            empty={{ title: 'No defects' }}
            className="max-h-[28rem]"
          />
        )}
        {conformance.unknown_fields.items.length > 0 && (
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer text-muted">Unknown fields</summary>
            <ul className="mt-1 list-inside list-disc font-mono text-xs">
              {conformance.unknown_fields.items.map((u) => (
                <li key={`${u.operation_id}:${u.where}`}>
                  {u.operation_id} {u.where}
                </li>
              ))}
            </ul>
          </details>
        )}
      </Section>

      <Section n={5} id="rate-limit" title="Rate limiting" verdict={rate.verdict}>
        <Facts
          rows={[
            ['Requests', String(rate.requests)],
            ['429 answers', String(rate.responses_429)],
            ['Retry-After seen', rate.retry_after_seen ? 'Yes' : 'No'],
            ['Waited for 429s', `${(rate.waited_ms / 1000).toFixed(1)} s`],
            [
              'Pace kept',
              `At most ${rate.max_per_second} requests within a second; at least ${rate.min_interval_ms} ms apart`,
            ],
          ]}
        />
      </Section>
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
