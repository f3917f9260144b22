/**
 * The usage dashboard, enterprise-wide or for one organization: compute units per billing day by product, by
 * organization (top 10 and the rest), the cycle to date against the ACU limits with a forecast to the cycle's
 * end, active users, and sessions and pull requests created and merged. The range is a billing-day preset in
 * the URL. Every chart has a text alternative, a table view and a CSV of exactly what it draws.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import {
  billingDayEnd,
  BILLING_DAY_NOTE,
  cycleBounds,
  cycleContaining,
  type RangePreset,
  type TimeRange,
} from '@/api/billing-day';
import { columnHelper, DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { describeError, ProblemView } from '@/components/problem-view';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';
import {
  activeUsersQueryOptions,
  activityQueryOptions,
  acuLimitsQueryOptions,
  cyclesQueryOptions,
  enterpriseActiveUsersQueryOptions,
  consumptionByOrganizationQueryOptions,
  dailyConsumptionQueryOptions,
  previousRange,
  type UsageScope,
} from './api';
import { ChartCard } from './chart-card';
import { CycleChart, DailyLinesChart, GroupedBarChart, RankedBarChart, StackedDailyChart } from './charts';
import { forecastCycle, type Forecast } from '@/api/cycle-forecast';
import { formatBillingDayLong, rangeSlug, useUsageRange } from './range';
import { missingPermissionOf, missingPermissions } from './permission';
import { RangePicker } from './range-picker';
import {
  activeUsersChartData,
  activityChartData,
  byOrganizationChartData,
  cycleChartData,
  dailyChartData,
  productLabel,
} from './usage-data';

/**
 * One figure. While it loads, a placeholder; when it cannot be read, a dash and the reason in words (never a
 * placeholder that stays forever).
 */
function Tile({
  label,
  value,
  hint,
  error,
  testId,
}: {
  label: string;
  value: string | undefined;
  hint?: string;
  error?: unknown;
  testId?: string;
}) {
  const missing = missingPermissionOf(error);
  return (
    <div className="rounded-lg border border-line bg-surface p-3" data-testid={testId}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums">
        {value ?? (error ? '—' : <Skeleton className="h-7 w-20" aria-label="Loading" />)}
      </dd>
      {value === undefined && error ? (
        <dd className="text-xs text-muted">
          {missing ? `Needs the ${missing} permission` : `Could not be read: ${describeError(error).title}`}
        </dd>
      ) : (
        hint && <dd className="text-xs text-muted">{hint}</dd>
      )}
    </div>
  );
}

function DailyCard({ scope, range, slug }: { scope: UsageScope; range: TimeRange; slug: string }) {
  const q = useQuery(dailyConsumptionQueryOptions(scope, range));
  const data = useMemo(() => (q.data ? dailyChartData(q.data) : undefined), [q.data]);
  return (
    <ChartCard
      title="Compute units per day"
      description="ACUs consumed on each billing day, stacked by product."
      data={data}
      query={q}
      csvName={`acus-per-day-${slug}`}
      chart={(d) => (
        <StackedDailyChart
          rows={d.rows}
          xKey="label"
          series={(data?.products ?? []).map((p) => ({ key: p, label: productLabel(p) }))}
        />
      )}
    />
  );
}

function ByOrganizationCard({ range, slug }: { range: TimeRange; slug: string }) {
  const q = useQuery(consumptionByOrganizationQueryOptions(range));
  const data = useMemo(() => (q.data ? byOrganizationChartData(q.data) : undefined), [q.data]);
  return (
    <ChartCard
      title="By organization"
      description="ACUs over the range: the ten organizations that used the most, then all the others together."
      data={data}
      query={q}
      daily={false}
      csvName={`acus-by-organization-${slug}`}
      chart={(d) => <RankedBarChart rows={d.rows} labelKey="organization" valueKey="acus" valueLabel="ACUs" />}
    />
  );
}

interface OrgForecastRow {
  org_id: string;
  name: string;
  forecast: Forecast;
}

