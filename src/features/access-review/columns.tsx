/**
 * The stale-access table's columns: who (name and kind), their roles, when they last used compute units (or
 * why that could not be read), when their credential expires, and why they are listed.
 */
import { columnHelper } from '@/components/data-table';
import { principalColumns } from '@/components/principal-cells';
import { formatDateTime } from '@/lib/format';
import type { ReviewRow } from './review';

const dayFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

function Expiry({ row, now }: { row: ReviewRow; now: number }) {
  if (row.expires_at === undefined) return <span className="text-muted">Not published</span>;
  if (row.expires_at === null) return <span className="text-muted">Never</span>;
  const expired = row.expires_at <= now;
  return (
    <span className={expired ? 'text-danger' : row.expiring ? 'text-warn' : undefined}>
      {expired ? 'Expired ' : ''}
      {formatDateTime(row.expires_at)}
    </span>
  );
}

function reasons(row: ReviewRow, days: number): string[] {
  const out: string[] = [];
  if (row.unused) out.push(`No compute units in ${days} days`);
  if (row.expiring) out.push('Credential expires soon');
  if (row.usage_error) out.push('Usage could not be read');
  return out;
}

const col = columnHelper<ReviewRow>();
export function columnsFor(days: number, now: number) {
  return col.columns([
    ...principalColumns(col, { kindWidth: '7.5rem' }),
    col.accessor((r) => r.roles.join(', '), {
      id: 'roles',
      header: 'Roles',
      meta: { width: 'minmax(10rem,1.5fr)', className: 'truncate' },
      cell: ({ getValue }) => getValue() || <span className="text-muted">None</span>,
    }),
    col.accessor((r) => r.last_used ?? 0, {
      id: 'last_used',
      header: 'Last used',
      enableSorting: true,
      meta: { width: '9rem' },
      cell: ({ row }) =>
        row.original.usage_error ? (
          <span className="text-danger" title={row.original.usage_error}>
            Not read
          </span>
        ) : row.original.last_used === null ? (
          <span className="text-muted">Not in {days} days</span>
        ) : (
          dayFormat.format(row.original.last_used * 1000)
        ),
    }),
    col.accessor((r) => (typeof r.expires_at === 'number' ? r.expires_at : Number.MAX_SAFE_INTEGER), {
      id: 'expires_at',
      header: 'Credential expires',
      enableSorting: true,
      meta: { width: '10rem' },
      cell: ({ row }) => <Expiry row={row.original} now={now} />,
    }),
    col.accessor((r) => reasons(r, days).join('; '), {
      id: 'why',
      header: 'Why listed',
      meta: { width: 'minmax(10rem,1.3fr)' },
    }),
  ]);
}
