/**
 * The capacity trend charts (recharts). Only the capacity screen imports this module, so the chart library is
 * loaded with that route, never with the shell or its queue indicator. Colours are theme variables or hues
 * that read on both the light and the dark surface.
 */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber } from '@/lib/format';
import type { TrendRow } from './trend-data';

const COLORS = ['oklch(0.62 0.15 262)', 'oklch(0.68 0.15 150)', 'oklch(0.72 0.14 65)'] as const;
const AXIS = { fill: 'var(--color-muted)', fontSize: 12 };
const TOOLTIP = {
  contentStyle: {
    background: 'var(--color-surface)',
    border: '1px solid var(--color-line)',
    borderRadius: 6,
    color: 'var(--color-fg)',
    fontSize: 12,
  },
  labelStyle: { color: 'var(--color-fg)', fontWeight: 600 },
  itemStyle: { color: 'var(--color-fg)' },
};
const LEGEND = { wrapperStyle: { fontSize: 12, color: 'var(--color-fg)' } };
const fmt = (v: unknown) => (typeof v === 'number' ? formatNumber(v, 1) : String(v ?? '—'));

export interface TrendSeries {
  key: keyof TrendRow & string;
  label: string;
  /** Drawn against the right-hand axis (percent). */
  right?: boolean;
}

/** Lines over the sampled intervals; a failed interval breaks its lines. */
export function TrendChart({
  rows,
  series,
  rightUnit,
}: {
  rows: readonly TrendRow[];
  series: TrendSeries[];
  rightUnit?: string;
}) {
  const hasRight = series.some((s) => s.right);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rows as TrendRow[]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="var(--color-line)" vertical={false} />
        <XAxis
          dataKey="label"
          tick={AXIS}
          minTickGap={24}
          tickLine={false}
          axisLine={{ stroke: 'var(--color-line)' }}
        />
        <YAxis yAxisId="left" tick={AXIS} width={40} allowDecimals={false} tickLine={false} axisLine={false} />
        {hasRight && (
          <YAxis
            yAxisId="right"
            orientation="right"
            tick={AXIS}
            width={44}
            domain={[0, 100]}
            tickFormatter={(v: number) => `${v}${rightUnit ?? ''}`}
            tickLine={false}
            axisLine={false}
          />
        )}
        <Tooltip {...TOOLTIP} formatter={fmt} />
        <Legend {...LEGEND} />
        {series.map((s, i) => (
          <Line
            key={s.key}
            yAxisId={s.right ? 'right' : 'left'}
            type="stepAfter"
            dataKey={s.key}
            name={s.label}
            stroke={COLORS[i % COLORS.length]}
            strokeWidth={2}
            dot={rows.length < 40}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