const fcol = columnHelper<OrgForecastRow>();
const ORG_FORECAST_COLUMNS = fcol.columns([
  fcol.accessor('name', {
    header: 'Organization',
    enableHiding: false,
    meta: { width: 'minmax(9rem,1.2fr)', card: 'title' },
    cell: ({ row }) => (
      <Link to="/orgs/$orgId/usage" params={{ orgId: row.original.org_id }} className="text-accent hover:underline">
        {row.original.name}
      </Link>
    ),
  }),
  fcol.accessor((r) => r.forecast.cycleToDate, {
    id: 'cycle_to_date',
    header: 'Cycle to date',
    enableSorting: true,
    meta: { width: '7rem', align: 'end', className: 'tabular-nums' },
    cell: ({ getValue }) => formatNumber(getValue(), 2),
  }),
  fcol.accessor((r) => r.forecast.limit ?? 0, {
    id: 'limit',
    header: 'Limit',
    meta: { width: '5.5rem', align: 'end', className: 'tabular-nums' },
    cell: ({ getValue }) => formatNumber(getValue()),
  }),
  fcol.accessor((r) => r.forecast.forecastAtEnd, {
    id: 'forecast',
    header: 'Forecast at end',
    enableSorting: true,
    meta: { width: '7.5rem', align: 'end', className: 'tabular-nums' },
    cell: ({ getValue }) => formatNumber(getValue(), 2),
  }),
  fcol.accessor((r) => r.forecast.limitReachedOn ?? Number.MAX_SAFE_INTEGER, {
    id: 'reached',
    header: 'Limit reached',
    enableSorting: true,
    meta: { width: 'minmax(9rem,1fr)' },
    cell: ({ row }) => {
      const f = row.original.forecast;
      if (f.limitReachedOn === null) return <span className="text-muted">Not this cycle</span>;
      return (
        <span className={f.overLimit ? 'font-medium text-danger' : 'text-warn'}>
          {f.overLimit ? 'Reached ' : 'Would be '}
          {formatBillingDayLong(f.limitReachedOn)}
        </span>
      );
    },
  }),
]);

function CycleCard({ scope, now, cycles }: { scope: UsageScope; now: number; cycles: UsageCycles }) {
  const cycle = cycleContaining(cycles ?? [], now) ?? cycleBounds(now, 1);
  const range: TimeRange = { time_after: cycle.after, time_before: Math.min(cycle.before, billingDayEnd(now)) };
  const q = useQuery(dailyConsumptionQueryOptions(scope, range));
  const limits = useQuery(acuLimitsQueryOptions());
  const orgs = useQuery({ ...consumptionByOrganizationQueryOptions(range), enabled: scope.kind === 'enterprise' });
  const limit =
    limits.data?.find((l) =>
      scope.kind === 'enterprise' ? l.scope === 'enterprise' : l.scope === 'org' && l.org_id === scope.orgId,
    )?.cycle_acu_limit ?? null;
  const forecast = useMemo(
    () => (q.data ? forecastCycle({ cycle, now, days: q.data.consumption_by_date, limit }) : undefined),
    [q.data, cycle, now, limit],
  );
  const data = useMemo(
    () => (q.data && forecast ? cycleChartData(cycle, now, q.data, forecast) : undefined),
    [q.data, forecast, cycle, now],
  );
  const orgRows = useMemo<OrgForecastRow[]>(
    () =>
      (orgs.data ?? [])
        .filter((o) => o.max_cycle_acu_limit !== null)
        .map((o) => ({
          org_id: o.org_id,
          name: o.name,
          forecast: forecastCycle({ cycle, now, days: o.days, limit: o.max_cycle_acu_limit }),
        })),
    [orgs.data, cycle, now],
  );
  const f = forecast;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4 xl:col-span-2 xl:grid-cols-2">
      <ChartCard
        title="Cycle to date and forecast"
        description={`This billing cycle against the ${scope.kind === 'enterprise' ? 'enterprise' : "organization's"} ACU limit, and where the current burn rate (the last 7 complete days) ends it.`}
        data={data}
        query={q}
        csvName={`cycle-forecast-${scope.kind === 'enterprise' ? 'enterprise' : scope.orgId}`}
        chart={(d) => (
          <CycleChart
            rows={d.rows}
            xKey="label"
            actualKey="cycle_to_date"
            forecastKey="forecast"
            limit={limit}
            showLimit={limit !== null && (f?.forecastAtEnd ?? 0) >= limit / 3}
          />
        )}
        headerExtra={
          f && (
            <span
              className={
                f.overLimit
                  ? 'text-sm font-medium text-danger'
                  : f.limitReachedOn
                    ? 'text-sm text-warn'
                    : 'text-sm text-muted'
              }
              data-testid="forecast-verdict"
            >
              {f.limit === null
                ? 'No limit set'
                : f.overLimit
                  ? `Limit reached ${f.limitReachedOn ? formatBillingDayLong(f.limitReachedOn) : ''}`
                  : f.limitReachedOn
                    ? `Limit reached on ${formatBillingDayLong(f.limitReachedOn)} at this rate`
                    : 'Within the limit this cycle'}
            </span>
          )
        }
      />
      {scope.kind === 'enterprise' && (
        <section aria-labelledby="org-limits-heading" className="min-w-0 rounded-lg border border-line bg-surface p-4">
          <h2 id="org-limits-heading" className="font-semibold">
            Organizations against their ACU limits
          </h2>
          <p className="mb-2 text-sm text-muted">
            This cycle, each organization that has a limit: used so far, where its own burn rate ends the cycle, and the
            billing day its limit would be reached.
          </p>
          {missingPermissionOf(orgs.error) ? (
            <p className="rounded-md border border-line bg-surface-2 p-3 text-sm text-muted">
              Not shown: this needs the {missingPermissionOf(orgs.error)} permission (see above).
            </p>
          ) : orgs.error ? (
            <ProblemView error={orgs.error} onRetry={() => void orgs.refetch()} compact />
          ) : orgs.isPending ? (
            <Skeleton className="h-24 w-full" aria-label="Loading" />
          ) : (
            <DataTable
              label="Organizations against their ACU limits"
              tableId="usage-org-limits"
              columns={ORG_FORECAST_COLUMNS}
              data={orgRows}
              getRowId={(r) => r.org_id}
              empty={{ title: 'No organization has an ACU limit' }}
              estimateRowHeight={36}
              minWidth="38rem"
              className="h-auto max-h-80 min-h-24"
            />
          )}
        </section>
      )}
    </div>
  );
}

