/**
 * Organization usage on the organization's overview: its four usage metrics (sessions, searches, pull requests
 * created and merged; `ViewOrgMetrics`) for a chosen billing-day range. No chart library here: the overview
 * stays light.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { RangePreset } from '@/api/billing-day';
import { ProblemView } from '@/components/problem-view';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';
import { orgUsageMetricsQueryOptions } from './api';
import { DEFAULT_PRESET, useUsageRange } from './range';
import { RangePicker } from './range-picker';

const METRICS = [
  { key: 'sessions_count', label: 'Sessions created' },
  { key: 'searches_count', label: 'Searches' },
  { key: 'prs_created_count', label: 'Pull requests created' },
  { key: 'prs_merged_count', label: 'Pull requests merged' },
] as const;

export function OrgUsagePanel({ orgId }: { orgId: string }) {
  const [preset, setPreset] = useState<RangePreset>(DEFAULT_PRESET);
  const { range } = useUsageRange(preset);
  const q = useQuery({
    ...orgUsageMetricsQueryOptions(orgId, range ?? { time_after: 0, time_before: 1 }),
    enabled: !!range,
  });
  return (
    <section
      aria-labelledby="org-usage-heading"
      className="mt-6 max-w-3xl rounded-lg border border-line bg-surface p-4"
      data-testid="org-usage-panel"
    >
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="org-usage-heading" className="font-semibold">
            Usage
          </h2>
          <p className="text-xs text-muted">Billing days start at 08:00 UTC.</p>
        </div>
        <RangePicker value={preset} onChange={setPreset} range={range} label="Usage range" />
      </div>
      {q.error ? (
        <ProblemView error={q.error} onRetry={() => void q.refetch()} compact />
      ) : (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-busy={!q.data}>
          {METRICS.map((m) => (
            <div key={m.key} className="rounded-md border border-line p-3">
              <dt className="text-xs text-muted">{m.label}</dt>
              <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid={`org-usage-${m.key}`}>
                {q.data ? formatNumber(q.data[m.key]) : <Skeleton className="h-6 w-12" aria-label="Loading" />}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <p className="mt-3 text-sm">
        <Link to="/orgs/$orgId/usage" params={{ orgId }} className="text-accent hover:underline">
          Compute units, active users and the cycle's budget
        </Link>
      </p>
    </section>
  );
}
