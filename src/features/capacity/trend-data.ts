/**
 * From the console's capacity samples to chart rows and the sentences that say what they show. A failed
 * interval stays in the rows with empty figures (the lines break there) and is counted and explained apart.
 */
import type { CapacitySample } from '@/api/console/capacity-samples';
import { formatNumber } from '@/lib/format';

export interface TrendRow {
  sampled_at: number;
  label: string;
  queued: number | null;
  available: number | null;
  utilization_avg: number | null;
  utilization_max: number | null;
  status: string | null;
}

const timeFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
export const formatSampleTime = (t: number) => timeFormat.format(t * 1000);

export function trendRows(samples: readonly CapacitySample[]): TrendRow[] {
  return samples.map((s) => ({
    sampled_at: s.sampled_at,
    label: formatSampleTime(s.sampled_at),
    queued: s.queue_size,
    available: s.hypervisors_by_status ? (s.hypervisors_by_status.available ?? 0) : null,
    utilization_avg: s.utilization_avg,
    utilization_max: s.utilization_max,
    status: s.queue_status,
  }));
}

/** The intervals without figures, newest first, with why. */
export function gapsOf(samples: readonly CapacitySample[]): CapacitySample[] {
  return samples.filter((s) => s.error !== null).reverse();
}

const stats = (values: Array<number | null>) => {
  const v = values.filter((x): x is number => x !== null);
  if (v.length === 0) return null;
  return { min: Math.min(...v), max: Math.max(...v), last: v[v.length - 1]! };
};

export function queueSummary(rows: readonly TrendRow[]): string {
  const s = stats(rows.map((r) => r.queued));
  if (!s) return 'No sample of the queue in this window yet.';
  const high = rows.filter((r) => r.status === 'high').length;
  return (
    `Queued sessions from ${formatNumber(s.min)} to ${formatNumber(s.max)}, ${formatNumber(s.last)} at the last sample` +
    (high ? `; the indicator was high in ${high} of ${rows.length} samples.` : '.')
  );
}

export function hypervisorSummary(rows: readonly TrendRow[]): string {
  const a = stats(rows.map((r) => r.available));
  const u = stats(rows.map((r) => r.utilization_avg));
  if (!a) return 'No sample of the hypervisors in this window yet.';
  return (
    `Available hypervisors from ${formatNumber(a.min)} to ${formatNumber(a.max)}, ${formatNumber(a.last)} at the last sample` +
    (u
      ? `; their average utilization from ${formatNumber(u.min, 1)} % to ${formatNumber(u.max, 1)} %, ${formatNumber(u.last, 1)} % last.`
      : '.')
  );
}
