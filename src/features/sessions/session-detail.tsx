/**
 * One session: every field, its live status ("updated N s ago"), the status changes seen, the thread and
 * composer, archive and terminate, tags, insights, and links to parent and child sessions and pull requests.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Archive, ExternalLink, Square } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { isTerminalStatus, Session as SessionSchema, type Session } from '@/api/operations/sessions';
import { AttachmentList } from '@/components/attachment-list';
import { Badge } from '@/components/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useDocumentVisible } from '@/lib/use-document-visible';
import {
  enterpriseSessionQueryOptions,
  sessionQueryOptions,
  useArchiveSession,
  useTerminateSession,
  type SessionPageScope,
} from './api';
import { recordStatus, useRefreshInterval, useStatusTimeline } from './live';
import { RefreshIntervalSelect, SecondsAgo } from './live-controls';
import { prNumber } from './sessions-list';
import { SessionInsights } from './session-insights';
import { OrgName, PlaybookName, ServiceUserName, UserName } from './names';
import { SessionTags } from './session-tags';
import { SessionThread } from './session-thread';
import { SessionStatusBadge } from './status-badge';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { CopyId } from '@/components/copy-id';

/** Starting states last seconds: while in them the detail checks at least this often. */
const STARTING_STATUSES = ['new', 'creating', 'claimed', 'resuming'];
const STARTING_POLL_MS = 2_000;

/**
 * `scope` `enterprise`: the enterprise-wide page (`/sessions/$sessionId`), which reads and messages the session
 * through the enterprise operations and links to other sessions on enterprise-wide pages; `orgId` is not needed.
 */
