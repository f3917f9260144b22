/**
 * One schedule: its frequency in words, next and last run, state (switch), failures and last error, why the
 * service paused it (a revoked creator or run-as principal), its prompt, and the sessions it started, each
 * linked to its page (read again every few seconds while open). Right after the form created it, a failed
 * disable is said here, with a button to try again.
 */
import { keepPreviousData, useInfiniteQuery, useQueryClient, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Pencil, Trash2 } from 'lucide-react';
import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import type { Schedule, ScheduleRun } from '@/api/operations/schedules';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { ConfirmDelete } from '@/components/delete-action';
import { describeError } from '@/components/problem-view';
import { Button, buttonClass } from '@/components/ui/button';
import { isApiError } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import {
  dropScheduleNotice,
  forgetSchedule,
  isoSeconds,
  peekScheduleNotice,
  SCHEDULE_POLL_MS,
  scheduleQueryOptions,
  scheduleRunsInfiniteQueryOptions,
  sessionTitlesQueryOptions,
  useDeleteSchedule,
  useUpdateSchedule,
} from './api';
import {
  EnabledSwitch,
  FailuresBadge,
  FrequencyText,
  LocalTime,
  nextRunOf,
  notifyLabel,
  StateBadge,
} from './schedule-parts';

const OUTCOMES: Record<string, [string, Tone]> = {
  running: ['Running', 'info'],
  success: ['Succeeded', 'success'],
  failure: ['Failed', 'danger'],
  suspended: ['Suspended', 'warn'],
  start_failed: ['Not started', 'danger'],
};

const col = columnHelper<ScheduleRun>();

/** The titles of the sessions in the loaded runs (filled once read; until then, and without one, the id). */
const NO_TITLES: ReadonlyMap<string, string> = new Map();
const TitlesContext = createContext(NO_TITLES);

function RunSession({ orgId, sessionId }: { orgId: string; sessionId: string }) {
  const title = useContext(TitlesContext).get(sessionId);
  // Runs of one schedule often share a title (the sandbox names them after it): the id tells them apart.
  return (
    <Link
      to="/orgs/$orgId/sessions/$sessionId"
      params={{ orgId, sessionId }}
      className="text-accent underline underline-offset-2 hover:no-underline"
    >
      {title && <span>{title} </span>}
      <span className={cn('font-mono text-xs', title && 'text-muted')}>{sessionId}</span>
    </Link>
  );
}

function runColumns(orgId: string) {
  return col.columns([
    col.accessor((r) => isoSeconds(r.started_at), {
      id: 'started_at',
      header: 'Started',
      ...timeColumn(),
      cell: ({ row }) => <RelativeTime value={isoSeconds(row.original.started_at)} />,
    }),
    col.accessor('session_id', {
      header: 'Session',
      enableHiding: false,
      meta: { width: 'minmax(12rem,1.5fr)', className: 'truncate' },
      cell: ({ getValue }) => {
        const sessionId = getValue();
        return sessionId ? (
          <RunSession orgId={orgId} sessionId={sessionId} />
        ) : (
          <span className="text-muted">No session</span>
        );
      },
    }),
    col.accessor('outcome', {
      header: 'Outcome',
      meta: { width: '8rem' },
      cell: ({ getValue }) => {
        const [label, tone] = OUTCOMES[getValue()] ?? [getValue(), 'neutral' as Tone];
        return <Badge tone={tone}>{label}</Badge>;
      },
    }),
    col.accessor((r) => r.error_message ?? '', {
      id: 'error',
      header: 'Error',
      meta: { width: 'minmax(10rem,2fr)', className: 'line-clamp-2 text-xs text-muted' },
      cell: ({ getValue }) => getValue() || '—',
    }),
  ]);
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function ScheduleRuns({ orgId, scheduleId }: { orgId: string; scheduleId: string }) {
  const query = useInfiniteQuery({
    ...scheduleRunsInfiniteQueryOptions(orgId, scheduleId),
    refetchInterval: SCHEDULE_POLL_MS,
  });
  const columns = useMemo(() => runColumns(orgId), [orgId]);
  const sessionIds = useMemo(
    () => [...new Set(query.data?.pages.flatMap((p) => p.items.flatMap((r) => r.session_id ?? [])) ?? [])],
    [query.data],
  );
  const titles = useQuery({ ...sessionTitlesQueryOptions(orgId, sessionIds), placeholderData: keepPreviousData });
  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return (
      <p className="text-sm text-muted">
        This API does not list a schedule&apos;s runs. Its sessions are in the{' '}
        <Link
          to="/orgs/$orgId/sessions"
          params={{ orgId }}
          search={{ origins: 'automation' }}
          className="text-accent underline underline-offset-2"
        >
          sessions list
        </Link>{' '}
        (origin: automation).
      </p>
    );
  }
  return (
    <TitlesContext.Provider value={titles.data ?? NO_TITLES}>
      <DataTable
        label="Sessions this schedule started"
        tableId="schedule-runs"
        columns={columns}
        query={query}
        getRowId={(r) => r.run_id}
        minWidth="40rem"
        empty={{ title: 'No runs yet', hint: 'The sessions it starts appear here as they start.' }}
        className="h-auto max-h-[28rem] min-h-40"
      />
    </TitlesContext.Provider>
  );
}

