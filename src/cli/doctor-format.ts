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

/** Width of the output when the terminal does not say (piped to a file or another program). */
export const DEFAULT_WIDTH = 100;

/** A column narrower than this wraps too much to read; the line then runs past the width instead. */
const MIN_COLUMN = 8;
const LAST_COLUMN = 24;

/**
 * `text` in lines of at most `width` characters (the first line `first`), broken between words; a longer word
 * (a path, an id) is broken after a `/`, `?`, `&`, `,` or `_` where it can be, else cut.
 */
export function wrap(text: string, width: number, first = width): string[] {
  const lines: string[] = [];
  const room = () => Math.max(1, lines.length === 0 ? first : width);
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    if (line !== '' && line.length + 1 + rest.length <= room()) {
      line += ` ${rest}`;
      continue;
    }
    if (line !== '') lines.push(line);
    while (rest.length > room()) {
      const cut = Math.max(...['/', '?', '&', ',', '_'].map((c) => rest.lastIndexOf(c, room() - 1)));
      const at = cut > 0 ? cut + 1 : room();
      lines.push(rest.slice(0, at));
      rest = rest.slice(at);
    }
    line = rest;
  }
  lines.push(line);
  return lines;
}

/**
 * A plain-text table that fits `width`: columns padded to their widest cell; while the line is too wide, the
 * last column, then the widest, is narrowed and its cells wrap onto further lines (nothing is cut off). Rules
 * are as wide as their column.
 */
export function table(headers: string[], rows: string[][], width: number): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const lineWidth = () => widths.reduce((a, w) => a + w, 0) + 2 * widths.length;
  // The last column (free text: details, reasons) gives way first, down to a readable width; then the widest.
  const last = widths.length - 1;
  widths[last] = Math.max(Math.min(widths[last]!, LAST_COLUMN), widths[last]! - Math.max(0, lineWidth() - width));
  while (lineWidth() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    const floor = Math.max(MIN_COLUMN, headers[widest]!.length);
    if (widths[widest]! <= floor) break;
    // Down to the next widest column at most, so that the narrowing is shared between wide columns.
    const next = Math.max(...widths.filter((_, i) => i !== widest), 0);
    const to = Math.max(floor, widths[widest]! - (lineWidth() - width), next);
    widths[widest] = to < widths[widest]! ? to : widths[widest]! - 1;
  }
  const line = (cells: string[]) => {
    const wrapped = cells.map((c, i) => wrap(c, widths[i]!));
    const height = Math.max(...wrapped.map((w) => w.length));
    return Array.from({ length: height }, (_, n) =>
      `  ${wrapped.map((w, i) => (w[n] ?? '').padEnd(widths[i]!)).join('  ')}`.trimEnd(),
    );
  };
  return [...line(headers), `  ${widths.map((w) => '─'.repeat(w)).join('  ')}`, ...rows.flatMap(line)];
}

const time = (s: number | null) => (s === null ? '—' : new Date(s * 1000).toISOString().replace('.000Z', 'Z'));

/** The report's lines as they are written, with the section's helpers. */
interface Writer {
  out: string[];
  color: boolean;
  width: number;
  /** A line of prose, wrapped to the width with its continuation lines indented. */
  say(text: string, indent?: string): void;
  /** A numbered section's title and its verdict. */
  heading(n: number, title: string, v: DoctorVerdict): void;
}

function writer({ color, width }: FormatOptions): Writer {
  const out: string[] = [];
  return {
    out,
    color,
    width,
    say(text, indent = '  ') {
      const [first, ...rest] = wrap(text, width - indent.length - 2, width - indent.length);
      out.push(`${indent}${first}`, ...rest.map((l) => `${indent}  ${l}`));
    },
    heading(n, title, v) {
      out.push('');
      // Measured unpainted: escape codes take no room on the screen.
      const head = `${n}. ${title}  [${LABEL[v.level]}] `;
      const [first, ...rest] = wrap(v.line, width - 2, width - head.length);
      out.push(
        `${paint(`${n}. ${title}`, '1', color)}  ${paint(`[${LABEL[v.level]}]`, COLOR[v.level], color)} ${first}`,
        ...rest.map((l) => `  ${l}`),
      );
    },
  };
}

