/**
 * The enterprise's git connections: the smallest list screen, and the model for a new one — its columns and
 * its query, handed to the data table. Nothing else.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { GitConnection } from '@/api/git-permissions/resources';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { gitConnectionsInfiniteQueryOptions } from './api';

const col = columnHelper<GitConnection>();

const columns = col.columns([
  col.accessor((c) => c.name ?? c.host, {
    id: 'name',
    header: 'Name',
    enableSorting: true,
    enableHiding: false,
    meta: { width: 'minmax(12rem,1.5fr)', className: 'truncate font-medium' },
  }),
  col.accessor('host', { header: 'Host', enableSorting: true, meta: { width: 'minmax(10rem,1fr)' } }),
  col.accessor('git_provider_type', { header: 'Provider', enableSorting: true, meta: { width: '12rem' } }),
  col.accessor('git_connection_id', {
    header: 'Connection id',
    meta: { width: 'minmax(10rem,1fr)', className: 'truncate font-mono text-xs' },
  }),
  col.accessor('created_at', { header: 'Created', ...timeColumn({ width: '8rem' }) }),
]);

export function GitConnectionsScreen() {
  const query = useInfiniteQuery(gitConnectionsInfiniteQueryOptions());
  return (
    <>
      <PageHeader
        title="Git connections"
        description="The git hosts the enterprise's agents reach; git permissions of each organization name one of them."
      />
      <DataTable
        label="Git connections"
        tableId="git-connections"
        columns={columns}
        query={query}
        getRowId={(c) => c.git_connection_id}
        empty={{ title: 'No git connections yet' }}
      />
    </>
  );
}
