/**
 * A sessions list, of one organization or across organizations: virtualized cursor pages, filters in the URL,
 * and live statuses for the sessions in view (see `live.ts`).
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ExternalLink, Plus } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import type { Session } from '@/api/operations/sessions';
import { Badge } from '@/components/badge';
import { CursorList, cursorListState } from '@/components/cursor-list';
import { PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { ENTERPRISE_SCOPE, sessionsInfiniteQueryOptions } from './api';
import { hasFilters, toListFilters, type SessionSearch } from './filters';
import { useLiveSessions, useRefreshInterval, type LiveState } from './live';
import { RefreshIntervalSelect, SecondsAgo } from './live-controls';
import { SessionFilters } from './session-filters';
import { SessionStatusBadge } from './status-badge';
import { missingPermissionTitle, useHasPermission } from './use-permission';

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

export function SessionsList(props: SessionsListProps) {
  const { scope, search } = props;
  const enterprise = scope === ENTERPRISE_SCOPE;
  const filters = useMemo(() => toListFilters(search, enterprise ? 'enterprise' : 'org'), [search, enterprise]);
  const query = useInfiniteQuery(sessionsInfiniteQueryOptions(scope, filters));
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total;
  const [range, setRange] = useState<[number, number]>([0, -1]);
  const onRangeChange = useCallback(
    (a: number, b: number) => setRange((r) => (r[0] === a && r[1] === b ? r : [a, b])),
    [],
  );
  const inView = useMemo(() => items.slice(Math.max(0, range[0]), range[1] + 1), [items, range]);
  const [intervalMs] = useRefreshInterval();
  const live = useLiveSessions({ scope, inView, intervalMs });
  const canCreate = useHasPermission('UseAgentSessions');
  const orgNames = useMemo(() => new Map(props.organizations?.map((o) => [o.org_id, o.name])), [props.organizations]);

  const columns = enterprise
    ? 'minmax(9rem,1.2fr) minmax(14rem,3fr) minmax(8rem,1fr) 5.5rem 6.5rem 6.5rem 4rem 5.5rem minmax(8rem,1.4fr)'
    : 'minmax(9rem,1.2fr) minmax(14rem,3fr) 5.5rem 6.5rem 6.5rem 4rem 5.5rem minmax(8rem,1.4fr)';

  return (
    <>
      <PageHeader
        title={props.title}
        description={props.description}
        actions={
          <>
            <RefreshIntervalSelect />
            {!enterprise &&
              (canCreate === false ? (
                <span
                  className="inline-flex h-9 cursor-not-allowed items-center gap-1.5 rounded-md bg-accent/50 px-3.5 text-sm font-medium text-white"
                  title={missingPermissionTitle('UseAgentSessions', canCreate)}
                  aria-disabled="true"
                >
                  <Plus className="size-4" aria-hidden /> New session
                </span>
              ) : (
                <Link
                  to="/orgs/$orgId/sessions/new"
                  params={{ orgId: scope }}
                  className="inline-flex h-9 items-center gap-1.5 rounded-md bg-accent px-3.5 text-sm font-medium text-white hover:bg-accent-strong"
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
        <LiveIndicator live={live} />
      </div>
      <CursorList<Session>
        ariaLabel="Sessions"
        items={items}
        getKey={(s) => s.session_id}
        columns={columns}
        minWidth={enterprise ? '78rem' : '70rem'}
        estimateSize={56}
        onRangeChange={onRangeChange}
        header={
          <>
            <span role="columnheader">Status</span>
            <span role="columnheader">Session</span>
            {enterprise && <span role="columnheader">Organization</span>}
            <span role="columnheader">Origin</span>
            <span role="columnheader">Created</span>
            <span role="columnheader">Updated</span>
            <span role="columnheader" className="text-right">
              ACUs
            </span>
            <span role="columnheader">PRs</span>
            <span role="columnheader">Tags</span>
          </>
        }
        renderRow={(s) => (
          <>
            <span role="cell" className="min-w-0">
              <SessionStatusBadge status={s.status} detail={s.status_detail} />
            </span>
            <span role="cell" className="min-w-0">
              <Link
                to="/orgs/$orgId/sessions/$sessionId"
                params={{ orgId: s.org_id, sessionId: s.session_id }}
                className="block truncate font-medium text-accent hover:underline"
                title={s.title || s.prompt || s.session_id}
              >
                {s.title || s.prompt || s.session_id}
              </Link>
              <span className="flex items-center gap-1.5 truncate font-mono text-xs text-muted">
                {s.session_id}
                {s.is_archived && <Badge className="font-sans">Archived</Badge>}
              </span>
            </span>
            {enterprise && (
              <span role="cell" className="truncate text-xs">
                {orgNames.get(s.org_id) ?? <span className="font-mono">{s.org_id}</span>}
              </span>
            )}
            <span role="cell" className="truncate text-xs">
              {s.origin ?? '—'}
            </span>
            <span role="cell" className="text-xs">
              <RelativeTime value={s.created_at} />
            </span>
            <span role="cell" className="text-xs">
              <RelativeTime value={s.updated_at} />
            </span>
            <span role="cell" className="text-right text-xs tabular-nums">
              {formatNumber(s.acus_consumed, 2)}
            </span>
            <span role="cell" className="flex flex-wrap gap-1 text-xs">
              {s.pull_requests.length === 0
                ? '—'
                : s.pull_requests.slice(0, 2).map((pr) => (
                    <a
                      key={pr.pr_url}
                      href={pr.pr_url}
                      target="_blank"
                      rel="noreferrer"
                      className="inline-flex items-center gap-0.5 text-accent hover:underline"
                      title={`${pr.pr_url}${pr.pr_state ? ` (${pr.pr_state})` : ''}`}
                    >
                      {prNumber(pr.pr_url)}
                      <ExternalLink className="size-3" aria-hidden />
                    </a>
                  ))}
              {s.pull_requests.length > 2 && <span className="text-muted">+{s.pull_requests.length - 2}</span>}
            </span>
            <span role="cell" className="flex min-w-0 gap-1 overflow-hidden" title={s.tags.join(', ')}>
              {s.tags.slice(0, 3).map((t) => (
                <Badge key={t}>{t}</Badge>
              ))}
              {s.tags.length > 3 && <span className="text-xs text-muted">+{s.tags.length - 3}</span>}
            </span>
          </>
        )}
        total={total}
        {...cursorListState(query)}
        emptyTitle={hasFilters(search) ? 'No session matches these filters' : 'No sessions yet'}
        emptyHint={
          hasFilters(search) ? 'Change or clear the filters.' : enterprise ? undefined : 'Start one with New session.'
        }
        className={cn('h-[calc(100dvh-17rem)] min-h-80')}
      />
    </>
  );
}
