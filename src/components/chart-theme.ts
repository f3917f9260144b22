/**
 * The charts' look in both themes: axis ticks, tooltip and legend styles that read theme variables, for every
 * screen that draws with recharts (usage, capacity). Plain values, no chart code: importing them loads nothing.
 */

export const CHART_AXIS = { fill: 'var(--color-muted)', fontSize: 12 };

/** The grid's lines. */
export const CHART_GRID_STROKE = 'var(--color-line)';

/** The axis along the bottom of a chart over time or categories: its ticks and its line, no tick marks. */
export const CHART_BASE_AXIS = { tick: CHART_AXIS, tickLine: false, axisLine: { stroke: CHART_GRID_STROKE } };

/** An axis of values: its ticks only (the grid carries the lines). */
export const CHART_VALUE_AXIS = { tick: CHART_AXIS, tickLine: false, axisLine: false };

export const CHART_TOOLTIP = {
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

export const CHART_LEGEND = { wrapperStyle: { fontSize: 12, color: 'var(--color-fg)' } };
