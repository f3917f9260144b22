/**
 * A sessions list, of one organization or across organizations: its columns and its query on the data table,
 * filters in the URL, and live statuses for the sessions in view (see `live.ts`).
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useMemo, useState, useSyncExternalStore } from 'react';
import type { Session } from '@/api/operations/sessions';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable, RowLink, timeColumn } from '@/components/data-table';
import type { RowSelectionState } from '@tanstack/react-table';
import { PageHeader } from '@/components/page-header';
import { errorMessage } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/cn';
import { ENTERPRISE_SCOPE, sessionsInfiniteQueryOptions } from './api';
import type { SessionSearch } from './filters';
import { hasFilters, toListFilters } from './list-query';
import { liveSessionIds, useLiveSessions, useRefreshInterval, type LiveState } from './live';
import { RefreshIntervalSelect, SecondsAgo } from './live-controls';
import { SessionFilters } from './session-filters';
import { DeferredSavedViews } from './deferred-controls';
import { BULK_MAX, BulkActions } from './bulk-actions';
import { SessionStatusBadge } from './status-badge';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { Button, buttonClass } from '@/components/ui/button';

export interface SessionsListProps {
  /** An organization id, or `enterprise` for every organization. */
  scope: string;
  title: string;
  description?: string;
  search: SessionSearch;
  onSearchChange: (patch: Partial<SessionSearch>) => void;
  onClearSearch: () => void;
  /** Enterprise list: organizations for the filter and the organization column. */
  organizations?: ReadonlyArray<{ org_id: string; name: string }>;
}

export function prNumber(url: string): string {
  const m = /\/(?:pull|merge_requests|pullrequest)s?\/(\d+)/.exec(url);
  return m ? `#${m[1]}` : 'PR';
}

/**
 * The rows the table renders, as a small store: they change on nearly every scroll frame, and only the live
 * status below reads them (and only which live sessions are among them), so scrolling re-renders neither the
 * list nor, until the live sessions in view change, that line.
 */
interface RowsInView {
  get: () => readonly Session[];
  /** The live sessions' ids among them, joined: a value that changes only when they do. */
  liveKey: () => string;
  set: (rows: Session[]) => void;
  subscribe: (listener: () => void) => () => void;
}

