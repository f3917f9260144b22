/**
 * The capacity trend charts (recharts). Only the capacity screen imports this module, so the chart library is
 * loaded with that route, never with the shell or its queue indicator. Colours are theme variables or hues
 * that read on both the light and the dark surface.
 */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import {
  CHART_BASE_AXIS,
  CHART_GRID_STROKE,
  CHART_LEGEND,
  CHART_TOOLTIP,
  CHART_VALUE_AXIS,
} from '@/components/chart-theme';
import { formatNumber } from '@/lib/format';
import type { TrendRow } from './trend-data';

const COLORS = ['oklch(0.62 0.15 262)', 'oklch(0.68 0.15 150)', 'oklch(0.72 0.14 65)'] as const;
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
        <CartesianGrid stroke={CHART_GRID_STROKE} vertical={false} />
        <XAxis dataKey="label" {...CHART_BASE_AXIS} minTickGap={24} />
        <YAxis yAxisId="left" {...CHART_VALUE_AXIS} width={40} allowDecimals={false} />
        {hasRight && (
          <YAxis
            yAxisId="right"
            orientation="right"
            {...CHART_VALUE_AXIS}
            width={44}
            domain={[0, 100]}
            tickFormatter={(v: number) => `${v}${rightUnit ?? ''}`}
          />
        )}
        <Tooltip {...CHART_TOOLTIP} formatter={fmt} />
        <Legend {...CHART_LEGEND} />
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
