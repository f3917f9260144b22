/**
 * The organization switcher's button, in the shell on every screen. Its menu (a popover with a search box
 * and a listbox driven by the arrow keys) is code of its own, fetched when the admin points at or focuses
 * the button, so the first screen does not carry the popover library.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, useState } from 'react';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { lastOrg } from '@/lib/last-org';
import { SwitcherButton } from './org-switcher-button';

const loadMenu = () => import('./org-switcher-menu');
const OrgSwitcherMenu = lazy(loadMenu);
const preload = () => void loadMenu().catch(() => undefined);

export function OrgSwitcher() {
  const params = useParams({ strict: false }) as { orgId?: string };
  // On enterprise screens the organization links lead to the last organization: the switcher names it too.
  const orgId = params.orgId ?? lastOrg() ?? undefined;
  const query = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const orgs = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const current = orgs.find((o) => o.org_id === orgId);
  const label = current ? current.name : (orgId ?? 'Choose an organization');
  const [wanted, setWanted] = useState(false);

  const placeholder = (
    <SwitcherButton
      label={label}
      aria-expanded={false}
      onPointerEnter={preload}
      onFocus={preload}
      onClick={() => setWanted(true)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          setWanted(true);
        }
      }}
    />
  );
  if (!wanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <OrgSwitcherMenu label={label} currentOrgId={orgId} />
    </Suspense>
  );
}
