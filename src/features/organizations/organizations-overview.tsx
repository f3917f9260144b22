/** The enterprise overview: every organization of the enterprise, loaded page by page. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { CursorList, cursorListState } from '@/components/cursor-list';
import { inputClass } from '@/components/field';
import { PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { formatNumber } from '@/lib/format';
import { organizationsInfiniteQueryOptions } from './api';
import { rememberOrg } from './last-org';

export function OrganizationsOverview() {
  const query = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const [search, setSearch] = useState('');
  const orgs = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total;
  const shown = search
    ? orgs.filter((o) => `${o.name} ${o.org_id}`.toLowerCase().includes(search.toLowerCase()))
    : orgs;
  return (
    <>
      <PageHeader
        title="Organizations"
        description={`The organizations of your enterprise${total != null ? ` (${formatNumber(total)})` : ''}. Choose one to manage its sessions, permissions and more.`}
        actions={
          <input
            className={`${inputClass} w-64`}
            type="search"
            placeholder="Filter loaded organizations"
            aria-label="Filter organizations"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        }
      />
      <CursorList
        ariaLabel="Organizations"
        items={shown}
        getKey={(o) => o.org_id}
        columns="minmax(12rem,2fr) minmax(10rem,1fr) minmax(8rem,1fr) minmax(8rem,1fr)"
        minWidth="44rem"
        header={
          <>
            <span role="columnheader">Name</span>
            <span role="columnheader">Organization id</span>
            <span role="columnheader">Created</span>
            <span role="columnheader">ACU limit per cycle</span>
          </>
        }
        renderRow={(o) => (
          <>
            <span role="cell" className="truncate">
              <Link
                to="/orgs/$orgId"
                params={{ orgId: o.org_id }}
                onClick={() => rememberOrg(o.org_id)}
                className="font-medium text-accent hover:underline"
              >
                {o.name}
              </Link>
            </span>
            <span role="cell" className="truncate font-mono text-xs text-muted">
              {o.org_id}
            </span>
            <span role="cell">
              <RelativeTime value={o.created_at} />
            </span>
            <span role="cell">{o.max_cycle_acu_limit != null ? formatNumber(o.max_cycle_acu_limit) : 'No limit'}</span>
          </>
        )}
        total={search ? shown.length : total}
        {...cursorListState(query)}
        emptyTitle={search ? 'No organization matches the filter' : 'This enterprise has no organizations'}
        className="h-auto max-h-[calc(100dvh-14rem)] min-h-40"
      />
    </>
  );
}
