/** The Access column of the lists of knowledge notes and playbooks: a document's access type as its badge. */
import { columnHelper } from '../data-table/features';
import { AccessBadge, type DocumentAccessType } from './access';

export function accessColumn<T extends { access_type: DocumentAccessType; org_id?: string | null }>() {
  return columnHelper<T>().accessor((d) => d.access_type, {
    id: 'access_type',
    header: 'Access',
    enableSorting: true,
    meta: { width: '7.5rem' },
    cell: ({ row }) => <AccessBadge document={row.original} />,
  });
}