/**
 * The form created the schedule but could not disable it: it exists and is enabled. Says so until it is disabled
 * (here, or with the switch) or dismissed.
 */
function DisableFailedNotice({ orgId, schedule: s, error }: { orgId: string; schedule: Schedule; error: unknown }) {
  const update = useUpdateSchedule(orgId);
  const [dismissed, setDismissed] = useState(false);
  if (dismissed || !s.enabled) return null;
  const { title, detail } = describeError(update.error ?? error);
  return (
    <div role="alert" className="mb-4 rounded-lg border border-danger/40 bg-danger/5 p-4 text-sm">
      <p className="font-semibold text-danger">This schedule was created, but it is enabled</p>
      <p className="mt-1">
        You asked for a disabled schedule; it was created enabled and disabling it failed ({title}
        {detail ? `: ${detail}` : ''}). It runs at its next time unless you disable it.
      </p>
      <div className="mt-3 flex gap-2">
        <Button
          variant="primary"
          disabled={update.isPending}
          onClick={() => update.mutate({ scheduleId: s.scheduled_session_id, body: { enabled: false } })}
        >
          {update.isPending ? 'Disabling…' : 'Disable it now'}
        </Button>
        <Button variant="ghost" onClick={() => setDismissed(true)}>
          Dismiss
        </Button>
      </div>
    </div>
  );
}

/** Why the service paused the schedule: its creator or run-as principal can no longer act. */
function PausedNotice({ schedule: s }: { schedule: Schedule }) {
  if (s.enabled || !s.paused_reason) return null;
  return (
    <div role="status" className="mb-4 rounded-lg border border-warn/40 bg-warn/5 p-4 text-sm">
      <p className="font-semibold">
        Paused by the service
        {s.paused_at ? (
          <>
            {' '}
            (<LocalTime seconds={isoSeconds(s.paused_at)} />)
          </>
        ) : null}
      </p>
      <p className="mt-1" data-testid="paused-reason">
        {s.paused_reason}
      </p>
      <p className="mt-1 text-muted">
        It starts no sessions until it is enabled again by a principal that can run it; if its creator was revoked,
        create a new schedule.
      </p>
    </div>
  );
}

