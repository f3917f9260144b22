/**
 * The time-range picker: presets (last hour, 24 hours, 7 days, 30 days, all time) and a custom range entered
 * in local time, with the UTC value of every bound shown beside it. From is inclusive, To exclusive.
 */
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/field';
import { DateTimeInput } from '@/components/ui/date-time-input';
import { formatDateTime, formatUtc } from '@/lib/format';
import { fromLocalInput, toLocalInput } from '@/lib/local-date-time';
import { RANGE_PRESETS, type Range, type RangePreset, type ResolvedBounds } from './search';

const PRESET_BUTTONS: Array<[Range, string]> = [
  ...(Object.entries(RANGE_PRESETS) as Array<[RangePreset, { label: string }]>).map(
    ([k, v]) => [k, v.label] as [Range, string],
  ),
  ['all', 'All time'],
];

export interface TimeRangeValue {
  range: Range;
  time_after?: number;
  time_before?: number;
}

function Bound({ label, value }: { label: string; value: number | undefined }) {
  if (value === undefined) return null;
  return (
    <span>
      {label} <strong className="font-medium text-fg">{formatDateTime(value)}</strong>{' '}
      <span className="font-mono">({formatUtc(value)})</span>
    </span>
  );
}

/** The bounds a list runs with, in local time and UTC. */
export function RangeSummary({ bounds, range }: { bounds: ResolvedBounds | undefined; range: Range }) {
  if (!bounds) return null;
  const preset = range !== 'custom';
  return (
    <p className="flex flex-wrap gap-x-2 gap-y-1 text-xs text-muted" data-testid="range-summary">
      <span>Showing</span>
      {bounds.time_after === undefined ? <span>every entry</span> : <Bound label="from" value={bounds.time_after} />}
      {bounds.time_before === undefined ? (
        <span>up to now</span>
      ) : preset ? (
        <Bound label="up to" value={bounds.time_before - 1} />
      ) : (
        <Bound label="up to (not including)" value={bounds.time_before} />
      )}
    </p>
  );
}

export function TimeRangePicker({
  value,
  bounds,
  onChange,
}: {
  value: TimeRangeValue;
  /** The bounds the current list resolved, to start a custom range from. */
  bounds: ResolvedBounds | undefined;
  onChange: (v: TimeRangeValue) => void;
}) {
  const [editing, setEditing] = useState(value.range === 'custom');
  const start = value.range === 'custom' ? value.time_after : bounds?.time_after;
  const end = value.range === 'custom' ? value.time_before : bounds?.time_before;
  const [from, setFrom] = useState(start !== undefined ? toLocalInput(start) : '');
  const [to, setTo] = useState(end !== undefined ? toLocalInput(end) : '');
  const [error, setError] = useState<{ from?: string; to?: string }>({});
  const fromS = fromLocalInput(from);
  const toS = fromLocalInput(to);
  const customActive = editing || value.range === 'custom';

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next: { from?: string; to?: string } = {};
    if (from && fromS === undefined) next.from = 'Enter a date and time';
    if (to && toS === undefined) next.to = 'Enter a date and time';
    if (fromS !== undefined && toS !== undefined && fromS >= toS) next.to = 'To must be later than From';
    setError(next);
    if (next.from || next.to) return;
    onChange({ range: 'custom', time_after: fromS, time_before: toS });
  };

  return (
    <div className="flex flex-col gap-2">
      <div role="group" aria-label="Time range" className="flex flex-wrap gap-1">
        {PRESET_BUTTONS.map(([range, label]) => (
          <Button
            key={range}
            size="sm"
            variant={value.range === range && !editing ? 'primary' : 'secondary'}
            aria-pressed={value.range === range && !editing}
            onClick={() => {
              setEditing(false);
              setError({});
              onChange({ range });
            }}
          >
            {label}
          </Button>
        ))}
        <Button
          size="sm"
          variant={customActive ? 'primary' : 'secondary'}
          aria-pressed={customActive}
          onClick={() => {
            if (!from && bounds?.time_after !== undefined) setFrom(toLocalInput(bounds.time_after));
            if (!to && bounds?.time_before !== undefined) setTo(toLocalInput(bounds.time_before));
            setEditing(true);
          }}
        >
          Custom range
        </Button>
      </div>
      {customActive && (
        <form
          onSubmit={apply}
          className="flex flex-wrap items-start gap-3 rounded-md border border-line bg-surface-2/40 p-3"
          aria-label="Custom time range"
          noValidate
        >
          <Field
            label="From (local time)"
            hint={
              fromS !== undefined ? `UTC ${formatUtc(fromS)} · inclusive` : 'Empty: from the first entry · inclusive'
            }
            error={error.from}
          >
            <DateTimeInput className="w-56" value={from} onValueChange={setFrom} />
          </Field>
          <Field
            label="To (local time)"
            hint={toS !== undefined ? `UTC ${formatUtc(toS)} · exclusive` : 'Empty: up to now · exclusive'}
            error={error.to}
          >
            <DateTimeInput className="w-56" value={to} onValueChange={setTo} />
          </Field>
          <div className="flex gap-2 pt-6">
            <Button type="submit" variant="primary" size="sm">
              Apply range
            </Button>
            {value.range !== 'custom' && (
              <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            )}
          </div>
        </form>
      )}
    </div>
  );
}
