/**
 * The schedules of one organization: name, frequency in words, next run in local time, last run, state (with
 * a switch to turn it on or off at once) and consecutive failures, on the data table.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import type { Schedule } from '@/api/operations/schedules';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { buttonClass } from '@/components/ui/button';
import { isoSeconds, schedulesInfiniteQueryOptions } from './api';
import { EnabledSwitch, FailuresBadge, FrequencyText, LocalTime, nextRunOf, StateBadge } from './schedule-parts';

const col = columnHelper<Schedule>();

function scheduleColumns(orgId: string) {
  return col.columns([
    col.accessor('name', {
      header: 'Name',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(12rem,1.6fr)', className: 'flex flex-col' },
      cell: ({ row: { original: s } }) => (
        <>
          <Link
            to="/orgs/$orgId/schedules/$scheduleId"
            params={{ orgId, scheduleId: s.scheduled_session_id }}
            className="font-medium text-accent underline underline-offset-2 hover:no-underline"
          >
            {s.name}
          </Link>
          <span className="truncate text-xs text-muted">{s.prompt}</span>
        </>
      ),
    }),
    col.accessor((s) => s.frequency ?? s.scheduled_at ?? '', {
      id: 'frequency',
      header: 'Frequency',
      meta: { width: 'minmax(11rem,1.3fr)' },
      cell: ({ row }) => <FrequencyText schedule={row.original} />,
    }),
    col.accessor((s) => nextRunOf(s), {
      id: 'next_run',
      header: 'Next run',
      enableSorting: true,
      meta: { width: 'minmax(9rem,1fr)', className: 'text-xs' },
      cell: ({ getValue }) => <LocalTime seconds={getValue()} />,
    }),
    col.accessor((s) => isoSeconds(s.last_executed_at), {
      id: 'last_run',
      header: 'Last run',
      ...timeColumn(),
      cell: ({ row }) => <RelativeTime value={isoSeconds(row.original.last_executed_at)} />,
    }),
    col.accessor('enabled', {
      header: 'State',
      enableSorting: true,
      meta: { width: '9.5rem', className: 'flex items-center gap-2' },
      cell: ({ row: { original: s } }) => (
        <>
          <EnabledSwitch orgId={orgId} schedule={s} />
          <StateBadge schedule={s} />
        </>
      ),
    }),
    col.accessor('consecutive_failures', {
      header: 'Failures',
      enableSorting: true,
      meta: { width: '6.5rem' },
      cell: ({ row }) => <FailuresBadge schedule={row.original} />,
    }),
  ]);
}

export function SchedulesScreen({ orgId, subtitle }: { orgId: string; subtitle?: string }) {
  const query = useInfiniteQuery({ ...schedulesInfiniteQueryOptions(orgId), refetchInterval: 15_000 });
  const columns = useMemo(() => scheduleColumns(orgId), [orgId]);
  return (
    <>
      <PageHeader
        title="Schedules"
        description={`Sessions that ${subtitle ?? 'this organization'} starts on a schedule: a cron frequency in UTC, or once at a set time. Times are shown in your local time.`}
        actions={
          <Link to="/orgs/$orgId/schedules/new" params={{ orgId }} className={buttonClass({ variant: 'primary' })}>
            <Plus className="size-4" aria-hidden /> New schedule
          </Link>
        }
      />
      <DataTable
        label="Schedules"
        tableId="schedules"
        columns={columns}
        query={query}
        getRowId={(s) => s.scheduled_session_id}
        minWidth="56rem"
        empty={{ title: 'No schedules yet', hint: 'Create the first one with “New schedule”.' }}
        className="h-auto max-h-[calc(100dvh-12rem)] min-h-60"
      />
    </>
  );
}
