/**
 * From API answers to chart data: the rows each chart draws, its table shows and its CSV holds (the same rows),
 * and the sentence that says what it shows. Pure functions; dates are billing days (08:00 UTC).
 */
import { billingDayLabel, billingDays, DAY_SECONDS, type BillingCycle, type TimeRange } from '@/api/billing-day';
import { PRODUCT_LABELS, type ConsumptionResponse } from '@/api/operations/consumption';
import type { ActiveUsers, PrMetrics, SessionMetrics } from '@/api/operations/metrics';
import { formatNumber } from '@/lib/format';
import type { ChartColumn, ChartData, ChartRow } from './chart-card';
import type { OrgConsumption } from './api';
import type { Forecast } from '@/api/cycle-forecast';
import { formatBillingDay, formatBillingDayLong } from './range';

export const DAY_COLUMN: ChartColumn = { key: 'billing_day', header: 'Billing day (starts 08:00 UTC)' };

const cents = (x: number) => Math.round(x * 100);
const acus = (c: number) => c / 100;
export const productLabel = (p: string) => PRODUCT_LABELS[p] ?? p;

/** The products present in an answer, known ones first in their order, then others by name. */
export function productsOf(resp: ConsumptionResponse): string[] {
  const seen = new Set<string>();
  for (const d of resp.consumption_by_date) for (const p of Object.keys(d.acus_by_product ?? {})) seen.add(p);
  const known = Object.keys(PRODUCT_LABELS);
  return [...seen].sort((a, b) => {
    const ia = known.indexOf(a);
    const ib = known.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
}

/** Compute units per billing day, one column per product and the day's total. */
export function dailyChartData(resp: ConsumptionResponse): ChartData & { products: string[] } {
  const products = productsOf(resp);
  const rows: ChartRow[] = resp.consumption_by_date.map((d) => {
    const row: ChartRow = { billing_day: billingDayLabel(d.date), label: formatBillingDay(d.date) };
    for (const p of products) row[p] = d.acus_by_product?.[p] ?? 0;
    row.total = d.acus;
    return row;
  });
  const peak = resp.consumption_by_date.reduce<{ date: number; acus: number } | null>(
    (best, d) => (best === null || d.acus > best.acus ? d : best),
    null,
  );
  const days = resp.consumption_by_date.length;
  const summary =
    days === 0
      ? 'No billing days in this range.'
      : `${formatNumber(resp.total_acus, 2)} ACUs over ${days} billing ${days === 1 ? 'day' : 'days'}` +
        (products.length
          ? `, by product: ${products
              .map(
                (p) =>
                  `${productLabel(p)} ${formatNumber(acus(resp.consumption_by_date.reduce((n, d) => n + cents(d.acus_by_product?.[p] ?? 0), 0)), 2)}`,
              )
              .join(', ')}`
          : '') +
        (peak && peak.acus > 0
          ? `. Highest day: ${formatBillingDayLong(peak.date)} with ${formatNumber(peak.acus, 2)} ACUs.`
          : '.');
  return {
    products,
    columns: [
      DAY_COLUMN,
      ...products.map((p) => ({ key: p, header: `${productLabel(p)} (ACUs)`, numeric: true })),
      { key: 'total', header: 'Total (ACUs)', numeric: true },
    ],
    rows,
    summary,
  };
}

export const TOP_ORGS = 10;

/** The top organizations by compute units, and the rest summed into one row. */
export function byOrganizationChartData(orgs: readonly OrgConsumption[], top = TOP_ORGS): ChartData {
  const total = orgs.reduce((n, o) => n + cents(o.total_acus), 0);
  const head = orgs.slice(0, top);
  const rest = orgs.slice(top);
  const share = (c: number) => (total > 0 ? Math.round((c / total) * 1000) / 10 : 0);
  const rows: ChartRow[] = head.map((o) => ({
    organization: o.name,
    org_id: o.org_id,
    acus: o.total_acus,
    share_percent: share(cents(o.total_acus)),
  }));
  if (rest.length > 0) {
    const c = rest.reduce((n, o) => n + cents(o.total_acus), 0);
    rows.push({
      organization: `All other organizations (${rest.length})`,
      org_id: '',
      acus: acus(c),
      share_percent: share(c),
    });
  }
  const first = head[0];
  return {
    columns: [
      { key: 'organization', header: 'Organization' },
      { key: 'org_id', header: 'Organization id' },
      { key: 'acus', header: 'ACUs', numeric: true },
      { key: 'share_percent', header: 'Share (%)', numeric: true, format: (v) => `${formatNumber(Number(v), 1)} %` },
    ],
    rows,
    summary:
      orgs.length === 0
        ? 'No organizations.'
        : `${formatNumber(acus(total), 2)} ACUs across ${orgs.length} organizations` +
          (first
            ? `; the most: ${first.name} with ${formatNumber(first.total_acus, 2)} (${share(cents(first.total_acus))} %)`
            : '') +
          (rest.length
            ? `; the ${rest.length} outside the top ${top} together ${formatNumber(rows.at(-1)!.acus as number, 2)}.`
            : '.'),
  };
}

/**
 * The cycle day by day: each day's ACUs and the running total up to today, then the forecast's running total
 * from today to the cycle's last day (at each day's end), and the limit.
 */
export function cycleChartData(
  cycle: BillingCycle,
  now: number,
  resp: ConsumptionResponse,
  forecast: Forecast,
): ChartData {
  const byDay = new Map(resp.consumption_by_date.map((d) => [d.date, d.acus]));
  let running = 0;
  const today = billingDays(now, now + 1)[0]!;
  const rows: ChartRow[] = billingDays(cycle.after, cycle.before).map((date) => {
    const past = date <= today;
    if (past) running += cents(byDay.get(date) ?? 0);
    const end = Math.min(date + DAY_SECONDS, cycle.before);
    const projected =
      date >= today ? forecast.cycleToDate + forecast.burnRate * (Math.max(0, end - now) / DAY_SECONDS) : null;
    return {
      billing_day: billingDayLabel(date),
      label: formatBillingDay(date),
      acus: past ? (byDay.get(date) ?? 0) : null,
      cycle_to_date: past ? acus(running) : null,
      forecast: projected === null ? null : Math.round(projected * 100) / 100,
      limit: forecast.limit,
    };
  });
  const reach = forecast.limitReachedOn;
  const summary =
    `${formatNumber(forecast.cycleToDate, 2)} ACUs so far this cycle (${formatBillingDay(cycle.after)} – ${formatBillingDayLong(cycle.before - 1)}), ` +
    `${formatNumber(forecast.burnRate, 2)} a day lately; at that rate ${formatNumber(forecast.forecastAtEnd, 2)} by the cycle's end` +
    (forecast.limit === null
      ? '. No ACU limit is set.'
      : forecast.overLimit
        ? `. The limit of ${formatNumber(forecast.limit)} was reached on ${reach ? formatBillingDayLong(reach) : 'an earlier day'}.`
        : reach
          ? `. The limit of ${formatNumber(forecast.limit)} would be reached on ${formatBillingDayLong(reach)}.`
          : `, within the limit of ${formatNumber(forecast.limit)}.`);
  return {
    columns: [
      DAY_COLUMN,
      { key: 'acus', header: 'ACUs', numeric: true },
      { key: 'cycle_to_date', header: 'Cycle to date (ACUs)', numeric: true },
      { key: 'forecast', header: 'Forecast (ACUs)', numeric: true },
      { key: 'limit', header: 'Limit (ACUs)', numeric: true },
    ],
    rows,
    summary,
  };
}

/** The window of `list` that holds `t`. */
const windowOf = (list: readonly ActiveUsers[], t: number) => list.find((w) => w.start_time <= t && t < w.end_time);

/** Active users per billing day, with the week's and the month's count held over their days. */
export function activeUsersChartData(
  range: TimeRange,
  data: { dau: ActiveUsers[]; wau: ActiveUsers[]; mau: ActiveUsers[] },
): ChartData {
  const rows: ChartRow[] = data.dau.map((d) => ({
    billing_day: billingDayLabel(d.start_time),
    label: formatBillingDay(d.start_time),
    daily: d.active_users,
    weekly: windowOf(data.wau, d.start_time)?.active_users ?? null,
    monthly: windowOf(data.mau, d.start_time)?.active_users ?? null,
  }));
  const avg = data.dau.length ? data.dau.reduce((n, d) => n + d.active_users, 0) / data.dau.length : 0;
  const maxWeek = Math.max(0, ...data.wau.map((w) => w.active_users));
  const maxMonth = Math.max(0, ...data.mau.map((w) => w.active_users));
  return {
    columns: [
      DAY_COLUMN,
      { key: 'daily', header: 'Daily active users', numeric: true, format: (v) => formatNumber(Number(v)) },
      {
        key: 'weekly',
        header: 'Weekly active users (its 7 days)',
        numeric: true,
        format: (v) => formatNumber(v as number | null),
      },
      {
        key: 'monthly',
        header: 'Monthly active users (its month)',
        numeric: true,
        format: (v) => formatNumber(v as number | null),
      },
    ],
    rows,
    summary: `${formatNumber(avg, 1)} active users a day on average from ${formatBillingDay(range.time_after)} to ${formatBillingDayLong(range.time_before - 1)}; up to ${formatNumber(maxWeek)} in a week and ${formatNumber(maxMonth)} in a month.`,
  };
}

/** Sessions and pull requests created and merged: this range beside the one before it. */
export function activityChartData(data: {
  current: { sessions: SessionMetrics; prs: PrMetrics };
  previous: { sessions: SessionMetrics; prs: PrMetrics };
}): ChartData {
  const measure = (label: string, of: (p: typeof data.current) => number): ChartRow => ({
    measure: label,
    this_range: of(data.current),
    previous_range: of(data.previous),
  });
  const rows = [
    measure('Sessions created', (p) => p.sessions.sessions_created_count),
    measure('PRs created', (p) => p.prs.prs_created_count),
    measure('PRs merged', (p) => p.prs.prs_merged_count),
  ];
  const change = (r: ChartRow) => {
    const a = Number(r.this_range);
    const b = Number(r.previous_range);
    return b === 0 ? '' : ` (${a >= b ? '+' : '−'}${formatNumber((Math.abs(a - b) / b) * 100)} %)`;
  };
  return {
    columns: [
      { key: 'measure', header: 'Measure' },
      { key: 'this_range', header: 'This range', numeric: true, format: (v) => formatNumber(Number(v)) },
      { key: 'previous_range', header: 'Range before', numeric: true, format: (v) => formatNumber(Number(v)) },
    ],
    rows,
    summary:
      rows.map((r) => `${r.measure}: ${formatNumber(Number(r.this_range))}${change(r)}`).join('; ') +
      ', against the range before.',
  };
}
