/**
 * The organization switcher: a searchable list fed by the enterprise organizations list (all pages, loaded
 * as the admin scrolls). Choosing one navigates to the same screen of that organization.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from '@tanstack/react-router';
import { Popover } from 'radix-ui';
import { useMemo, useState } from 'react';
import { ChevronsUpDown } from 'lucide-react';
import { inputClass } from '@/components/field';
import { cn } from '@/lib/cn';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { rememberOrg } from '@/lib/last-org';

export function OrgSwitcher() {
  const params = useParams({ strict: false }) as { orgId?: string };
  const location = useLocation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const query = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const orgs = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const current = orgs.find((o) => o.org_id === params.orgId);
  const filtered = orgs.filter(
    (o) => o.name.toLowerCase().includes(search.toLowerCase()) || o.org_id.includes(search.toLowerCase()),
  );

  const choose = (orgId: string) => {
    rememberOrg(orgId);
    setOpen(false);
    setSearch('');
    // Keep the area the admin is in: /orgs/A/sessions → /orgs/B/sessions (but not A's detail pages).
    const m = /^\/orgs\/[^/]+\/([^/]+)/.exec(location.pathname);
    const area = m?.[1];
    if (area) void navigate({ to: `/orgs/$orgId/${area}` as '/orgs/$orgId', params: { orgId } });
    else void navigate({ to: '/orgs/$orgId', params: { orgId } });
  };

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        className="flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-line bg-surface px-2.5 text-left text-sm hover:bg-surface-2"
        aria-label="Switch organization"
      >
        <span className="truncate">
          {current ? current.name : params.orgId ? params.orgId : 'Choose an organization'}
        </span>
        <ChevronsUpDown className="size-4 shrink-0 text-muted" aria-hidden />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-50 w-72 rounded-lg border border-line bg-surface p-2 shadow-lg"
        >
          <input
            autoFocus
            className={inputClass}
            placeholder="Search organizations"
            aria-label="Search organizations"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <ul
            role="listbox"
            aria-label="Organizations"
            className="mt-2 max-h-72 overflow-auto"
            onScroll={(e) => {
              const el = e.currentTarget;
              if (
                el.scrollTop + el.clientHeight > el.scrollHeight - 40 &&
                query.hasNextPage &&
                !query.isFetchingNextPage
              ) {
                void query.fetchNextPage();
              }
            }}
          >
            {query.isPending && <li className="p-2 text-sm text-muted">Loading…</li>}
            {query.isError && <li className="p-2 text-sm text-danger">Could not load organizations.</li>}
            {filtered.map((o) => (
              <li key={o.org_id} role="option" aria-selected={o.org_id === params.orgId}>
                <button
                  type="button"
                  onClick={() => choose(o.org_id)}
                  className={cn(
                    'flex w-full flex-col rounded-md px-2 py-1.5 text-left text-sm hover:bg-surface-2',
                    o.org_id === params.orgId && 'bg-accent/10',
                  )}
                >
                  <span className="font-medium">{o.name}</span>
                  <span className="font-mono text-xs text-muted">{o.org_id}</span>
                </button>
              </li>
            ))}
            {!query.isPending && filtered.length === 0 && (
              <li className="p-2 text-sm text-muted">No organization matches “{search}”.</li>
            )}
            {query.hasNextPage && (
              <li>
                <button
                  type="button"
                  className="w-full p-2 text-xs text-accent"
                  onClick={() => void query.fetchNextPage()}
                >
                  Load more organizations
                </button>
              </li>
            )}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