export function formatReport(report: DoctorReport, opts: FormatOptions): string {
  const w = writer(opts);
  writeSummary(w, report);
  writeReach(w, report.reach);
  writeIdentity(w, report.identity);
  writeOperations(w, report.operations);
  // A report without its screens (written before they were part of it): marked from its operations.
  writeScreens(
    w,
    report.screens ?? screenChecks(report.operations.items, CONSOLE_SCREENS, report.conformance.not_published),
  );
  writeConformance(w, report.conformance);
  writeRateLimit(w, report.rate_limit);
  w.out.push('');
  return w.out.join('\n');
}

/** What was checked, when, how long it took, and the overall verdict. */
function writeSummary({ out, color, width }: Writer, report: DoctorReport) {
  out.push(
    `${paint('Agent Platform doctor', '1', color)}: ${report.target.base_url} (${report.target.mode === 'sandbox' ? 'embedded sandbox' : 'configured upstream'}), ${time(report.started_at)}, ${(report.duration_ms / 1000).toFixed(1)} s`,
  );
  const verdict = `[${LABEL[report.verdict.level]}]`;
  const [first, ...rest] = wrap(report.verdict.line, width - 2, width - verdict.length - 1);
  out.push(`${paint(verdict, COLOR[report.verdict.level], color)} ${first}`, ...rest.map((l) => `  ${l}`));
}

function writeReach(w: Writer, r: DoctorReport['reach']) {
  w.heading(1, 'Reach', r.verdict);
  w.out.push(
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
      w.width,
    ),
  );
}

function writeIdentity(w: Writer, id: DoctorReport['identity']) {
  w.heading(2, 'Identity', id.verdict);
  const p = id.principal;
  w.out.push(
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
      w.width,
    ),
  );
}

/** Each operation tried with the credential, then the paths an upstream serves an operation at. */
function writeOperations(w: Writer, ops: DoctorReport['operations']) {
  const { out, color, width } = w;
  w.heading(3, 'What this credential may do', ops.verdict);
  const c = ops.counts;
  w.say(
    `${c.allowed} allowed, ${c.refused} refused, ${c.not_present} not present, ${c.failed} failed, ${c.skipped} skipped`,
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
    for (const p of paths) w.say(p.line);
  }
}

/** Which screens of the console work with this credential (part of section 3, under its own verdict). */
function writeScreens({ out, color, width }: Writer, screens: NonNullable<DoctorReport['screens']>) {
  const v = screensVerdict(screens);
  out.push('');
  const [first, ...rest] = wrap(v.line, width - 4, width - `  Screens of the console  [${LABEL[v.level]}] `.length);
  out.push(
    `  ${paint('Screens of the console', '1', color)}  ${paint(`[${LABEL[v.level]}]`, COLOR[v.level], color)} ${first}`,
    ...rest.map((l) => `    ${l}`),
  );
  out.push(
    ...table(
      ['SCREEN', 'NEEDS', 'WORKS', 'WHY'],
      screens.map((s) => [`${s.section}: ${s.label}`, s.permission, s.works, s.why]),
      width,
    ),
  );
}

function writeConformance(w: Writer, conf: DoctorReport['conformance']) {
  w.heading(4, 'Conformance', conf.verdict);
  w.say(
    `${conf.checked} answers checked, ${conf.conforming} conforming; ${conf.unknown_fields.count} unknown extra fields (counted, not errors)`,
  );
  if (conf.issues.length > 0) {
    w.out.push(
      ...table(
        ['OPERATION', 'WHERE', 'DEFECT', 'WHAT'],
        conf.issues.map((i) => [i.operation_id, i.where, i.kind.replace(/_/g, ' '), i.message]),
        w.width,
      ),
    );
  }
}

function writeRateLimit(w: Writer, rl: DoctorReport['rate_limit']) {
  w.heading(5, 'Rate limiting', rl.verdict);
  w.out.push(
    ...table(
      ['CHECK', 'RESULT'],
      [
        ['requests', String(rl.requests)],
        ['429 answers', String(rl.responses_429)],
        ['Retry-After seen', rl.retry_after_seen ? 'yes' : 'no'],
        ['waited for 429s', `${(rl.waited_ms / 1000).toFixed(1)} s`],
        ['pace kept', `at most ${rl.max_per_second} requests within a second; at least ${rl.min_interval_ms} ms apart`],
      ],
      w.width,
    ),
  );
}