export function ScheduleView({ orgId, scheduleId }: { orgId: string; scheduleId: string }) {
  const [notice] = useState(() => peekScheduleNotice(scheduleId));
  useEffect(() => dropScheduleNotice(scheduleId), [scheduleId]);
  const { data: s } = useQuery({ ...scheduleQueryOptions(orgId, scheduleId), refetchInterval: SCHEDULE_POLL_MS });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useDeleteSchedule(orgId);
  const [confirming, setConfirming] = useState(false);
  if (!s) return null;

  return (
    <div className="max-w-5xl">
      <Link
        to="/orgs/$orgId/schedules"
        params={{ orgId }}
        className="mb-3 inline-flex items-center gap-1 text-sm text-accent underline underline-offset-2 hover:no-underline"
      >
        <ArrowLeft className="size-4" aria-hidden /> All schedules
      </Link>
      <PageHeader
        title={s.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StateBadge schedule={s} />
            <span className="font-mono text-xs">{s.scheduled_session_id}</span>
          </span>
        }
        actions={
          <>
            <Link to="/orgs/$orgId/schedules/$scheduleId/edit" params={{ orgId, scheduleId }} className={buttonClass()}>
              <Pencil className="size-4" aria-hidden /> Edit
            </Link>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              <Trash2 className="size-4" aria-hidden /> Delete
            </Button>
          </>
        }
      />
      {notice?.kind === 'disable-failed' && <DisableFailedNotice orgId={orgId} schedule={s} error={notice.error} />}
      <PausedNotice schedule={s} />
      <dl className="mb-4 grid grid-cols-1 gap-x-6 gap-y-3 rounded-lg border border-line bg-surface p-4 text-sm sm:grid-cols-3">
        <Detail label="Frequency">
          <FrequencyText schedule={s} />
        </Detail>
        <Detail label="Next run">
          <LocalTime seconds={nextRunOf(s)} />
        </Detail>
        <Detail label="Last run">
          <LocalTime seconds={isoSeconds(s.last_executed_at)} />
        </Detail>
        <Detail label="Enabled">
          <EnabledSwitch orgId={orgId} schedule={s} />
        </Detail>
        <Detail label="Consecutive failures">
          <FailuresBadge schedule={s} />
        </Detail>
        <Detail label="Notify">{notifyLabel(s.notify_on)}</Detail>
        <Detail label="Playbook">
          {s.playbook ? (
            s.playbook.title ? (
              <Link
                to="/orgs/$orgId/playbooks/$playbookId"
                params={{ orgId, playbookId: s.playbook.playbook_id }}
                className="text-accent underline underline-offset-2"
              >
                {s.playbook.title}
              </Link>
            ) : (
              <span className="font-mono text-xs" title="This playbook no longer exists">
                {s.playbook.playbook_id} (deleted)
              </span>
            )
          ) : (
            '—'
          )}
        </Detail>
        <Detail label="Tags">{s.tags?.length ? s.tags.join(', ') : '—'}</Detail>
        <Detail label="Created">
          <LocalTime seconds={isoSeconds(s.created_at)} />
        </Detail>
        {s.last_error_message && (
          <div className="sm:col-span-3">
            <dt className="text-muted">
              Last error (<LocalTime seconds={isoSeconds(s.last_error_at)} />)
            </dt>
            <dd className="text-danger">{s.last_error_message}</dd>
          </div>
        )}
      </dl>
      <section aria-labelledby="schedule-prompt" className="mb-4 rounded-lg border border-line bg-surface p-4">
        <h2 id="schedule-prompt" className="mb-1 text-sm font-semibold">
          Prompt
        </h2>
        <p className="text-sm whitespace-pre-wrap">{s.prompt}</p>
      </section>
      <section aria-labelledby="schedule-runs">
        <h2 id="schedule-runs" className="mb-2 text-base font-semibold">
          Sessions this schedule started
        </h2>
        <ScheduleRuns orgId={orgId} scheduleId={scheduleId} />
      </section>
      <ConfirmDelete
        target={confirming ? scheduleId : null}
        onClose={() => setConfirming(false)}
        mutation={remove}
        variables={(id) => id}
        title={`Delete “${s.name}”?`}
        description="It stops running at once. The sessions it started stay. This cannot be undone."
        confirmLabel="Delete schedule"
        onDeleted={(id) =>
          void navigate({ to: '/orgs/$orgId/schedules', params: { orgId } }).then(() =>
            forgetSchedule(queryClient, orgId, id),
          )
        }
      />
    </div>
  );
}