type UsageCycles = ReturnType<typeof useUsageRange>['cycles'];

function ActiveUsersCard({ scope, range, slug }: { scope: UsageScope; range: TimeRange; slug: string }) {
  const q = useQuery(activeUsersQueryOptions(scope, range));
  const data = useMemo(() => (q.data ? activeUsersChartData(range, q.data) : undefined), [q.data, range]);
  return (
    <ChartCard
      title="Active users"
      description="People who created a session or made a search: per billing day, per 7 days and per month (held over their days)."
      data={data}
      query={q}
      csvName={`active-users-${slug}`}
      chart={(d) => (
        <DailyLinesChart
          rows={d.rows}
          xKey="label"
          series={[
            { key: 'daily', label: 'Daily' },
            { key: 'weekly', label: 'Weekly' },
            { key: 'monthly', label: 'Monthly' },
          ]}
          stepped={['weekly', 'monthly']}
        />
      )}
    />
  );
}

function ActivityCard({ scope, range, slug }: { scope: UsageScope; range: TimeRange; slug: string }) {
  const q = useQuery(activityQueryOptions(scope, range));
  const data = useMemo(() => (q.data ? activityChartData(q.data) : undefined), [q.data]);
  return (
    <ChartCard
      title="Sessions and pull requests"
      description="Sessions created, and pull requests created and merged, in this range and in the range of the same length before it."
      data={data}
      query={q}
      csvName={`sessions-and-prs-${slug}`}
      chart={(d) => (
        <GroupedBarChart
          rows={d.rows}
          xKey="measure"
          series={[
            { key: 'this_range', label: 'This range' },
            { key: 'previous_range', label: 'Range before' },
          ]}
        />
      )}
    />
  );
}

function changeHint(current: number | undefined, previous: number | undefined): string | undefined {
  if (current === undefined || previous === undefined) return undefined;
  if (previous === 0) return current === 0 ? 'None in the range before either' : 'None in the range before';
  const pct = ((current - previous) / previous) * 100;
  const size = formatNumber(Math.abs(pct));
  return pct === 0 ? 'Same as the range before' : `${pct > 0 ? '+' : '−'}${size} % on the range before`;
}

