/** The enterprise overview: every organization of the enterprise, loaded page by page. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import type { Organization } from '@/api/operations/organizations';
import { columnHelper, DataTable } from '@/components/data-table';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { formatNumber } from '@/lib/format';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { rememberOrg } from '@/lib/last-org';

const col = columnHelper<Organization>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    enableSorting: true,
    enableHiding: false,
    meta: { width: 'minmax(12rem,2fr)', className: 'truncate' },
    cell: ({ row: { original: o } }) => (
      <Link
        to="/orgs/$orgId"
        params={{ orgId: o.org_id }}
        onClick={() => rememberOrg(o.org_id)}
        className="font-medium text-accent hover:underline"
        data-row-link
      >
        {o.name}
      </Link>
    ),
  }),
  col.accessor('org_id', {
    header: 'Organization id',
    meta: { width: 'minmax(10rem,1fr)', className: 'truncate font-mono text-xs text-muted' },
  }),
  col.accessor('created_at', {
    header: 'Created',
    enableSorting: true,
    sortDescFirst: true,
    meta: { width: 'minmax(8rem,1fr)' },
    cell: ({ getValue }) => <RelativeTime value={getValue()} />,
  }),
  col.accessor((o) => o.max_cycle_acu_limit ?? -1, {
    id: 'max_cycle_acu_limit',
    header: 'ACU limit per cycle',
    enableSorting: true,
    meta: { width: 'minmax(8rem,1fr)' },
    cell: ({ row: { original: o } }) =>
      o.max_cycle_acu_limit != null ? formatNumber(o.max_cycle_acu_limit) : 'No limit',
  }),
]);

export function OrganizationsOverview() {
  const query = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const [search, setSearch] = useState('');
  const total = query.data?.pages[0]?.total;
  const needle = search.trim().toLowerCase();
  const filter = useCallback((o: Organization) => `${o.name} ${o.org_id}`.toLowerCase().includes(needle), [needle]);
  return (
    <>
      <PageHeader
        title="Organizations"
        description={`The organizations of your enterprise${total != null ? ` (${formatNumber(total)})` : ''}. Choose one to manage its sessions, permissions and more.`}
        actions={
          <Input
            className="w-64"
            type="search"
            placeholder="Filter loaded organizations"
            aria-label="Filter organizations"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        }
      />
      <DataTable
        label="Organizations"
        tableId="organizations"
        columns={columns}
        query={query}
        filter={needle ? filter : undefined}
        getRowId={(o) => o.org_id}
        minWidth="44rem"
        empty={{ title: needle ? 'No organization matches the filter' : 'This enterprise has no organizations' }}
        className="h-auto max-h-[calc(100dvh-14rem)] min-h-40"
      />
    </>
  );
}
