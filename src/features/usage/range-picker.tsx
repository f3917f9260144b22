/** The range picker of the usage screens: billing-day presets only, so it cannot ask for a bad range. */
import { useId } from 'react';
import { RANGE_PRESET_LABELS, RANGE_PRESETS, type RangePreset, type TimeRange } from '@/api/billing-day';
import { Select } from '@/components/ui/select';
import { formatRange } from './range';

export function RangePicker({
  value,
  onChange,
  range,
  label = 'Range',
}: {
  value: RangePreset;
  onChange: (next: RangePreset) => void;
  range: TimeRange | undefined;
  label?: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <Select
          id={id}
          className="w-48"
          value={value}
          onValueChange={(v) => onChange(v as RangePreset)}
          options={RANGE_PRESETS.map((p) => ({ value: p, label: RANGE_PRESET_LABELS[p] }))}
          aria-describedby={`${id}-days`}
        />
        <span id={`${id}-days`} className="text-xs text-muted" data-testid="usage-range">
          {range ? formatRange(range) : 'Reading the billing cycles…'}
        </span>
      </div>
    </div>
  );
}