function Tiles({ scope, range }: { scope: UsageScope; range: TimeRange }) {
  const daily = useQuery(dailyConsumptionQueryOptions(scope, range));
  const before = useQuery(dailyConsumptionQueryOptions(scope, previousRange(range)));
  const activity = useQuery(activityQueryOptions(scope, range));
  const users = useQuery(activeUsersQueryOptions(scope, range));
  const active = useQuery(enterpriseActiveUsersQueryOptions(scope, range));
  const avgDau = users.data?.dau.length
    ? users.data.dau.reduce((n, d) => n + d.active_users, 0) / users.data.dau.length
    : undefined;
  return (
    <dl className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5">
      <Tile
        label="Compute units (ACUs)"
        value={daily.data && formatNumber(daily.data.total_acus, 2)}
        error={daily.error}
        hint={changeHint(daily.data?.total_acus, before.data?.total_acus)}
        testId="tile-acus"
      />
      <Tile
        label="Sessions created"
        value={activity.data && formatNumber(activity.data.current.sessions.sessions_created_count)}
        error={activity.error}
        hint={changeHint(
          activity.data?.current.sessions.sessions_created_count,
          activity.data?.previous.sessions.sessions_created_count,
        )}
      />
      <Tile
        label="Pull requests merged"
        value={activity.data && formatNumber(activity.data.current.prs.prs_merged_count)}
        error={activity.error}
        hint={changeHint(activity.data?.current.prs.prs_merged_count, activity.data?.previous.prs.prs_merged_count)}
      />
      <Tile
        label="Active users"
        value={active.data && formatNumber(active.data.active_users)}
        error={active.error}
        hint="People with a session or a search in the range"
        testId="tile-active-users"
      />
      <Tile
        label="Daily active users (average)"
        value={avgDau === undefined ? users.data && '0' : formatNumber(avgDau, 1)}
        error={users.error}
      />
    </dl>
  );
}

/**
 * Each permission the screen's reads miss, named once: the cards below then say in a line what they leave out.
 * Reads the cards' own queries (the same keys), so it costs no request of its own.
 */
function PermissionNotice({ scope, range }: { scope: UsageScope; range: TimeRange }) {
  const daily = useQuery(dailyConsumptionQueryOptions(scope, range));
  const cycles = useQuery(cyclesQueryOptions());
  const activity = useQuery(activityQueryOptions(scope, range));
  const users = useQuery(activeUsersQueryOptions(scope, range));
  const missing = missingPermissions([daily.error, cycles.error, activity.error, users.error]);
  if (missing.length === 0) return null;
  return (
    <div
      role="note"
      className="mb-4 rounded-lg border border-warn/50 bg-warn/5 p-4 text-sm"
      data-testid="usage-permission"
    >
      {missing.map((p) => (
        <p key={p}>
          <strong className="font-semibold">Missing permission: {p}.</strong>{' '}
          {p === 'ManageBilling'
            ? 'Compute units, the billing cycle and its forecast, and the organizations’ figures are not shown.'
            : 'The figures that need it are not shown.'}{' '}
          Ask an enterprise admin to grant {p} to the role of the console’s service user; the rest of this page works
          without it.
        </p>
      ))}
    </div>
  );
}

export function UsageDashboard({
  scope,
  orgName,
  preset,
  onPresetChange,
}: {
  scope: UsageScope;
  orgName?: string;
  preset: RangePreset;
  onPresetChange: (next: RangePreset) => void;
}) {
  const { range, cycles, now } = useUsageRange(preset);
  const slug = range ? `${scope.kind === 'org' ? `${scope.orgId}-` : ''}${rangeSlug(range)}` : '';
  const title = scope.kind === 'enterprise' ? 'Usage' : 'Organization usage';
  return (
    <>
      <PageHeader
        title={title}
        documentTitle={scope.kind === 'org' && orgName ? `Usage · ${orgName}` : title}
        description={
          scope.kind === 'enterprise'
            ? 'Where compute units go, whether the cycle’s budget lasts, who uses the platform.'
            : `Compute units, activity and the cycle's budget of ${orgName ?? 'this organization'}.`
        }
        actions={
          <>
            {scope.kind === 'enterprise' && (
              <Link
                to="/usage/people"
                className="inline-flex h-9 items-center self-end rounded-md border border-line px-3 text-sm hover:bg-surface-2"
              >
                Per person and service user
              </Link>
            )}
            <RangePicker value={preset} onChange={onPresetChange} range={range} />
          </>
        }
      />
      <p className="mb-4 text-xs text-muted">
        {BILLING_DAY_NOTE} Dates on this page are billing days, whatever your time zone.
      </p>
      {!range ? (
        <Skeleton className="h-64 w-full" aria-label="Loading" />
      ) : (
        <>
          <PermissionNotice scope={scope} range={range} />
          <Tiles scope={scope} range={range} />
          <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
            <DailyCard scope={scope} range={range} slug={slug} />
            {scope.kind === 'enterprise' && <ByOrganizationCard range={range} slug={slug} />}
            <CycleCard scope={scope} now={now} cycles={cycles} />
            <ActiveUsersCard scope={scope} range={range} slug={slug} />
            <ActivityCard scope={scope} range={range} slug={slug} />
          </div>
        </>
      )}
    </>
  );
}
