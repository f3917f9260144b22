/**
 * Violations per billing day, stacked by guardrail (recharts). Loaded lazily by the violations screen, so the
 * chart library is fetched only on that route, after the table has painted.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DayRow } from './billing-day';

export default function ViolationsChart({
  rows,
  series,
}: {
  rows: readonly DayRow[];
  series: ReadonlyArray<{ id: string; name: string; color: string }>;
}) {
  const data = rows.map((r) => ({ label: r.label, ...r.counts }));
  return (
    <div className="h-64 w-full text-xs" aria-hidden>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} vertical={false} />
          <XAxis dataKey="label" tick={{ fill: 'currentColor' }} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fill: 'currentColor' }} />
          <Tooltip
            contentStyle={{ background: 'var(--color-surface, #fff)', borderColor: 'var(--color-line, #ddd)' }}
            labelStyle={{ color: 'var(--color-fg, #111)' }}
            labelFormatter={(l) => `Billing day ${String(l)} (from 08:00 UTC)`}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map((s) => (
            <Bar
              key={s.id}
              dataKey={s.id}
              name={s.name}
              stackId="violations"
              fill={s.color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
