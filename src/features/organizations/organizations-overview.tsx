/**
 * The enterprise overview: every organization of the enterprise, loaded page by page. It is the first screen,
 * so it is a plain table (an enterprise has tens of organizations, not thousands): the data table's library
 * stays off the first screen and loads with the screens that need it. Creating, renaming, changing the ACU
 * limits of and deleting an organization happen in dialogs whose code (the form kit) loads when one opens.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ChevronDown, ChevronRight, Gauge, Pencil, Plus, Trash2 } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { Organization } from '@/api/operations/organizations';
import { EmptyState, PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';
import { rememberOrg } from '@/lib/last-org';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import type { OrganizationAction } from './organization-dialogs';

const loadDialogs = () => import('./organization-dialogs');
const OrganizationDialogs = lazy(loadDialogs);
// The history's table library loads only when the history is opened: this is the first screen.
const SettingsHistory = lazy(() => import('./settings-history').then((m) => ({ default: m.SettingsHistory })));
const preloadDialogs = () => void loadDialogs().catch(() => undefined);
const limitText = (n: number | null | undefined) => (n != null ? formatNumber(n) : 'No limit');

const TH = 'sticky top-0 z-10 bg-surface-2 px-3 py-2 text-left text-xs font-semibold text-muted';
const TD = 'border-t border-line px-3 py-2 align-middle';

export function OrganizationsOverview() {
  const query = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const [search, setSearch] = useState('');
  const orgs = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total;
  const needle = search.trim().toLowerCase();
  const canManage = useHasPermission('ManageOrganizations');
  const denied = missingPermissionTitle('ManageOrganizations', canManage);
  const [action, setAction] = useState<OrganizationAction | null>(null);
  const act = (next: OrganizationAction) => {
    preloadDialogs();
    setAction(next);
  };
  const shown = needle ? orgs.filter((o) => `${o.name} ${o.org_id}`.toLowerCase().includes(needle)) : orgs;
  const empty = needle ? 'No organization matches the filter' : 'This enterprise has no organizations';
  return (
    <>
      <PageHeader
        title="Organizations"
        description={`The organizations of your enterprise${total != null ? ` (${formatNumber(total)})` : ''}. Choose one to manage its sessions, permissions and more.`}
        actions={
          <>
            <Button
              variant="primary"
              disabled={canManage === false}
              title={denied}
              onPointerEnter={preloadDialogs}
              onFocus={preloadDialogs}
              onClick={() => act({ kind: 'create' })}
            >
              <Plus className="size-4" aria-hidden /> Create organization
            </Button>
            <Input
              className="w-64"
              type="search"
              placeholder="Filter loaded organizations"
              aria-label="Filter organizations"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </>
        }
      />
      {canManage === false && denied && (
        <p className="mb-2 text-sm text-muted" data-testid="organizations-disabled-reason">
          Create, rename, limits and delete are disabled: {denied}
        </p>
      )}
      {query.error && orgs.length === 0 ? (
        <ProblemView error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <OrganizationCards
            orgs={shown}
            pending={query.isPending}
            empty={empty}
            disabled={canManage === false}
            title={denied}
            onAction={act}
          />
          <OrganizationsTable
            orgs={shown}
            pending={query.isPending}
            empty={empty}
            disabled={canManage === false}
            title={denied}
            onAction={act}
          />
        </>
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
      <OrganizationsHistory />
      {action !== null && (
        <Suspense fallback={null}>
          <OrganizationDialogs action={action} onClose={() => setAction(null)} />
        </Suspense>
      )}
    </>
  );
}

interface ListProps {
  orgs: readonly Organization[];
  pending: boolean;
  /** What the list says when it has no rows (no organizations, or none matching the filter). */
  empty: string;
  disabled: boolean;
  title: string | undefined;
  onAction: (a: OrganizationAction) => void;
}

