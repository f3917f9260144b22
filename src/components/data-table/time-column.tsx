/** The column every list has: a Unix-seconds time shown relative, exact on hover, newest first when sorted. */
import { RelativeTime } from '@/components/relative-time';

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
