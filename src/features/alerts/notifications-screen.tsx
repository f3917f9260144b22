/**
 * The notifications the alert rules raised, newest first: what happened (linking to the screen that explains
 * it), whether it started or cleared, which rule, and whether it was read or acknowledged (and by whom). "Check
 * now" evaluates every rule at once instead of waiting for the next scheduled evaluation.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { Check, CheckCheck, RefreshCw } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import type { AlertNotification } from '@/api/console/alerts';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/format';
import { AlertsNav } from './alerts-nav';
import { notificationsInfiniteQueryOptions, useAcknowledge, useEvaluate, useMarkAllRead, useMarkRead } from './api';

const col = columnHelper<AlertNotification>();

/**
 * A link to the console path the server chose for a notification's screen (any screen, so not a typed route):
 * the router follows it in place; a new tab opens it from its href. Following it marks the notification read.
 */
function ConsoleLink({
  href,
  unread,
  onOpen,
  children,
}: {
  href: string;
  unread: boolean;
  onOpen: () => void;
  children: ReactNode;
}) {
  const router = useRouter();
  return (
    <a
      href={href}
      data-row-link
      className={unread ? 'font-semibold text-accent hover:underline' : 'text-accent hover:underline'}
      onClick={(e) => {
        onOpen();
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        void router.navigate({ href });
      }}
    >
      {unread ? <span className="sr-only">Unread: </span> : null}
      {children}
    </a>
  );
}

function columns(opts: { onRead: (n: AlertNotification) => void; onAck: (n: AlertNotification) => void }) {
  return col.columns([
    col.accessor('state', {
      header: 'State',
      meta: { width: '6.5rem' },
      cell: ({ getValue }) =>
        getValue() === 'firing' ? <Badge tone="danger">Firing</Badge> : <Badge tone="success">Cleared</Badge>,
    }),
    col.accessor('title', {
      header: 'What happened',
      enableHiding: false,
      meta: { width: 'minmax(16rem,2.5fr)', className: 'flex flex-col gap-0.5' },
      cell: ({ row: { original: n } }) => (
        <>
          <ConsoleLink href={n.link} onOpen={() => n.read_at === null && opts.onRead(n)} unread={n.read_at === null}>
            {n.title}
          </ConsoleLink>
          <span className="text-xs text-muted">{n.detail}</span>
        </>
      ),
    }),
    col.accessor('rule_name', {
      header: 'Rule',
      meta: { width: 'minmax(8rem,1fr)', className: 'text-sm' },
    }),
    col.accessor('created_at', { header: 'When', ...timeColumn({ width: '7rem' }) }),
    col.display({
      id: 'status',
      header: 'Status',
      meta: { width: 'minmax(9rem,1fr)', className: 'text-xs' },
      cell: ({ row: { original: n } }) =>
        n.acknowledged_at !== null ? (
          <span>
            Acknowledged{n.acknowledged_by ? ` by ${n.acknowledged_by}` : ''} {formatDateTime(n.acknowledged_at)}
          </span>
        ) : n.read_at !== null ? (
          <span className="text-muted">Read</span>
        ) : (
          <span className="font-medium">Unread</span>
        ),
    }),
    col.display({
      id: 'actions',
      header: 'Actions',
      enableHiding: false,
      meta: { width: '13rem', label: 'Actions', className: 'flex flex-wrap gap-1' },
      cell: ({ row: { original: n } }) => (
        <>
          {n.read_at === null && (
            <Button size="sm" variant="ghost" aria-label={`Mark read: ${n.title}`} onClick={() => opts.onRead(n)}>
              <Check className="size-3.5" aria-hidden /> Mark read
            </Button>
          )}
          {n.acknowledged_at === null && n.state === 'firing' && (
            <Button size="sm" variant="ghost" aria-label={`Acknowledge: ${n.title}`} onClick={() => opts.onAck(n)}>
              <CheckCheck className="size-3.5" aria-hidden /> Acknowledge
            </Button>
          )}
        </>
      ),
    }),
  ]);
}

export function NotificationsScreen() {
  const query = useInfiniteQuery(notificationsInfiniteQueryOptions(false));
  const read = useMarkRead();
  const ack = useAcknowledge();
  const readAll = useMarkAllRead();
  const evaluate = useEvaluate();
  const { mutate: markRead } = read;
  const { mutate: acknowledge } = ack;
  const cols = useMemo(
    () => columns({ onRead: (n) => markRead(n.notification_id), onAck: (n) => acknowledge(n.notification_id) }),
    [markRead, acknowledge],
  );
  const error = read.error ?? ack.error ?? readAll.error ?? evaluate.error;

  return (
    <>
      <PageHeader
        title="Alerts"
        description="What your alert rules found, newest first. Each links to the screen that explains it; a condition that stops says so once."
        actions={
          <>
            <Button
              disabled={evaluate.isPending}
              onClick={() =>
                evaluate.mutate(undefined, {
                  onSuccess: (r) =>
                    toast({
                      title: r.ran
                        ? `Checked ${r.evaluated} rule${r.evaluated === 1 ? '' : 's'}: ${r.fired} new, ${r.cleared} cleared`
                        : 'Another console replica is checking the rules right now; its results appear here',
                      tone: r.errors.length > 0 ? 'danger' : 'success',
                    }),
                })
              }
            >
              <RefreshCw className="size-4" aria-hidden /> {evaluate.isPending ? 'Checking…' : 'Check now'}
            </Button>
            <Button disabled={readAll.isPending} onClick={() => readAll.mutate()}>
              <CheckCheck className="size-4" aria-hidden /> Mark all read
            </Button>
          </>
        }
      />
      <AlertsNav />
      {error && (
        <div className="mb-3">
          <ProblemView compact error={error} />
        </div>
      )}
      {evaluate.data && evaluate.data.errors.length > 0 && (
        <div role="status" className="mb-3 rounded-md border border-warn/40 bg-warn/10 p-3 text-sm">
          <p className="font-medium">Some rules could not read their figures:</p>
          <ul className="mt-1 list-disc pl-5">
            {evaluate.data.errors.map((e) => (
              <li key={e.rule_id}>
                {e.name}: {e.error}
              </li>
            ))}
          </ul>
        </div>
      )}
      <DataTable
        label="Notifications"
        tableId="alert-notifications"
        columns={cols}
        query={query}
        getRowId={(n) => String(n.notification_id)}
        minWidth="56rem"
        estimateRowHeight={64}
        empty={{
          title: 'No notifications yet',
          hint: (
            <>
              Define what to watch under <Link to="/alerts/rules">Rules</Link>; what they find appears here.
            </>
          ),
        }}
      />
    </>
  );
}
