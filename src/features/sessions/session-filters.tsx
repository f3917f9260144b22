/** The filter bar of the sessions lists. Every filter is a URL search parameter, so a filtered view can be shared. */
import { Popover } from 'radix-ui';
import { ChevronDown, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { SESSION_ORIGINS, SESSION_STATUSES } from '@/api/operations/sessions';
import { Button } from '@/components/button';
import { inputClass } from '@/components/field';
import { cn } from '@/lib/cn';
import {
  fromLocalInput,
  hasFilters,
  joinList,
  splitList,
  TIME_PRESETS,
  toLocalInput,
  type SessionSearch,
} from './filters';

const selectClass = cn(inputClass, 'w-auto pr-7');

function MultiSelect(props: {
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  selected: string[];
  onChange: (values: string[]) => void;
}) {
  const { label, options, selected, onChange } = props;
  const summary =
    selected.length === 0
      ? 'All'
      : selected.length <= 2
        ? selected.map((v) => options.find((o) => o.value === v)?.label ?? v).join(', ')
        : `${selected.length} selected`;
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button
          size="sm"
          aria-label={`${label}: ${summary}`}
          className={cn(selected.length > 0 && 'border-accent text-accent')}
        >
          {label}: <span className="max-w-40 truncate font-normal">{summary}</span>
          <ChevronDown className="size-3.5" aria-hidden />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-40 max-h-80 w-60 overflow-auto rounded-md border border-line bg-surface p-2 shadow-lg"
        >
          <fieldset>
            <legend className="px-1 pb-1 text-xs font-semibold text-muted uppercase">{label}</legend>
            {options.map((o) => (
              <label
                key={o.value}
                className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 text-sm hover:bg-surface-2"
              >
                <input
                  type="checkbox"
                  checked={selected.includes(o.value)}
                  onChange={(e) =>
                    onChange(e.target.checked ? [...selected, o.value] : selected.filter((v) => v !== o.value))
                  }
                />
                {o.label}
              </label>
            ))}
          </fieldset>
          {selected.length > 0 && (
            <Button size="sm" variant="ghost" className="mt-1 w-full" onClick={() => onChange([])}>
              Clear {label.toLowerCase()}
            </Button>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function Labeled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex items-center gap-1.5 text-xs font-medium text-muted">
      {label}
      {children}
    </label>
  );
}

function TagsFilter({ value, onApply }: { value: string | undefined; onApply: (tags: string | undefined) => void }) {
  const [tags, setTags] = useState(value ?? '');
  const apply = () => {
    const next = joinList(splitList(tags.replaceAll(' ', ',')));
    if (next !== value) onApply(next);
  };
  return (
    <Labeled label="Tags">
      <input
        className={cn(inputClass, 'h-7 w-40 text-xs')}
        value={tags}
        placeholder="security, urgent"
        onChange={(e) => setTags(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
        }}
      />
    </Labeled>
  );
}

export function SessionFilters(props: {
  search: SessionSearch;
  onChange: (patch: Partial<SessionSearch>) => void;
  onClear: () => void;
  /** Enterprise list: the organizations to choose from. */
  organizations?: ReadonlyArray<{ org_id: string; name: string }>;
}) {
  const { search, onChange } = props;

  return (
    <div role="group" aria-label="Filters" className="mb-3 flex flex-wrap items-center gap-2">
      {props.organizations && (
        <MultiSelect
          label="Organizations"
          options={props.organizations.map((o) => ({ value: o.org_id, label: o.name }))}
          selected={splitList(search.org_ids)}
          onChange={(v) => onChange({ org_ids: joinList(v) })}
        />
      )}
      <MultiSelect
        label="Origin"
        options={SESSION_ORIGINS.map((o) => ({ value: o, label: o }))}
        selected={splitList(search.origins)}
        onChange={(v) => onChange({ origins: joinList(v) })}
      />
      <MultiSelect
        label="Status"
        options={SESSION_STATUSES.map((s) => ({ value: s, label: s }))}
        selected={splitList(search.status)}
        onChange={(v) => onChange({ status: joinList(v) })}
      />
      {/* Remounted when the URL changes, so the box always starts from the URL's tags. */}
      <TagsFilter key={search.tags ?? ''} value={search.tags} onApply={(tags) => onChange({ tags })} />
      <Labeled label="Archived">
        <select
          className={cn(selectClass, 'h-7 text-xs')}
          value={search.archived ?? ''}
          onChange={(e) => onChange({ archived: (e.target.value || undefined) as SessionSearch['archived'] })}
        >
          <option value="">All sessions</option>
          <option value="false">Not archived</option>
          <option value="true">Archived only</option>
        </select>
      </Labeled>
      <Labeled label="Created">
        <select
          className={cn(selectClass, 'h-7 text-xs')}
          value=""
          aria-label="Created: quick range"
          onChange={(e) => {
            const seconds = Number(e.target.value);
            if (seconds > 0)
              onChange({ created_after: Math.floor(Date.now() / 1000) - seconds, created_before: undefined });
            else if (e.target.value === 'any') onChange({ created_after: undefined, created_before: undefined });
          }}
        >
          <option value="" disabled>
            Quick range…
          </option>
          <option value="any">Any time</option>
          {TIME_PRESETS.map((p) => (
            <option key={p.seconds} value={p.seconds}>
              {p.label}
            </option>
          ))}
        </select>
      </Labeled>
      <Labeled label="After">
        <input
          type="datetime-local"
          className={cn(inputClass, 'h-7 w-auto text-xs')}
          aria-label="Created after"
          value={toLocalInput(search.created_after)}
          onChange={(e) => onChange({ created_after: fromLocalInput(e.target.value) })}
        />
      </Labeled>
      <Labeled label="Before">
        <input
          type="datetime-local"
          className={cn(inputClass, 'h-7 w-auto text-xs')}
          aria-label="Created before"
          value={toLocalInput(search.created_before)}
          onChange={(e) => onChange({ created_before: fromLocalInput(e.target.value) })}
        />
      </Labeled>
      {hasFilters(search) && (
        <Button size="sm" variant="ghost" onClick={props.onClear}>
          <X className="size-3.5" aria-hidden /> Clear filters
        </Button>
      )}
    </div>
  );
}
