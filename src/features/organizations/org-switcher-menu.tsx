/**
 * The organization switcher's menu: a search box over every organization (all pages, read as needed) and a
 * listbox the arrow keys move through (Home/End, PageUp/PageDown), Enter chooses, Escape closes and focus
 * returns to the button. Choosing keeps the area the admin is in: /orgs/A/sessions → /orgs/B/sessions.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { Check } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { useActiveOption } from '@/components/ui/use-active-option';
import { rememberOrg } from '@/lib/last-org';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { SwitcherButton } from './org-switcher-button';

/** Most organization pages the switcher reads (100 each). */
const MAX_PAGES = 50;

export default function OrgSwitcherMenu({ label, currentOrgId }: { label: string; currentOrgId?: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  // Mounted on the admin's first click or arrow key: open at once.
  const [open, setOpen] = useState(true);
  const [search, setSearch] = useState('');
  const query = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const pages = query.data?.pages.length ?? 0;
  useEffect(() => {
    // The search covers every organization: read the remaining pages while the menu is open.
    if (open && hasNextPage && !isFetchingNextPage && pages < MAX_PAGES) void fetchNextPage();
  }, [open, hasNextPage, isFetchingNextPage, pages, fetchNextPage]);

  const orgs = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const q = search.trim().toLowerCase();
  const shown = q ? orgs.filter((o) => o.name.toLowerCase().includes(q) || o.org_id.toLowerCase().includes(q)) : orgs;
  const { activeIndex, setActive, onKeyDown, listRef, listId, optionId, activeDescendant } = useActiveOption(shown, {
    open,
    onChoose: (o) => choose(o.org_id),
  });

  const openWith = (next: boolean) => {
    if (next) {
      setSearch('');
      setActive(
        Math.max(
          0,
          orgs.findIndex((o) => o.org_id === currentOrgId),
        ),
      );
    }
    setOpen(next);
  };
  // Start on the current organization.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || orgs.length === 0) return;
    started.current = true;
    setActive(
      Math.max(
        0,
        orgs.findIndex((o) => o.org_id === currentOrgId),
      ),
    );
  }, [orgs, currentOrgId, setActive]);

  function choose(orgId: string) {
    rememberOrg(orgId);
    setOpen(false);
    const area = /^\/orgs\/[^/]+\/([^/]+)/.exec(location.pathname)?.[1];
    if (area) void navigate({ to: `/orgs/$orgId/${area}` as '/orgs/$orgId', params: { orgId } });
    else void navigate({ to: '/orgs/$orgId', params: { orgId } });
  }

  return (
    <Popover open={open} onOpenChange={openWith}>
      <PopoverTrigger asChild>
        <SwitcherButton
          label={label}
          onKeyDown={(e) => {
            if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !open) {
              e.preventDefault();
              openWith(true);
            }
          }}
        />
      </PopoverTrigger>
      <PopoverContent className="flex w-72 flex-col p-0">
        <input
          type="text"
          autoFocus
          aria-label="Search organizations"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeDescendant}
          placeholder="Search organizations…"
          autoComplete="off"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="h-9 border-b border-line bg-transparent px-2.5 text-sm outline-none placeholder:text-muted"
        />
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label="Organizations"
          className="max-h-72 overflow-y-auto p-1"
        >
          {shown.map((o, i) => (
            <li
              key={o.org_id}
              id={optionId(i)}
              data-index={i}
              role="option"
              aria-selected={o.org_id === currentOrgId}
              data-active={i === activeIndex || undefined}
              onMouseMove={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(o.org_id)}
              className="relative flex cursor-default flex-col rounded py-1.5 pr-2 pl-7 text-sm select-none data-[active]:bg-surface-2"
            >
              {o.org_id === currentOrgId && (
                <Check className="absolute top-2 left-2 size-3.5 text-accent" aria-hidden />
              )}
              <span className="truncate font-medium">{o.name}</span>
              <span className="truncate font-mono text-xs text-muted">{o.org_id}</span>
            </li>
          ))}
        </ul>
        {query.isPending && <p className="px-3 pb-3 text-sm text-muted">Loading organizations…</p>}
        {query.isError && <p className="px-3 pb-3 text-sm text-danger">Could not load organizations.</p>}
        {!query.isPending && shown.length === 0 && (
          <p className="px-3 pb-3 text-sm text-muted">No organization matches “{search}”.</p>
        )}
      </PopoverContent>
    </Popover>
  );
}
