/**
 * The usage charts (recharts). Only the usage routes import this module, so the chart library is loaded with
 * them and never with the first screen. Colours are theme variables or mid-lightness hues that read on both the
 * light and the dark surface; axes, grid and tooltips follow the theme.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import {
  CHART_BASE_AXIS,
  CHART_GRID_STROKE,
  CHART_LEGEND,
  CHART_TOOLTIP,
  CHART_VALUE_AXIS,
} from '@/components/chart-theme';
import { formatNumber } from '@/lib/format';
import type { ChartRow } from './chart-card';

/** Series colours: distinct hues at a lightness that holds on white and on the dark surface. */
export const SERIES_COLORS = [
  'oklch(0.62 0.15 262)',
  'oklch(0.68 0.15 150)',
  'oklch(0.72 0.14 65)',
  'oklch(0.63 0.18 27)',
  'oklch(0.66 0.12 200)',
  'oklch(0.6 0.17 320)',
  'oklch(0.7 0.13 110)',
  'oklch(0.6 0.12 290)',
  'oklch(0.7 0.14 40)',
  'oklch(0.64 0.1 180)',
  'oklch(0.58 0.02 260)',
] as const;

const TOOLTIP = { ...CHART_TOOLTIP, cursor: { fill: 'var(--color-surface-2)' } };
const fmt = (v: unknown) => (typeof v === 'number' ? formatNumber(v, 2) : String(v ?? '—'));
const compact = (v: number) => (Math.abs(v) >= 10_000 ? `${Math.round(v / 1000)}k` : formatNumber(v));

export interface Series {
  key: string;
  label: string;
}

/** Bars per day, stacked by series (compute units by product). */
export function StackedDailyChart({
  rows,
  series,
  xKey,
}: {
  rows: readonly ChartRow[];
  series: Series[];
  xKey: string;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows as ChartRow[]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={CHART_GRID_STROKE} vertical={false} />
        <XAxis dataKey={xKey} {...CHART_BASE_AXIS} minTickGap={16} />
        <YAxis {...CHART_VALUE_AXIS} width={44} tickFormatter={compact} />
        <Tooltip {...TOOLTIP} formatter={fmt} />
        <Legend {...CHART_LEGEND} />
        {series.map((s, i) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stackId="a"
            fill={SERIES_COLORS[i % SERIES_COLORS.length]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Horizontal bars, one per row (organizations by compute units). */
export function RankedBarChart({
  rows,
  labelKey,
  valueKey,
  valueLabel,
}: {
  rows: readonly ChartRow[];
  labelKey: string;
  valueKey: string;
  valueLabel: string;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows as ChartRow[]} layout="vertical" margin={{ top: 0, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={CHART_GRID_STROKE} horizontal={false} />
        <XAxis type="number" {...CHART_VALUE_AXIS} tickFormatter={compact} />
        <YAxis
          type="category"
          dataKey={labelKey}
          {...CHART_VALUE_AXIS}
          width={124}
          interval={0}
          tickFormatter={(v: string) => (v.length > 17 ? `${v.slice(0, 16)}…` : v)}
        />
        <Tooltip {...TOOLTIP} formatter={fmt} />
        <Bar dataKey={valueKey} name={valueLabel} fill={SERIES_COLORS[0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** The cycle so far (solid), the forecast to its end (dashed) and the limit (a horizontal line). */
export function CycleChart({
  rows,
  xKey,
  actualKey,
  forecastKey,
  limit,
  showLimit = true,
}: {
  rows: readonly ChartRow[];
  xKey: string;
  actualKey: string;
  forecastKey: string;
  limit: number | null;
  /** Scale the chart to show the limit; off when the limit is far above the forecast (it would flatten the lines). */
  showLimit?: boolean;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={rows as ChartRow[]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={CHART_GRID_STROKE} vertical={false} />
        <XAxis dataKey={xKey} {...CHART_BASE_AXIS} minTickGap={16} />
        <YAxis {...CHART_VALUE_AXIS} width={44} tickFormatter={compact} />
        <Tooltip {...TOOLTIP} formatter={fmt} />
        <Legend {...CHART_LEGEND} />
        <Line
          dataKey={actualKey}
          name="Cycle to date"
          stroke={SERIES_COLORS[0]}
          strokeWidth={2}
          dot={false}
          connectNulls={false}
          isAnimationActive={false}
        />
        <Line
          dataKey={forecastKey}
          name="Forecast"
          stroke={SERIES_COLORS[2]}
          strokeWidth={2}
          strokeDasharray="6 4"
          dot={false}
          connectNulls={false}
          isAnimationActive={false}
        />
        {limit !== null && showLimit && (
          <ReferenceLine
            y={limit}
            ifOverflow="extendDomain"
            stroke="var(--color-danger)"
            strokeDasharray="3 3"
            label={{
              value: `Limit ${formatNumber(limit)}`,
              fill: 'var(--color-danger)',
              fontSize: 12,
              position: 'insideTopLeft',
            }}
          />
        )}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

/** Lines per day; `stepped` series are drawn as steps (a weekly or monthly value held over its days). */
export function DailyLinesChart({
  rows,
  xKey,
  series,
  stepped = [],
}: {
  rows: readonly ChartRow[];
  xKey: string;
  series: Series[];
  stepped?: string[];
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rows as ChartRow[]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={CHART_GRID_STROKE} vertical={false} />
        <XAxis dataKey={xKey} {...CHART_BASE_AXIS} minTickGap={16} />
        <YAxis {...CHART_VALUE_AXIS} width={36} allowDecimals={false} />
        <Tooltip {...TOOLTIP} formatter={fmt} />
        <Legend {...CHART_LEGEND} />
        {series.map((s, i) => (
          <Line
            key={s.key}
            type={stepped.includes(s.key) ? 'stepAfter' : 'linear'}
            dataKey={s.key}
            name={s.label}
            stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** Grouped bars: each row a measure, each series a period. */
export function GroupedBarChart({ rows, xKey, series }: { rows: readonly ChartRow[]; xKey: string; series: Series[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows as ChartRow[]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={CHART_GRID_STROKE} vertical={false} />
        <XAxis dataKey={xKey} {...CHART_BASE_AXIS} interval={0} />
        <YAxis {...CHART_VALUE_AXIS} width={40} tickFormatter={compact} allowDecimals={false} />
        <Tooltip {...TOOLTIP} formatter={fmt} />
        <Legend {...CHART_LEGEND} />
        {series.map((s, i) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            fill={i === 0 ? SERIES_COLORS[0] : SERIES_COLORS[10]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
