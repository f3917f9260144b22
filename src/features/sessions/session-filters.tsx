/** The filter bar of the sessions lists. Every filter is a URL search parameter, so a filtered view can be shared. */
import { ChevronDown, X } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { SESSION_ORIGINS, SESSION_STATUSES } from '@/api/operations/sessions';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { Select } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { fromLocalInput, toLocalInput } from '@/lib/local-date-time';
import { hasFilters, joinList, splitList, TIME_PRESETS, type SessionSearch } from './filters';
import { FilterBar } from '@/components/filter-bar';

const ARCHIVED_OPTIONS = [
  { value: '', label: 'All sessions' },
  { value: 'false', label: 'Not archived' },
  { value: 'true', label: 'Archived only' },
];

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
    <Popover>
      <PopoverTrigger asChild>
        <Button
          size="sm"
          aria-label={`${label}: ${summary}`}
          className={cn(selected.length > 0 && 'border-accent text-accent')}
        >
          {label}: <span className="max-w-40 truncate font-normal">{summary}</span>
          <ChevronDown className="size-3.5" aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="max-h-80 w-60" aria-label={label}>
        <fieldset>
          <legend className="px-1 pb-1 text-xs font-semibold text-muted uppercase">{label}</legend>
          {options.map((o) => (
            <label
              key={o.value}
              className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 text-sm hover:bg-surface-2"
            >
              <Checkbox
                checked={selected.includes(o.value)}
                onCheckedChange={(checked) =>
                  onChange(checked === true ? [...selected, o.value] : selected.filter((v) => v !== o.value))
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
      </PopoverContent>
    </Popover>
  );
}

/** A filter's visible name beside its control; `htmlFor` names a control that is not inside the label. */
function Labeled({ label, htmlFor, children }: { label: string; htmlFor?: string; children: ReactNode }) {
  if (htmlFor)
    return (
      <span className="flex items-center gap-1.5 text-xs font-medium text-muted">
        <label htmlFor={htmlFor}>{label}</label>
        {children}
      </span>
    );
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
      <Input
        className="h-7 w-40 text-xs"
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
  const archivedId = useId();
  const active = ['origins', 'status', 'tags', 'archived', 'created_after', 'created_before', 'org_ids'].filter(
    (k) => search[k as keyof SessionSearch] !== undefined,
  ).length;

  const filters = (narrow: boolean) => (
    <div
      role="group"
      aria-label="Filters"
      className={narrow ? 'flex flex-col items-start gap-3' : 'mb-3 flex flex-wrap items-center gap-2'}
    >
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
      <Labeled label="Archived" htmlFor={archivedId}>
        <Select
          id={archivedId}
          size="sm"
          className="w-auto"
          value={search.archived ?? ''}
          onValueChange={(v) => onChange({ archived: (v || undefined) as SessionSearch['archived'] })}
          options={ARCHIVED_OPTIONS}
        />
      </Labeled>
      <span className="flex items-center gap-1.5 text-xs font-medium text-muted">
        Created
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button size="sm" aria-label="Created: quick range" className="font-normal">
              Quick range… <ChevronDown className="size-3.5" aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            <DropdownMenuItem onSelect={() => onChange({ created_after: undefined, created_before: undefined })}>
              Any time
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            {TIME_PRESETS.map((p) => (
              <DropdownMenuItem
                key={p.seconds}
                onSelect={() =>
                  onChange({ created_after: Math.floor(Date.now() / 1000) - p.seconds, created_before: undefined })
                }
              >
                {p.label}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      </span>
      <Labeled label="After">
        <Input
          type="datetime-local"
          className="h-7 w-auto text-xs"
          aria-label="Created after"
          value={toLocalInput(search.created_after, 'minute')}
          onChange={(e) => onChange({ created_after: fromLocalInput(e.target.value) })}
        />
      </Labeled>
      <Labeled label="Before">
        <Input
          type="datetime-local"
          className="h-7 w-auto text-xs"
          aria-label="Created before"
          value={toLocalInput(search.created_before, 'minute')}
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
  // On a phone the filters fold into a sheet behind one button that says how many are set.
  return (
    <FilterBar active={active} showLabel="Show sessions">
      {filters}
    </FilterBar>
  );
}