function createRowsInView(): RowsInView {
  let rows: readonly Session[] = [];
  let liveKey = '';
  const listeners = new Set<() => void>();
  return {
    get: () => rows,
    liveKey: () => liveKey,
    set: (next) => {
      rows = next;
      const key = liveSessionIds(next).join(',');
      if (key === liveKey) return;
      liveKey = key;
      listeners.forEach((l) => l());
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Polls the live sessions in view and says so. */
function LiveStatus({ scope, rowsInView }: { scope: string; rowsInView: RowsInView }) {
  useSyncExternalStore(rowsInView.subscribe, rowsInView.liveKey, rowsInView.liveKey);
  const inView = rowsInView.get();
  const [intervalMs] = useRefreshInterval();
  const live = useLiveSessions({ scope, inView, intervalMs });
  return <LiveIndicator live={live} />;
}

function LiveIndicator({ live }: { live: LiveState }) {
  let text;
  if (live.paused === 'off') text = 'Live updates off';
  else if (live.paused === 'hidden') text = 'Live updates paused while the tab is hidden';
  else if (live.liveInView === 0) text = 'No live sessions in view';
  else
    text = (
      <>
        Live: {live.liveInView} in view ·{' '}
        {live.lastPolledAt ? (
          <SecondsAgo at={live.lastPolledAt} prefix="checked" />
        ) : (
          `checking every ${live.intervalMs / 1000} s`
        )}
      </>
    );
  return (
    <p className="text-xs text-muted" aria-live="off" data-testid="live-indicator">
      {text}
      {live.error ? <span className="text-danger"> · last check failed: {errorMessage(live.error)}</span> : null}
    </p>
  );
}

/** lucide's ExternalLink as plain SVG: rows mount it as they scroll into view, without the icon component's work. */
function ExternalLinkIcon() {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-3"
      aria-hidden
    >
      <path d="M15 3h6v6" />
      <path d="M10 14 21 3" />
      <path d="M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6" />
    </svg>
  );
}

/** A row's height in px: 8 px padding, the session's two lines (20 + 16 px), 8 px padding, 1 px border. */
const ROW_HEIGHT = 53;

const col = columnHelper<Session>();

/** The list's columns (exported for its tests). */
export function sessionColumns(enterprise: boolean, orgNames: ReadonlyMap<string, string>) {
  return col.columns([
    col.accessor('status', {
      header: 'Status',
      enableSorting: true,
      meta: { width: 'minmax(9rem,1.2fr)', card: 'aside' },
      cell: ({ row: { original: s } }) => <SessionStatusBadge status={s.status} detail={s.status_detail} />,
    }),
    col.accessor((s) => s.title || s.prompt || s.session_id, {
      id: 'session',
      header: 'Session',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(14rem,3fr)', card: 'title' },
      cell: ({ row: { original: s }, getValue }) => (
        <>
          <RowLink
            // The enterprise list opens the enterprise-wide session page (enterprise operations): the routes
            // /sessions/$sessionId and /orgs/$orgId/sessions/$sessionId.
            href={
              enterprise
                ? `/sessions/${encodeURIComponent(s.session_id)}`
                : `/orgs/${encodeURIComponent(s.org_id)}/sessions/${encodeURIComponent(s.session_id)}`
            }
            // A row keeps one line (fixed height); a phone's card is measured, so the whole title wraps there
            // (a prompt standing in for a missing title: its first three lines).
            className={cn(
              'block font-medium wrap-anywhere text-accent underline underline-offset-2 hover:no-underline sm:truncate',
              !s.title && 'max-sm:line-clamp-3',
            )}
            title={getValue()}
          >
            {getValue()}
          </RowLink>
          {/* One 16 px line, the badge included: every row keeps the list's fixed height. */}
          <span className="flex h-4 items-center gap-1.5 truncate font-mono text-xs text-muted">
            {s.session_id}
            {s.is_archived && <Badge className="py-0 font-sans leading-3.5">Archived</Badge>}
          </span>
        </>
      ),
    }),
    ...(enterprise
      ? [
          col.accessor((s) => orgNames.get(s.org_id) ?? s.org_id, {
            id: 'organization',
            header: 'Organization',
            enableSorting: true,
            meta: { width: 'minmax(8rem,1fr)', className: 'truncate text-xs' },
            cell: ({ row: { original: s } }) => orgNames.get(s.org_id) ?? <span className="font-mono">{s.org_id}</span>,
          }),
        ]
      : []),
    col.accessor((s) => s.origin ?? '', {
      id: 'origin',
      header: 'Origin',
      enableSorting: true,
      meta: { width: '5.5rem', className: 'truncate text-xs' },
      cell: ({ getValue }) => getValue() || '—',
    }),
    col.accessor('created_at', { header: 'Created', ...timeColumn() }),
    col.accessor('updated_at', { header: 'Updated', ...timeColumn({ card: 'hidden' }) }),
    col.accessor('acus_consumed', {
      header: 'ACUs',
      enableSorting: true,
      sortDescFirst: true,
      meta: { width: '4rem', align: 'end', className: 'text-xs tabular-nums' },
      cell: ({ getValue }) => formatNumber(getValue(), 2),
    }),
    col.display({
      id: 'pull_requests',
      header: 'PRs',
      meta: { width: '5.5rem', className: 'flex flex-wrap gap-1 text-xs' },
      cell: ({ row: { original: s } }) => (
        <>
          {s.pull_requests.length === 0
            ? '—'
            : s.pull_requests.slice(0, 2).map((pr) => (
                <a
                  key={pr.pr_url}
                  href={pr.pr_url}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-0.5 text-accent underline underline-offset-2 hover:no-underline"
                  title={`${pr.pr_url}${pr.pr_state ? ` (${pr.pr_state})` : ''}`}
                >
                  {prNumber(pr.pr_url)}
                  <ExternalLinkIcon />
                </a>
              ))}
          {s.pull_requests.length > 2 && <span className="text-muted">+{s.pull_requests.length - 2}</span>}
        </>
      ),
    }),
    col.display({
      id: 'tags',
      header: 'Tags',
      meta: {
        width: 'minmax(8rem,1.4fr)',
        // One line in a row (fixed height); a phone's card wraps them.
        className: 'flex min-w-0 gap-1 overflow-hidden max-sm:flex-wrap',
        cellTitle: (s: Session) => s.tags.join(', ') || undefined,
      },
      cell: ({ row: { original: s } }) => (
        <>
          {s.tags.slice(0, 3).map((t) => (
            <Badge key={t}>{t}</Badge>
          ))}
          {s.tags.length > 3 && <span className="text-xs text-muted">+{s.tags.length - 3}</span>}
        </>
      ),
    }),
  ]);
}

export function SessionsList(props: SessionsListProps) {
  const { scope, search } = props;
  const enterprise = scope === ENTERPRISE_SCOPE;
  const filters = useMemo(() => toListFilters(search, enterprise ? 'enterprise' : 'org'), [search, enterprise]);
  const query = useInfiniteQuery(sessionsInfiniteQueryOptions(scope, filters));
  // The rows the table renders (in view plus overscan): the live poll asks about those only.
  const [rowsInView] = useState(createRowsInView);
  const canCreate = useHasPermission('UseAgentSessions');
  const orgNames = useMemo(() => new Map(props.organizations?.map((o) => [o.org_id, o.name])), [props.organizations]);
  const columns = useMemo(() => sessionColumns(enterprise, orgNames), [enterprise, orgNames]);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const selected = useMemo(() => {
    const rows = query.data?.pages.flatMap((p) => p.items) ?? [];
    return rows.filter((s) => selection[s.session_id]);
  }, [query.data, selection]);

  return (
    <>
      <PageHeader
        title={props.title}
        description={props.description}
        actions={
          <>
            <DeferredSavedViews
              screen={enterprise ? 'sessions-enterprise' : 'sessions'}
              current={search}
              onOpen={(view) => {
                // Every filter of the view, and none of the current ones it does not set.
                const cleared = Object.fromEntries(Object.keys(search).map((k) => [k, undefined]));
                props.onSearchChange({ ...cleared, ...view });
              }}
            />
            <RefreshIntervalSelect />
            {!enterprise &&
              (canCreate === false ? (
                <span className="flex items-center gap-2">
                  <Button variant="primary" disabled>
                    <Plus className="size-4" aria-hidden /> New session
                  </Button>
                  <span className="text-xs text-muted">{missingPermissionTitle('UseAgentSessions', canCreate)}</span>
                </span>
              ) : (
                <Link
                  to="/orgs/$orgId/sessions/new"
                  params={{ orgId: scope }}
                  className={buttonClass({ variant: 'primary' })}
                >
                  <Plus className="size-4" aria-hidden /> New session
                </Link>
              ))}
          </>
        }
      />
      <SessionFilters
        search={search}
        onChange={props.onSearchChange}
        onClear={props.onClearSearch}
        organizations={props.organizations}
      />
      <div className="mb-2">
        <LiveStatus scope={scope} rowsInView={rowsInView} />
      </div>
      <BulkActions selected={selected} onDone={() => setSelection({})} />
      <DataTable
        label="Sessions"
        tableId={enterprise ? 'sessions-enterprise' : 'sessions'}
        columns={columns}
        query={query}
        getRowId={(s) => s.session_id}
        selection={{
          state: selection,
          onChange: setSelection,
          max: BULK_MAX,
          rowLabel: (s) => `Select ${s.title || s.session_id}`,
        }}
        onVisibleRowsChange={rowsInView.set}
        minWidth={enterprise ? '78rem' : '70rem'}
        // Two lines at most in every cell (the session's title and id): one height for every row, no measuring.
        estimateRowHeight={ROW_HEIGHT}
        fixedRowHeight
        empty={{
          title: hasFilters(search) ? 'No session matches these filters' : 'No sessions yet',
          hint: hasFilters(search)
            ? 'Change or clear the filters.'
            : enterprise
              ? undefined
              : 'Start one with New session.',
        }}
        className="h-[calc(100dvh-17rem)] min-h-80"
      />
    </>
  );
}
