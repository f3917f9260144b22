/**
 * The cells every table of members and service users begins with: the name with its email (a member) or id (a
 * service user) beneath it, and a badge saying which of the two it is. Shared by the screens that list both
 * kinds side by side (consumption per person, stale access), so they read alike.
 */
import type { ColumnHelper } from '@tanstack/react-table';
import type { DataTableFeatures } from './data-table';
import { Badge } from './badge';

export function PrincipalNameCell({ name, secondary }: { name: string; secondary: string | null }) {
  return (
    <div className="min-w-0">
      <div className="truncate font-medium">{name}</div>
      {secondary && <div className="truncate font-mono text-xs text-muted">{secondary}</div>}
    </div>
  );
}

export function PrincipalKindBadge({ kind }: { kind: 'member' | 'service_user' }) {
  return <Badge tone={kind === 'member' ? 'info' : 'neutral'}>{kind === 'member' ? 'Member' : 'Service user'}</Badge>;
}

/** A row of such a table: a member or a service user, named. */
interface PrincipalRow {
  name: string;
  secondary: string | null;
  kind: 'member' | 'service_user';
}

/** The two columns those tables begin with: Name (with its email or id beneath) and Kind. */
export function principalColumns<Row extends PrincipalRow>(
  col: ColumnHelper<DataTableFeatures, Row>,
  { kindWidth = '8rem' } = {},
) {
  return [
    col.accessor((r) => r.name, {
      id: 'name',
      header: 'Name',
      enableHiding: false,
      enableSorting: true,
      meta: { width: 'minmax(12rem,2fr)', card: 'title' },
      cell: ({ row }) => <PrincipalNameCell name={row.original.name} secondary={row.original.secondary} />,
    }),
    col.accessor((r) => r.kind, {
      id: 'kind',
      header: 'Kind',
      enableSorting: true,
      meta: { width: kindWidth, card: 'aside' },
      cell: ({ getValue }) => <PrincipalKindBadge kind={getValue()} />,
    }),
  ] as const;
}
