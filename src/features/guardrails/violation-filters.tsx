/**
 * The violations screen's filters, written to the URL: the guardrail, the action, the session, the time range
 * (a custom range's bounds typed in local time and put in the URL when the field is left), the order, and
 * Clear filters; folded behind one button on a phone.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { GUARDRAIL_ACTIONS, type GuardrailViolation } from '@/api/operations/guardrails';
import { FilterBar } from '@/components/filter-bar';
import { FilterPanel } from '@/components/filter-panel';
import { FilterSelect } from '@/components/filter-select';
import { OrderToggle } from '@/components/order-toggle';
import { Button } from '@/components/ui/button';
import { DateTimeInput } from '@/components/ui/date-time-input';
import { Input } from '@/components/ui/input';
import { fromLocalInput, toLocalInput } from '@/lib/local-date-time';
import { guardrailsQueryOptions } from './api';
import { ACTION_LABELS, hasFilters, RANGE_PRESETS, RANGES, type Range, type ViolationSearch } from './search';

const RANGE_LABELS: Record<Range, string> = {
  all: 'All time',
  ...Object.fromEntries(Object.entries(RANGE_PRESETS).map(([k, v]) => [k, v.label])),
  custom: 'Custom range',
} as Record<Range, string>;

export function ViolationFilterBar({
  search,
  onSearchChange,
  loaded,
}: {
  search: ViolationSearch;
  onSearchChange: (patch: Partial<ViolationSearch>) => void;
  /** The violations loaded so far: a guardrail they name is a choice even when the guardrails' list lacks it. */
  loaded: ReadonlyArray<{ items: readonly GuardrailViolation[] }> | undefined;
}) {
  const guardrails = useQuery(guardrailsQueryOptions());
  const id = useId();
  const guardrailOptions = useMemo(() => {
    const map = new Map<string, string>();
    for (const g of guardrails.data ?? []) map.set(g.guardrail_id, g.name);
    for (const p of loaded ?? [])
      for (const v of p.items) if (!map.has(v.guardrail_id)) map.set(v.guardrail_id, v.guardrail_name);
    if (search.guardrail && !map.has(search.guardrail)) map.set(search.guardrail, search.guardrail);
    return [{ value: '', label: 'All guardrails' }, ...[...map].map(([value, label]) => ({ value, label }))];
  }, [guardrails.data, loaded, search.guardrail]);
  const actionOptions = [
    { value: '', label: 'All actions' },
    ...GUARDRAIL_ACTIONS.map((a) => ({ value: a, label: `${a} · ${ACTION_LABELS[a]}` })),
  ];
  const rangeOptions = RANGES.map((r) => ({ value: r, label: RANGE_LABELS[r] }));
  const active = [search.guardrail, search.action, search.session, search.range !== 'all'].filter(Boolean).length;
  return (
    <FilterBar active={active} showLabel="Show violations">
      {(narrow) => (
        <FilterPanel narrow={narrow}>
          <FilterSelect
            className="w-full sm:w-56"
            label="Guardrail"
            value={search.guardrail ?? ''}
            options={guardrailOptions}
            onValueChange={(v) => onSearchChange({ guardrail: v || undefined })}
          />
          <FilterSelect
            className="w-full sm:w-56"
            label="Action"
            value={search.action ?? ''}
            options={actionOptions}
            onValueChange={(v) => onSearchChange({ action: (v || undefined) as ViolationSearch['action'] })}
          />
          <SessionFilter
            key={search.session ?? ''}
            value={search.session}
            onChange={(session) => onSearchChange({ session })}
          />
          <FilterSelect
            className="w-full sm:w-44"
            label="Time range"
            value={search.range}
            options={rangeOptions}
            onValueChange={(v) => onSearchChange({ range: v as Range })}
          />
          {search.range === 'custom' && (
            <>
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-from`} className="text-sm font-medium">
                  From (local time)
                </label>
                <CommitOnBlurDateTime
                  id={`${id}-from`}
                  seconds={search.time_after}
                  onCommit={(time_after) => onSearchChange({ time_after })}
                />
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-to`} className="text-sm font-medium">
                  Until (local time, not included)
                </label>
                <CommitOnBlurDateTime
                  id={`${id}-to`}
                  seconds={search.time_before}
                  onCommit={(time_before) => onSearchChange({ time_before })}
                />
              </div>
            </>
          )}
          <OrderToggle value={search.order} onChange={(order) => onSearchChange({ order })} />
          {hasFilters(search) && (
            <Button
              size="sm"
              variant="ghost"
              onClick={() =>
                onSearchChange({
                  guardrail: undefined,
                  action: undefined,
                  session: undefined,
                  range: 'all',
                  time_after: undefined,
                  time_before: undefined,
                })
              }
            >
              Clear filters
            </Button>
          )}
        </FilterPanel>
      )}
    </FilterBar>
  );
}

function SessionFilter({ value, onChange }: { value: string | undefined; onChange: (v: string | undefined) => void }) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const apply = () => onChange(text.trim() || undefined);
  return (
    <div className="flex w-full flex-col gap-1 sm:w-60">
      <label htmlFor={id} className="text-sm font-medium">
        Session id
      </label>
      <Input
        id={id}
        value={text}
        maxLength={200}
        placeholder="session-…"
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
        }}
      />
    </div>
  );
}

/**
 * A bound of the custom range, typed as text (one Tab stop, not datetime-local's seven), put in the URL when the
 * admin leaves the field, so the list is not asked again on every keystroke.
 */
function CommitOnBlurDateTime({
  id,
  seconds,
  onCommit,
}: {
  id: string;
  seconds: number | undefined;
  onCommit: (seconds: number | undefined) => void;
}) {
  const [draft, setDraft] = useState(() => toLocalInput(seconds));
  return (
    <DateTimeInput
      id={id}
      value={draft}
      onValueChange={setDraft}
      onBlur={() => {
        const next = fromLocalInput(draft);
        if (next !== seconds) onCommit(next);
      }}
    />
  );
}
