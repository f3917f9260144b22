/**
 * The filter bar of the sessions lists. Every filter is a URL search parameter, so a filtered view can be shared.
 * The bar paints with the list: its checklists, quick ranges and select load on first use
 * (`deferred-controls.tsx`), and on a phone the sheet that holds the filters loads when the screen is narrow.
 */
import { ChevronDown, SlidersHorizontal, X } from 'lucide-react';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { SESSION_ORIGINS } from '@/api/values';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { DateTimeInput } from '@/components/ui/date-time-input';
import { cn } from '@/lib/cn';
import { fromLocalInput, toLocalInput } from '@/lib/local-date-time';
import { NARROW, useMediaQuery } from '@/lib/use-media-query';
import { ChoiceSelect, loadMenus, useFirstUse } from './deferred-controls';
import type { SessionSearch } from './filters';
import { hasFilters, joinList, splitList } from './list-query';
import { SESSION_STATUSES } from './statuses';

const MultiSelectMenu = lazy(() => loadMenus().then((m) => ({ default: m.MultiSelectMenu })));
const QuickRangeMenu = lazy(() => loadMenus().then((m) => ({ default: m.QuickRangeMenu })));
const FilterBar = lazy(() => import('@/components/filter-bar').then((m) => ({ default: m.FilterBar })));

/** The archived filter's choices; `all` stands for no filter (a select's value cannot be empty). */
const ARCHIVED_OPTIONS = [
  { value: 'all', label: 'All sessions' },
  { value: 'false', label: 'Not archived' },
  { value: 'true', label: 'Archived only' },
];

function MultiSelect(props: {
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  selected: string[];
  onChange: (values: string[]) => void;
}) {
  const { label, options, selected } = props;
  const [used, standIn] = useFirstUse();
  const summary =
    selected.length === 0
      ? 'All'
      : selected.length <= 2
        ? selected.map((v) => options.find((o) => o.value === v)?.label ?? v).join(', ')
        : `${selected.length} selected`;
  const button = (
    <Button
      size="sm"
      aria-label={`${label}: ${summary}`}
      aria-haspopup="dialog"
      aria-expanded={false}
      data-state="closed"
      className={cn(selected.length > 0 && 'border-accent text-accent')}
      {...standIn}
    >
      {label}: <span className="max-w-40 truncate font-normal">{summary}</span>
      <ChevronDown className="size-3.5" aria-hidden />
    </Button>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <MultiSelectMenu {...props} summary={summary} />
    </Suspense>
  );
}

function QuickRange({ onChange }: { onChange: (patch: Partial<SessionSearch>) => void }) {
  const [used, standIn] = useFirstUse();
  const button = (
    <Button
      size="sm"
      aria-label="Created: quick range"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      className="font-normal"
      {...standIn}
    >
      Quick range… <ChevronDown className="size-3.5" aria-hidden />
    </Button>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <QuickRangeMenu onChange={onChange} />
    </Suspense>
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
  const isNarrow = useMediaQuery(NARROW);
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
        <ChoiceSelect
          id={archivedId}
          className="w-auto"
          value={search.archived ?? 'all'}
          onValueChange={(v) => onChange({ archived: v === 'true' || v === 'false' ? v : undefined })}
          options={ARCHIVED_OPTIONS}
        />
      </Labeled>
      <span className="flex items-center gap-1.5 text-xs font-medium text-muted">
        Created
        <QuickRange onChange={onChange} />
      </span>
      <Labeled label="After">
        <DateTimeInput
          className="h-7 w-40 text-xs"
          aria-label="Created after"
          value={toLocalInput(search.created_after, 'minute')}
          onValueChange={(v) => onChange({ created_after: fromLocalInput(v) })}
        />
      </Labeled>
      <Labeled label="Before">
        <DateTimeInput
          className="h-7 w-40 text-xs"
          aria-label="Created before"
          value={toLocalInput(search.created_before, 'minute')}
          onValueChange={(v) => onChange({ created_before: fromLocalInput(v) })}
        />
      </Labeled>
      {hasFilters(search) && (
        <Button size="sm" variant="ghost" onClick={props.onClear}>
          <X className="size-3.5" aria-hidden /> Clear filters
        </Button>
      )}
    </div>
  );
  // On a phone the filters fold into a sheet behind one button that says how many are set (FilterBar); the
  // sheet's code loads only there, with a stand-in of its button meanwhile.
  if (!isNarrow) return filters(false);
  return (
    <Suspense
      fallback={
        <div className="mb-3">
          <Button size="sm" disabled>
            <SlidersHorizontal className="size-3.5" aria-hidden />
            Filters{active ? ` (${active})` : ''}
          </Button>
        </div>
      }
    >
      <FilterBar active={active} showLabel="Show sessions">
        {filters}
      </FilterBar>
    </Suspense>
  );
}
