/**
 * The sections of the Doctor's report, one component each: reach, identity, what the credential may do (with
 * what the signed-in person's console roles allow beside it), conformance and rate limiting.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import {
  CONSOLE_SCREENS,
  operationLevel,
  roleCheck,
  roleVerdict,
  screenChecks,
  screenLevel,
  screensVerdict,
  type DoctorReport,
  type DoctorVerdict,
  type OperationOutcome,
  type RoleScope,
  type ScreenCheck,
} from '@/api/console/doctor';
import { Badge, type Tone } from '@/components/badge';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { consoleSessionQueryOptions } from '@/lib/console-session';
import { formatDateTime } from '@/lib/format';
import { ISSUE_COLUMNS, OPERATION_COLUMNS, SCREEN_COLUMNS, type OperationRow, type ScreenRow } from './columns';

export const LEVEL: Record<DoctorVerdict['level'], { tone: Tone; text: string }> = {
  ok: { tone: 'success', text: 'OK' },
  warn: { tone: 'warn', text: 'Warning' },
  fail: { tone: 'danger', text: 'Failed' },
  skipped: { tone: 'neutral', text: 'Skipped' },
};

export function VerdictBadge({ verdict }: { verdict: DoctorVerdict }) {
  const l = LEVEL[verdict.level];
  return <Badge tone={l.tone}>{l.text}</Badge>;
}

export function Section(props: { n: number; id: string; title: string; verdict: DoctorVerdict; children: ReactNode }) {
  const { n, id, title, verdict, children } = props;
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

export function ReachSection({ reach }: { reach: DoctorReport['reach'] }) {
  const scheme = reach.scheme
    ? `${reach.scheme}${reach.scheme === 'http' ? (reach.loopback ? ' (loopback: allowed)' : ' (refused off loopback)') : ''}`
    : '—';
  const tls = reach.tls
    ? `${reach.tls.protocol ?? '?'}; certificate for ${reach.tls.subject ?? '?'} by ${reach.tls.issuer ?? '?'}${reach.tls.valid_to ? `, valid until ${formatDateTime(reach.tls.valid_to)}` : ''}`
    : reach.scheme === 'http'
      ? 'None (plain HTTP)'
      : '—';
  const rows: Array<[string, ReactNode]> = [
    ['Scheme', scheme],
    ['Host', reach.host ?? '—'],
    ['Resolves to', reach.addresses.join(', ') || '—'],
    [
      'Round trip',
      reach.rtt_ms === null ? '—' : `${Math.round(reach.rtt_ms)} ms (HTTP ${reach.status}, without the credential)`,
    ],
    ['TLS', tls],
  ];
  if (reach.problem) rows.push(['Problem', <span className="text-danger">{reach.problem}</span>]);
  return (
    <Section n={1} id="reach" title="Reach" verdict={reach.verdict}>
      <Facts rows={rows} />
    </Section>
  );
}

export function IdentitySection({ identity }: { identity: DoctorReport['identity'] }) {
  const p = identity.principal;
  const form =
    identity.credential_form === 'cog'
      ? 'In the cog_ form (a service-user credential; never shown)'
      : identity.credential_form === 'missing'
        ? 'Missing'
        : 'Not in the cog_ form';
  const rows: Array<[string, ReactNode]> = [
    ['Credential', form],
    ['GET /v3/self', identity.self.replace('_', ' ')],
  ];
  if (p) {
    rows.push([
      'Principal',
      `${p.principal_type ?? '?'} ${p.service_user_name ?? ''} (${p.service_user_id ?? 'no id'})`,
    ]);
    rows.push(['Organization', p.org_id ?? 'Enterprise-wide']);
    if (p.permissions) rows.push(['Permissions', `${p.permissions.length}: ${p.permissions.join(', ')}`]);
  }
  const u = identity.unauthorized;
  if (u) {
    rows.push(['Why 401', u.reason.replace(/_/g, ' ')], ['What to do', u.explanation]);
    if (u.detail) rows.push(['The upstream said', u.detail]);
  }
  return (
    <Section n={2} id="identity" title="Identity" verdict={identity.verdict}>
      <Facts rows={rows} />
    </Section>
  );
}

type Show = OperationOutcome | 'all' | 'role_refused';

function OperationsTable({ report, rows }: { report: DoctorReport; rows: OperationRow[] }) {
  const [show, setShow] = useState<Show>(() => (report.operations.counts.refused > 0 ? 'refused' : 'all'));
  const filter = useMemo(
    () =>
      show === 'all'
        ? undefined
        : show === 'role_refused'
          ? (r: OperationRow) => r.role?.allows === 'no'
          : (r: OperationRow) => r.outcome === show,
    [show],
  );
  const counts = report.operations.counts;
  const roleRefused = rows.filter((r) => r.role?.allows === 'no').length;
  const filters: Array<{ value: Show; label: string; count: number }> = [
    { value: 'all', label: 'All', count: rows.length },
    { value: 'allowed', label: 'Allowed', count: counts.allowed },
    { value: 'refused', label: 'Refused', count: counts.refused },
    { value: 'not_present', label: 'Not present', count: counts.not_present },
    { value: 'failed', label: 'Failed', count: counts.failed },
    { value: 'skipped', label: 'Skipped', count: counts.skipped },
    ...(roleRefused > 0
      ? [{ value: 'role_refused' as const, label: 'Refused by your roles', count: roleRefused }]
      : []),
  ];
  return (
    <div className="flex flex-col gap-2">
      <div role="group" aria-label="Show operations" className="flex flex-wrap gap-1.5">
        {filters.map((f) => (
          <Button
            key={f.value}
            size="sm"
            variant={show === f.value ? 'primary' : 'secondary'}
            aria-pressed={show === f.value}
            onClick={() => setShow(f.value)}
          >
            {f.label} ({f.count})
          </Button>
        ))}
      </div>
      <DataTable
        label="Read operations"
        tableId="doctor-operations"
        columns={OPERATION_COLUMNS}
        data={rows}
        filter={filter}
        getRowId={(r) => r.id}
        empty={{ title: 'No operation in this group' }}
        className="max-h-[28rem]"
      />
    </div>
  );
}

/** The report's screens; a report written before it carried them is marked from its operations. */
function reportScreens(report: DoctorReport): ScreenCheck[] {
  return report.screens ?? screenChecks(report.operations.items, CONSOLE_SCREENS, report.conformance.not_published);
}

