/**
 * The Doctor's tables: the read operations, the console's screens and the conformance defects. Operations and
 * screens carry a column for the signed-in person: what their console roles allow, told apart from what the
 * credential may do, with the reason in words (naming the permission and that the console's policy refuses it).
 */
import type {
  ConformanceIssue,
  DoctorOperationResult,
  OperationOutcome,
  RoleCheck,
  ScreenCheck,
} from '@/api/console/doctor';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper } from '@/components/data-table';

export const OUTCOME: Record<OperationOutcome, { tone: Tone; text: string }> = {
  allowed: { tone: 'success', text: 'Allowed' },
  refused: { tone: 'danger', text: 'Refused' },
  not_present: { tone: 'warn', text: 'Not present' },
  failed: { tone: 'danger', text: 'Failed' },
  skipped: { tone: 'neutral', text: 'Skipped' },
};

/** An operation as the table shows it: what the credential met, and what the person's roles allow (null: unknown). */
export type OperationRow = DoctorOperationResult & { role: RoleCheck | null };
export type ScreenRow = ScreenCheck & { role: RoleCheck | null };

const ROLE_BADGE: Record<RoleCheck['allows'], { tone: Tone; text: string }> = {
  yes: { tone: 'success', text: 'Allowed' },
  some: { tone: 'info', text: 'Some organizations' },
  no: { tone: 'danger', text: 'Policy refuses' },
};

/** The person's column: a badge, and the reason in words beside it when the roles do not simply allow it. */
function RoleCell({ role }: { role: RoleCheck | null }) {
  if (!role) return <span className="text-muted">—</span>;
  const b = ROLE_BADGE[role.allows];
  return (
    <span className="flex flex-col items-start gap-0.5">
      <Badge tone={b.tone}>{b.text}</Badge>
      {role.allows !== 'yes' && <span className="text-xs">{role.why}</span>}
    </span>
  );
}

const roleColumnMeta = {
  width: 'minmax(13rem,1.2fr)',
  className: '[overflow-wrap:anywhere]',
  cellTitle: (r: { role: RoleCheck | null }) => r.role?.why,
};
const roleSort = (r: { role: RoleCheck | null }) => (r.role ? ['no', 'some', 'yes'].indexOf(r.role.allows) : 3);

const opCol = columnHelper<OperationRow>();
export const OPERATION_COLUMNS = opCol.columns([
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
  opCol.accessor(roleSort, {
    id: 'role',
    header: 'Your console roles',
    enableSorting: true,
    meta: roleColumnMeta,
    cell: ({ row }) => <RoleCell role={row.original.role} />,
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
      cellTitle: (r: OperationRow) => (r.outcome === 'allowed' ? r.request : r.detail) ?? undefined,
    },
  }),
]);

const screenCol = columnHelper<ScreenRow>();
export const SCREEN_COLUMNS = screenCol.columns([
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
  screenCol.accessor(roleSort, {
    id: 'role',
    header: 'Your console roles',
    enableSorting: true,
    meta: roleColumnMeta,
    cell: ({ row }) => <RoleCell role={row.original.role} />,
  }),
  screenCol.accessor('why', {
    header: 'Why',
    meta: { width: 'minmax(14rem,1.5fr)', className: '[overflow-wrap:anywhere] text-xs' },
  }),
]);

const issueCol = columnHelper<ConformanceIssue & { key: string }>();
export const ISSUE_COLUMNS = issueCol.columns([
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