/** On a wide screen the organizations are a plain table (see the module comment for why not the data table). */
function OrganizationsTable({ orgs, pending, empty, disabled, title, onAction }: ListProps) {
  return (
    <div className="hidden max-h-[calc(100dvh-14rem)] min-h-40 overflow-auto rounded-lg border border-line bg-surface md:block">
      <table aria-label="Organizations" aria-busy={pending} className="w-full min-w-[56rem] text-sm">
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
            <th scope="col" className={TH}>
              ACU limit per session
            </th>
            <th scope="col" className={TH}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {pending
            ? Array.from({ length: 4 }, (_, i) => (
                <tr key={i}>
                  {Array.from({ length: 6 }, (__, j) => (
                    <td key={j} className={TD}>
                      <Skeleton className="h-4 w-3/4" />
                    </td>
                  ))}
                </tr>
              ))
            : orgs.map((o) => (
                <tr key={o.org_id} className="hover:bg-surface-2">
                  <td className={`${TD} max-w-72 min-w-48 truncate`}>
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
                  <td className={`${TD} tabular-nums`}>{limitText(o.max_cycle_acu_limit)}</td>
                  <td className={`${TD} tabular-nums`}>{limitText(o.max_session_acu_limit)}</td>
                  <td className={`${TD} whitespace-nowrap`}>
                    <RowActions org={o} disabled={disabled} title={title} onAction={onAction} />
                  </td>
                </tr>
              ))}
        </tbody>
      </table>
      {!pending && orgs.length === 0 && <EmptyState title={empty} />}
    </div>
  );
}

/** The history of organizations, closed until asked for: its table library stays off the first screen. */
function OrganizationsHistory() {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-8 flex flex-col gap-2">
      <Button
        variant="ghost"
        className="self-start"
        aria-expanded={open}
        aria-controls="organizations-history"
        onClick={() => setOpen((o) => !o)}
      >
        {open ? <ChevronDown className="size-4" aria-hidden /> : <ChevronRight className="size-4" aria-hidden />}
        History of organizations
      </Button>
      <div id="organizations-history">
        {open && (
          <Suspense fallback={<Skeleton className="h-24 w-full" />}>
            <SettingsHistory
              title="History of organizations"
              description="Organizations created, renamed, limited and deleted through this console, newest first, with who made each change. A change made elsewhere shows as “Changed outside the console”. A deleted organization cannot be restored."
              filter={{ kind: ['organization', 'acu-limit'] }}
            />
          </Suspense>
        )}
      </div>
    </div>
  );
}

function RowActions({
  org,
  disabled,
  title,
  onAction,
}: {
  org: Organization;
  disabled: boolean;
  title: string | undefined;
  onAction: (a: OrganizationAction) => void;
}) {
  const common = { size: 'sm', variant: 'ghost', disabled, title, onPointerEnter: preloadDialogs } as const;
  return (
    <div className="flex flex-wrap gap-1">
      <Button {...common} aria-label={`Rename ${org.name}`} onClick={() => onAction({ kind: 'rename', org })}>
        <Pencil className="size-3.5" aria-hidden /> Rename
      </Button>
      <Button {...common} aria-label={`ACU limits of ${org.name}`} onClick={() => onAction({ kind: 'limits', org })}>
        <Gauge className="size-3.5" aria-hidden /> Limits
      </Button>
      <Button
        {...common}
        className="text-danger"
        aria-label={`Delete ${org.name}`}
        onClick={() => onAction({ kind: 'delete', org })}
      >
        <Trash2 className="size-3.5" aria-hidden /> Delete
      </Button>
    </div>
  );
}

/** On a phone each organization is a card: its name, id and limits, with its actions below. */
function OrganizationCards({ orgs, pending, empty, disabled, title, onAction }: ListProps) {
  if (pending) return <Skeleton className="h-32 w-full md:hidden" />;
  if (orgs.length === 0)
    return (
      <div className="md:hidden">
        <EmptyState title={empty} />
      </div>
    );
  return (
    <ul aria-label="Organizations" className="flex flex-col gap-2 md:hidden">
      {orgs.map((o) => (
        <li key={o.org_id} className="flex min-w-0 flex-col gap-1 rounded-lg border border-line bg-surface p-3 text-sm">
          <Link
            to="/orgs/$orgId"
            params={{ orgId: o.org_id }}
            onClick={() => rememberOrg(o.org_id)}
            className="font-medium break-words text-accent underline underline-offset-2 hover:no-underline"
          >
            {o.name}
          </Link>
          <span className="font-mono text-xs break-all text-muted">{o.org_id}</span>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt className="text-muted">Created</dt>
            <dd>
              <RelativeTime value={o.created_at} />
            </dd>
            <dt className="text-muted">ACU limit per cycle</dt>
            <dd className="tabular-nums">{limitText(o.max_cycle_acu_limit)}</dd>
            <dt className="text-muted">ACU limit per session</dt>
            <dd className="tabular-nums">{limitText(o.max_session_acu_limit)}</dd>
          </dl>
          <RowActions org={o} disabled={disabled} title={title} onAction={onAction} />
        </li>
      ))}
    </ul>
  );
}