/**
 * The operations and screens marked with what the signed-in person's console roles allow (GET /console/session);
 * unmarked while the console does not say.
 */
function usePersonRows(report: DoctorReport) {
  const session = useQuery(consoleSessionQueryOptions());
  const scope: RoleScope | undefined = session.data?.permissions;
  return useMemo(() => {
    const screens = reportScreens(report);
    const items = report.operations.items;
    return {
      roles: session.data?.roles?.map((r) => r.role) ?? [],
      verdict: scope ? roleVerdict(scope, items, screens) : null,
      operations: items.map((i) => ({ ...i, role: scope ? roleCheck(scope, i.permission, operationLevel(i)) : null })),
      screens: screens.map((s) => ({ ...s, role: scope ? roleCheck(scope, s.permission, screenLevel(s)) : null })),
    };
  }, [report, scope, session.data?.roles]);
}

function PersonVerdict({ roles, verdict }: { roles: string[]; verdict: DoctorVerdict }) {
  return (
    <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-line p-3">
      <h3 className="text-sm font-semibold">Your console roles{roles.length ? `: ${roles.join(', ')}` : ''}</h3>
      <VerdictBadge verdict={verdict} />
      <p className="w-full text-sm" data-testid="doctor-verdict-roles">
        {verdict.line}
      </p>
    </div>
  );
}

export function OperationsSection({ report }: { report: DoctorReport }) {
  const person = usePersonRows(report);
  const screenVerdict = screensVerdict(person.screens);
  const paths = report.operations.paths ?? [];
  return (
    <Section n={3} id="operations" title="What this credential may do" verdict={report.operations.verdict}>
      {person.verdict && <PersonVerdict roles={person.roles} verdict={person.verdict} />}
      <OperationsTable report={report} rows={person.operations} />
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
        <DataTable<ScreenRow>
          label="Screens of the console"
          tableId="doctor-screens"
          columns={SCREEN_COLUMNS}
          data={person.screens}
          getRowId={(s) => `${s.section}:${s.to}`}
          empty={{ title: 'No screens' }}
          className="max-h-[28rem]"
        />
      </div>
    </Section>
  );
}

export function ConformanceSection({ conformance }: { conformance: DoctorReport['conformance'] }) {
  const issues = useMemo(() => conformance.issues.map((i, n) => ({ ...i, key: `${n}` })), [conformance.issues]);
  return (
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
  );
}

export function RateLimitSection({ rate }: { rate: DoctorReport['rate_limit'] }) {
  return (
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
  );
}