export function SessionDetail({
  orgId = '',
  sessionId,
  scope = 'org',
}: {
  orgId?: string;
  sessionId: string;
  scope?: SessionPageScope;
}) {
  const [intervalMs] = useRefreshInterval();
  const visible = useDocumentVisible();
  const query = useSuspenseQuery({
    ...(scope === 'enterprise' ? enterpriseSessionQueryOptions(sessionId) : sessionQueryOptions(orgId, sessionId)),
    refetchInterval: (q) => {
      const s = q.state.data;
      if (!visible || intervalMs <= 0 || !s || isTerminalStatus(s.status)) return false;
      return STARTING_STATUSES.includes(s.status) ? Math.min(intervalMs, STARTING_POLL_MS) : intervalMs;
    },
    refetchIntervalInBackground: false,
  });
  const session = query.data;
  useEffect(() => {
    recordStatus(session);
  }, [session]);
  const terminal = isTerminalStatus(session.status);

  return (
    <>
      <p className="mb-2 text-sm">
        {scope === 'enterprise' ? (
          <Link to="/sessions" className="text-accent underline underline-offset-2 hover:no-underline">
            ← All sessions
          </Link>
        ) : (
          <Link
            to="/orgs/$orgId/sessions"
            params={{ orgId }}
            className="text-accent underline underline-offset-2 hover:no-underline"
          >
            ← Sessions
          </Link>
        )}
      </p>
      <PageHeader
        title={session.title || session.prompt?.slice(0, 120) || session.session_id}
        documentTitle={session.title || session.session_id}
        description={<CopyId value={session.session_id} label="session id" />}
        actions={<SessionActions session={session} />}
      />
      <div
        className="mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-line bg-surface px-3 py-2 text-sm"
        aria-label="Live status"
        role="group"
      >
        {/* Slots of fixed width: a status that changes, or a count that ticks, moves nothing beside it. */}
        <span className="flex w-60 max-w-full min-w-0">
          <SessionStatusBadge status={session.status} detail={session.status_detail} />
        </span>
        {session.is_archived && <Badge>Archived</Badge>}
        <span className="w-44 text-muted tabular-nums" data-testid="updated-ago">
          <SecondsAgo at={query.dataUpdatedAt} />
        </span>
        <span className="text-xs text-muted">
          {terminal
            ? `Live updates stopped: ${session.status} is a final status.`
            : intervalMs <= 0
              ? 'Live updates off.'
              : !visible
                ? 'Live updates paused while the tab is hidden.'
                : 'Live: the status refreshes on its own.'}
        </span>
        <span className="ml-auto">
          <RefreshIntervalSelect />
        </span>
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(18rem,2fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          <SessionThread session={session} scope={scope} />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <StatusTimeline sessionId={session.session_id} />
          <SessionFields session={session} scope={scope} />
          <AttachmentList urls={session.attachment_urls ?? []} />
          <SessionTags orgId={session.org_id} sessionId={session.session_id} tags={session.tags} />
          <SessionInsights orgId={session.org_id} sessionId={session.session_id} scope={scope} />
        </div>
      </div>
    </>
  );
}

function SessionActions({ session }: { session: Session }) {
  const archive = useArchiveSession(session.org_id, session.session_id);
  const terminate = useTerminateSession(session.org_id, session.session_id);
  const can = useHasPermission('ManageOrgSessions');
  const denied = missingPermissionTitle('ManageOrgSessions', can);
  const [confirm, setConfirm] = useState(false);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const [alsoArchive, setAlsoArchive] = useState(true);
  const alsoArchiveId = useId();
  const terminated = session.status_detail === 'terminated';
  // Done actions stay focusable (aria-disabled, not disabled): the dialog that did them returns focus here.
  const archiveOff = session.is_archived || archive.isPending || can === false;
  const terminateOff = terminated || can === false;
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex gap-2">
        <Button
          onClick={() => !archiveOff && setConfirmArchive(true)}
          aria-disabled={archiveOff || undefined}
          title={denied}
        >
          <Archive className="size-4" aria-hidden />
          {session.is_archived ? 'Archived' : archive.isPending ? 'Archiving…' : 'Archive'}
        </Button>
        <Button
          variant="danger"
          onClick={() => !terminateOff && setConfirm(true)}
          aria-disabled={terminateOff || undefined}
          title={denied}
        >
          <Square className="size-4" aria-hidden />
          {terminated ? 'Terminated' : 'Terminate'}
        </Button>
      </div>
      {denied ? <p className="text-xs text-muted">{denied}</p> : null}
      <ConfirmDialog
        open={confirmArchive}
        onOpenChange={(o) => {
          setConfirmArchive(o);
          if (!o) archive.reset();
        }}
        title="Archive this session?"
        description={
          <>
            <strong>{session.title || session.session_id}</strong> stays readable; the Archived filter shows or hides
            it. The API has no way to unarchive a session.
          </>
        }
        confirmLabel="Archive session"
        pending={archive.isPending}
        onConfirm={() => archive.mutate(undefined, { onSuccess: () => setConfirmArchive(false) })}
      >
        {archive.error ? (
          <div className="mt-3">
            <ProblemView compact error={archive.error} />
          </div>
        ) : null}
      </ConfirmDialog>
      {archive.error && !confirmArchive ? <ProblemView compact error={archive.error} /> : null}
      {terminate.error && !confirm ? <ProblemView compact error={terminate.error} /> : null}
      <ConfirmDialog
        open={confirm}
        onOpenChange={(o) => {
          setConfirm(o);
          if (!o) terminate.reset();
        }}
        title="Terminate this session?"
        description={
          <>
            The agent stops working on <strong>{session.title || session.session_id}</strong>. A terminated session
            cannot be resumed.
          </>
        }
        confirmLabel="Terminate session"
        destructive
        pending={terminate.isPending}
        onConfirm={() => terminate.mutate(alsoArchive, { onSuccess: () => setConfirm(false) })}
      >
        <div className="mt-4 flex items-center gap-2 text-sm">
          <Checkbox id={alsoArchiveId} checked={alsoArchive} onCheckedChange={(c) => setAlsoArchive(c === true)} />
          <label htmlFor={alsoArchiveId}>Also archive the session</label>
        </div>
        {terminate.error ? (
          <div className="mt-3">
            <ProblemView compact error={terminate.error} />
          </div>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

/**
 * The status changes seen, in a box of fixed height that follows the newest: the list grows while the page is
 * open (its first entry comes after the first paint), and the details below it must not move when it does.
 */
function StatusTimeline({ sessionId }: { sessionId: string }) {
  const changes = useStatusTimeline(sessionId);
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [changes.length]);
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading" className="mb-2 text-base font-semibold">
        Status changes seen
      </h2>
      {/* Focusable: a keyboard can scroll it. */}
      <div
        ref={box}
        tabIndex={0}
        className="h-28 overflow-y-auto overscroll-contain focus-visible:outline-2 focus-visible:outline-accent"
      >
        <ol aria-label="Status changes seen" className="flex flex-col gap-1.5 border-l border-line pl-3">
          {changes.map((c, i) => (
            <li key={i} className="flex flex-wrap items-center gap-2 text-sm">
              <SessionStatusBadge status={c.status} detail={c.status_detail} />
              <time className="text-xs text-muted" dateTime={new Date(c.seenAt).toISOString()}>
                {i === 0 ? 'first seen ' : ''}
                {new Date(c.seenAt).toLocaleTimeString()}
              </time>
            </li>
          ))}
        </ol>
      </div>
      <p className="mt-1 text-xs text-muted">Changes the console has seen while this page was open.</p>
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_minmax(0,1fr)] gap-2 py-1">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

const KNOWN_FIELDS = new Set(Object.keys(SessionSchema.shape));

function SessionLink({ orgId, id, scope }: { orgId: string; id: string; scope: SessionPageScope }) {
  if (scope === 'enterprise') {
    return (
      <Link
        to="/sessions/$sessionId"
        params={{ sessionId: id }}
        className="font-mono text-xs text-accent underline underline-offset-2 hover:no-underline"
      >
        {id}
      </Link>
    );
  }
  return (
    <Link
      to="/orgs/$orgId/sessions/$sessionId"
      params={{ orgId, sessionId: id }}
      className="font-mono text-xs text-accent underline underline-offset-2 hover:no-underline"
    >
      {id}
    </Link>
  );
}

function SessionFields({ session: s, scope }: { session: Session; scope: SessionPageScope }) {
  const extra = Object.entries(s).filter(([k]) => !KNOWN_FIELDS.has(k));
  const none = <span className="text-muted">—</span>;
  return (
    <section aria-labelledby="fields-heading">
      <h2 id="fields-heading" className="mb-2 text-base font-semibold">
        Details
      </h2>
      <dl className="rounded-lg border border-line bg-surface px-3 py-2 text-sm">
        <Row label="Status">
          {s.status}
          {s.status_detail ? ` (${s.status_detail})` : ''}
        </Row>
        <Row label="Session id">
          <span className="font-mono text-xs">{s.session_id}</span>
        </Row>
        <Row label="URL">
          <a
            href={s.url}
            target="_blank"
            rel="noreferrer"
            className="break-all text-accent underline underline-offset-2 hover:no-underline"
          >
            {s.url}
            <ExternalLink className="ml-1 inline size-3 align-baseline" aria-hidden />
          </a>
        </Row>
        <Row label="Title">{s.title || none}</Row>
        <Row label="Prompt">{s.prompt ? <span className="whitespace-pre-wrap">{s.prompt}</span> : none}</Row>
        <Row label="Origin">{s.origin ?? none}</Row>
        <Row label="Category">{s.category ?? none}</Row>
        <Row label="Organization">
          <OrgName orgId={s.org_id} />
        </Row>
        <Row label="Created">
          <RelativeTime value={s.created_at} />{' '}
          <span className="text-xs text-muted">({formatDateTime(s.created_at)})</span>
        </Row>
        <Row label="Updated">
          <RelativeTime value={s.updated_at} />{' '}
          <span className="text-xs text-muted">({formatDateTime(s.updated_at)})</span>
        </Row>
        <Row label="ACUs consumed">{formatNumber(s.acus_consumed, 2)}</Row>
        <Row label="Archived">{s.is_archived ? 'Yes' : 'No'}</Row>
        {s.is_advanced != null && <Row label="Advanced">{s.is_advanced ? 'Yes' : 'No'}</Row>}
        <Row label="User">{s.user_id ? <UserName userId={s.user_id} /> : none}</Row>
        <Row label="Service user">
          {s.service_user_id ? <ServiceUserName serviceUserId={s.service_user_id} /> : none}
        </Row>
        <Row label="Playbook">
          {s.playbook_id ? <PlaybookName orgId={s.org_id} playbookId={s.playbook_id} /> : none}
        </Row>
        <Row label="Parent session">
          {s.parent_session_id ? <SessionLink orgId={s.org_id} id={s.parent_session_id} scope={scope} /> : none}
        </Row>
        <Row label="Child sessions">
          {s.child_session_ids && s.child_session_ids.length > 0 ? (
            <ul className="flex flex-col gap-0.5">
              {s.child_session_ids.map((id) => (
                <li key={id}>
                  <SessionLink orgId={s.org_id} id={id} scope={scope} />
                </li>
              ))}
            </ul>
          ) : (
            none
          )}
        </Row>
        <Row label="Pull requests">
          {s.pull_requests.length > 0 ? (
            <ul className="flex flex-col gap-0.5">
              {s.pull_requests.map((pr) => (
                <li key={pr.pr_url}>
                  <a
                    href={pr.pr_url}
                    target="_blank"
                    rel="noreferrer"
                    className="break-all text-accent underline underline-offset-2 hover:no-underline"
                  >
                    {pr.pr_url.replace(/^https?:\/\//, '')}
                    <ExternalLink className="ml-1 inline size-3 align-baseline" aria-hidden />
                  </a>
                  {pr.pr_state && <Badge className="ml-1.5">{pr.pr_state}</Badge>}
                  <span className="sr-only"> {prNumber(pr.pr_url)}</span>
                </li>
              ))}
            </ul>
          ) : (
            none
          )}
        </Row>
        <Row label="Structured output">
          {s.structured_output ? (
            <pre className="overflow-auto rounded bg-surface-2 p-2 text-xs">
              {JSON.stringify(s.structured_output, null, 2)}
            </pre>
          ) : (
            none
          )}
        </Row>
        {extra.map(([k, v]) => (
          <Row key={k} label={k}>
            <pre className="overflow-auto text-xs whitespace-pre-wrap">
              {typeof v === 'string' ? v : JSON.stringify(v, null, 2)}
            </pre>
          </Row>
        ))}
      </dl>
    </section>
  );
}
