/** `npm run doctor`'s text output: one table per section, each with its one-line verdict. */
import type { DoctorReport, DoctorVerdict } from '../api/console/doctor';
import { CONSOLE_SCREENS, screenChecks, screensVerdict } from '../api/console/doctor';

export interface FormatOptions {
  color: boolean;
  /** Widest a table line may be (the terminal's width). */
  width: number;
}

const LABEL: Record<DoctorVerdict['level'], string> = { ok: 'ok', warn: 'warn', fail: 'FAIL', skipped: 'skip' };
const COLOR: Record<DoctorVerdict['level'], string> = { ok: '32', warn: '33', fail: '31', skipped: '90' };

function paint(text: string, code: string, on: boolean): string {
  return on ? `\u001b[${code}m${text}\u001b[0m` : text;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, Math.max(1, n - 1))}…` : s;
}

/** A plain-text table: columns padded to their widest cell, the last column clipped to the line width. */
export function table(headers: string[], rows: string[][], width: number): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fixed = widths.slice(0, -1).reduce((a, w) => a + w + 2, 2);
  widths[widths.length - 1] = Math.max(20, Math.min(widths[widths.length - 1]!, width - fixed));
  const line = (cells: string[]) =>
    `  ${cells
      .map((c, i) => (i === cells.length - 1 ? clip(c, widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')}`.trimEnd();
  return [line(headers), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)];
}

const time = (s: number | null) => (s === null ? '—' : new Date(s * 1000).toISOString().replace('.000Z', 'Z'));

export function formatReport(report: DoctorReport, opts: FormatOptions): string {
  const { color, width } = opts;
  // A report without its screens (written before they were part of it): marked from its operations.
  const screens =
    report.screens ?? screenChecks(report.operations.items, CONSOLE_SCREENS, report.conformance.not_published);
  const out: string[] = [];
  const heading = (n: number, title: string, v: DoctorVerdict) => {
    out.push('');
    out.push(
      `${paint(`${n}. ${title}`, '1', color)}  ${paint(`[${LABEL[v.level]}]`, COLOR[v.level], color)} ${v.line}`,
    );
  };

  out.push(
    `${paint('Agent Platform doctor', '1', color)}: ${report.target.base_url} (${report.target.mode === 'sandbox' ? 'embedded sandbox' : 'configured upstream'}), ${time(report.started_at)}, ${(report.duration_ms / 1000).toFixed(1)} s`,
  );
  out.push(`${paint(`[${LABEL[report.verdict.level]}]`, COLOR[report.verdict.level], color)} ${report.verdict.line}`);

  const r = report.reach;
  heading(1, 'Reach', r.verdict);
  out.push(
    ...table(
      ['CHECK', 'RESULT'],
      [
        [
          'scheme',
          r.scheme
            ? `${r.scheme}${r.scheme === 'http' ? (r.loopback ? ' (loopback: allowed)' : ' (refused off loopback)') : ''}`
            : '—',
        ],
        ['host', r.host ?? '—'],
        ['resolves to', r.addresses.join(', ') || '—'],
        [
          'round trip',
          r.rtt_ms === null ? '—' : `${Math.round(r.rtt_ms)} ms (HTTP ${r.status}, without the credential)`,
        ],
        [
          'TLS',
          r.tls
            ? `${r.tls.protocol ?? '?'}; certificate for ${r.tls.subject ?? '?'} by ${r.tls.issuer ?? '?'}, valid until ${time(r.tls.valid_to)}`
            : r.scheme === 'http'
              ? 'none (plain HTTP)'
              : '—',
        ],
        ...(r.problem ? [['problem', r.problem]] : []),
      ],
      width,
    ),
  );

  const id = report.identity;
  heading(2, 'Identity', id.verdict);
  const p = id.principal;
  out.push(
    ...table(
      ['CHECK', 'RESULT'],
      [
        [
          'credential form',
          id.credential_form === 'cog'
            ? 'cog_… (a service-user credential; never shown)'
            : id.credential_form === 'missing'
              ? 'missing'
              : 'not cog_… (not a service-user credential)',
        ],
        ['GET /v3/self', id.self.replace('_', ' ')],
        ...(p
          ? [
              [
                'principal',
                `${p.principal_type ?? '?'} ${p.service_user_name ?? ''} (${p.service_user_id ?? 'no id'})`,
              ],
              ['organization', p.org_id ?? 'enterprise-wide'],
              ...(p.permissions ? [['permissions', `${p.permissions.length}: ${p.permissions.join(', ')}`]] : []),
            ]
          : []),
        ...(id.unauthorized
          ? [
              ['401 reason', id.unauthorized.reason.replace(/_/g, ' ')],
              ['what to do', id.unauthorized.explanation],
              ...(id.unauthorized.detail ? [['upstream said', id.unauthorized.detail]] : []),
            ]
          : []),
      ],
      width,
    ),
  );

  const ops = report.operations;
  heading(3, 'What this credential may do', ops.verdict);
  const c = ops.counts;
  out.push(
    `  ${c.allowed} allowed, ${c.refused} refused, ${c.not_present} not present, ${c.failed} failed, ${c.skipped} skipped`,
  );
  const outcomeText = (o: (typeof ops.items)[number]) =>
    o.outcome === 'refused'
      ? `refused (${o.refused_permission ?? '?'})`
      : o.outcome === 'not_present'
        ? 'not present'
        : o.outcome;
  out.push(
    ...table(
      ['OPERATION', 'NEEDS', 'RESULT', 'HTTP', 'DETAIL'],
      ops.items.map((o) => [
        o.id,
        o.permission,
        outcomeText(o),
        o.status === null ? '—' : String(o.status),
        o.outcome === 'allowed' ? (o.request ?? '') : (o.detail ?? ''),
      ]),
      width,
    ),
  );
  const paths = ops.paths ?? [];
  if (paths.length > 0) {
    out.push('');
    out.push(`  ${paint('Paths the upstream serves', '1', color)} (operations known at more than one path)`);
    out.push(...paths.map((p) => `  ${p.line}`));
  }
  const v = screensVerdict(screens);
  out.push('');
  out.push(
    `  ${paint('Screens of the console', '1', color)}  ${paint(`[${LABEL[v.level]}]`, COLOR[v.level], color)} ${v.line}`,
  );
  out.push(
    ...table(
      ['SCREEN', 'NEEDS', 'WORKS', 'WHY'],
      screens.map((s) => [`${s.section}: ${s.label}`, s.permission, s.works, s.why]),
      width,
    ),
  );

  const conf = report.conformance;
  heading(4, 'Conformance', conf.verdict);
  out.push(
    `  ${conf.checked} answers checked, ${conf.conforming} conforming; ${conf.unknown_fields.count} unknown extra fields (counted, not errors)`,
  );
  if (conf.issues.length > 0) {
    out.push(
      ...table(
        ['OPERATION', 'WHERE', 'DEFECT', 'WHAT'],
        conf.issues.map((i) => [i.operation_id, i.where, i.kind.replace(/_/g, ' '), i.message]),
        width,
      ),
    );
  }

  const rl = report.rate_limit;
  heading(5, 'Rate limiting', rl.verdict);
  out.push(
    ...table(
      ['CHECK', 'RESULT'],
      [
        ['requests', String(rl.requests)],
        ['429 answers', String(rl.responses_429)],
        ['Retry-After seen', rl.retry_after_seen ? 'yes' : 'no'],
        ['waited for 429s', `${(rl.waited_ms / 1000).toFixed(1)} s`],
        ['pace kept', `at most ${rl.max_per_second} requests within a second; at least ${rl.min_interval_ms} ms apart`],
      ],
      width,
    ),
  );
  out.push('');
  return out.join('\n');
}
