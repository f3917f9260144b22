/**
 * The enterprise overview: every organization of the enterprise, loaded page by page. It is the first screen,
 * so it is a plain table (an enterprise has tens of organizations, not thousands): the data table's library
 * stays off the first screen and loads with the screens that need it.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { EmptyState, PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';
import { rememberOrg } from '@/lib/last-org';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';

const TH = 'sticky top-0 z-10 bg-surface-2 px-3 py-2 text-left text-xs font-semibold text-muted';
const TD = 'border-t border-line px-3 py-2 align-middle';

export function OrganizationsOverview() {
  const query = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const [search, setSearch] = useState('');
  const orgs = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total;
  const needle = search.trim().toLowerCase();
  const shown = needle ? orgs.filter((o) => `${o.name} ${o.org_id}`.toLowerCase().includes(needle)) : orgs;
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
      {query.error && orgs.length === 0 ? (
        <ProblemView error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <div className="max-h-[calc(100dvh-14rem)] min-h-40 overflow-auto rounded-lg border border-line bg-surface">
          <table aria-label="Organizations" aria-busy={query.isPending} className="w-full min-w-[44rem] text-sm">
            <thead>
              <tr>
                <th scope="col" className={TH}>
                  Name
                </th>
                <th scope="col" className={TH}>
                  Organization id
                </th>
                <th scope="col" className={TH}>
                  Created
                </th>
                <th scope="col" className={TH}>
                  ACU limit per cycle
                </th>
              </tr>
            </thead>
            <tbody>
              {query.isPending
                ? Array.from({ length: 4 }, (_, i) => (
                    <tr key={i}>
                      {Array.from({ length: 4 }, (__, j) => (
                        <td key={j} className={TD}>
                          <Skeleton className="h-4 w-3/4" />
                        </td>
                      ))}
                    </tr>
                  ))
                : shown.map((o) => (
                    <tr key={o.org_id} className="hover:bg-surface-2">
                      <td className={`${TD} max-w-0 truncate`}>
                        <Link
                          to="/orgs/$orgId"
                          params={{ orgId: o.org_id }}
                          onClick={() => rememberOrg(o.org_id)}
                          className="font-medium text-accent underline underline-offset-2 hover:no-underline"
                        >
                          {o.name}
                        </Link>
                      </td>
                      <td className={`${TD} font-mono text-xs text-muted`}>{o.org_id}</td>
                      <td className={TD}>
                        <RelativeTime value={o.created_at} />
                      </td>
                      <td className={TD}>
                        {o.max_cycle_acu_limit != null ? formatNumber(o.max_cycle_acu_limit) : 'No limit'}
                      </td>
                    </tr>
                  ))}
            </tbody>
          </table>
          {!query.isPending && shown.length === 0 && (
            <EmptyState
              title={needle ? 'No organization matches the filter' : 'This enterprise has no organizations'}
            />
          )}
        </div>
      )}
      {!query.isPending && (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
          <span aria-live="polite">
            Loaded {formatNumber(needle ? shown.length : orgs.length)}
            {!needle && total != null ? ` of ${formatNumber(total)}` : ''}
            {query.hasNextPage ? '' : ' (all)'}
          </span>
          {query.hasNextPage && (
            <Button size="sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
              {query.isFetchingNextPage ? 'Loading…' : 'Load more organizations'}
            </Button>
          )}
        </div>
      )}
    </>
  );
}
