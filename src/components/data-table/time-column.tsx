/** The column every list has: a Unix-seconds time shown relative, exact on hover, newest first when sorted. */
import { RelativeTime } from '@/components/relative-time';
import { formatDateTime, formatUtc } from '@/lib/format';

/**
 * Spread into an accessor of a Unix-seconds field: `col.accessor('created_at', { header: 'Created',
 * ...timeColumn() })`. `sortable: false` when the API cannot sort by it.
 */
export function timeColumn({
  sortable = true,
  width = '6.5rem',
  card,
}: {
  sortable?: boolean;
  width?: string;
  /** Its place on a phone's card (see DataTableColumnMeta.card). */
  card?: 'field' | 'hidden';
} = {}) {
  return {
    enableSorting: sortable,
    sortDescFirst: true,
    meta: { width, className: 'text-xs', card },
    cell: ({ getValue }: { getValue: () => number | null | undefined }) => <RelativeTime value={getValue()} />,
  };
}

/**
 * A log's time column (audit logs, violations): the exact local date and time, UTC on hover, sorted through the
 * URL by the API. Spread into an accessor: `col.accessor('created_at', { header: 'Time', ...exactTimeColumn(…) })`.
 */
export function exactTimeColumn<Row>(
  at: (row: Row) => number,
  { width, className }: { width: string; className: string },
) {
  return {
    enableSorting: true,
    enableHiding: false,
    meta: { width, className, cellTitle: (row: Row) => `${formatUtc(at(row))} (UTC)` },
    cell: ({ getValue }: { getValue: () => number }) => formatDateTime(getValue()),
  };
}
