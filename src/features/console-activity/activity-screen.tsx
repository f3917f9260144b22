/**
 * Console activity: every write made through the console (proxied to the API or the console's own endpoints)
 * and who made it — the person from single sign-on (or how they got in), the grant of the console's policy that
 * allowed it, the operation, its organization, the ids it touched and the outcome. Filters live in the URL;
 * the filtered rows export as CSV and JSON Lines.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import type { ActivityEntry } from '@/api/console/activity';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { FilterBar } from '@/components/filter-bar';
import { FilterSelect } from '@/components/filter-select';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { DateTimeInput } from '@/components/ui/date-time-input';
import { useDebouncedInput } from '@/lib/debounce';
import { downloadText } from '@/lib/download';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { activityInfiniteQueryOptions, fetchAllActivity } from './api';
import { activityCsv, activityJsonLines } from './export';
import { ACTIVITY_RANGES, activityFilters, type ActivitySearch } from './search';

const col = columnHelper<ActivityEntry>();

const OUTCOME_LABEL: Record<ActivityEntry['outcome'], string> = {
  succeeded: 'Succeeded',
  failed: 'Failed',
  refused: 'Refused by the policy',
};

const RANGE_LABEL: Record<(typeof ACTIVITY_RANGES)[number], string> = {
  all: 'Any time',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  custom: 'Between…',
};

/** How a write without a known person was made, by how its request got in. */
const METHOD_LABEL: Record<string, string> = {
  bearer: 'access token (script)',
  token: 'access token (no name given)',
  link: 'one-time link (no name given)',
  off: 'access control off',
};

const personOf = (r: ActivityEntry) => r.name ?? r.email ?? r.subject ?? METHOD_LABEL[r.method] ?? 'unknown';

/** The ids a write touched, without its organization (a column of its own). */
const idsText = (r: ActivityEntry) =>
  Object.entries(r.ids)
    .filter(([k]) => k !== 'org_id')
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

function useColumns(orgNames: ReadonlyMap<string, string>) {
  return useMemo(
    () =>
      col.columns([
        col.accessor('at', { header: 'When', ...timeColumn({ width: '7rem' }) }),
        col.accessor(personOf, {
          id: 'person',
          header: 'Person',
          enableHiding: false,
          meta: { width: 'minmax(10rem,1.2fr)', className: 'truncate font-medium' },
          cell: ({ row }) => (
            <span className="truncate" title={[row.original.email, row.original.subject].filter(Boolean).join(' · ')}>
              {personOf(row.original)}
            </span>
          ),
        }),
        col.accessor('operation_id', {
          header: 'Operation',
          meta: { width: 'minmax(12rem,1.4fr)', className: 'truncate font-mono text-xs' },
        }),
        col.accessor((r) => (r.org_id ? (orgNames.get(r.org_id) ?? r.org_id) : 'Enterprise'), {
          id: 'organization',
          header: 'Organization',
          meta: { width: 'minmax(9rem,1fr)', className: 'truncate' },
          cell: ({ row }) => {
            const id = row.original.org_id;
            const name = id ? orgNames.get(id) : undefined;
            return id ? (
              <span className="truncate" title={id}>
                {name ?? id}
                {name ? <span className="sr-only"> ({id})</span> : null}
              </span>
            ) : (
              <span className="text-muted">Enterprise</span>
            );
          },
        }),
        col.accessor(idsText, {
          id: 'ids',
          header: 'Ids touched',
          meta: { width: 'minmax(10rem,1fr)', className: 'truncate font-mono text-xs' },
        }),
        col.accessor((r) => r.grant ?? '—', {
          id: 'grant',
          header: 'Allowed by',
          meta: { width: 'minmax(10rem,1fr)', className: 'truncate text-xs' },
        }),
        col.accessor('outcome', {
          header: 'Outcome',
          meta: { width: '10rem' },
          cell: ({ row }) => (
            <span className={row.original.outcome === 'succeeded' ? '' : 'text-danger'}>
              {OUTCOME_LABEL[row.original.outcome]} ({row.original.status})
            </span>
          ),
        }),
      ]),
    [orgNames],
  );
}

/** A text filter that follows the URL and commits after a pause in typing. */
function TextFilter(props: { label: string; value: string | undefined; onCommit: (v: string) => void; hint?: string }) {
  const id = useId();
  const [text, setText] = useDebouncedInput(props.value ?? '', props.onCommit);
  return (
    <div className="flex w-full flex-col gap-1 sm:w-48">
      <label htmlFor={id} className="text-sm font-medium">
        {props.label}
      </label>
      <Input id={id} value={text} maxLength={200} placeholder={props.hint} onChange={(e) => setText(e.target.value)} />
    </div>
  );
}

/** `datetime-local` in this browser's zone ↔ Unix seconds. */
const toLocalInput = (s: number | undefined) => {
  if (s === undefined) return '';
  const d = new Date(s * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocalInput = (v: string) => {
  const t = new Date(v).getTime();
  return Number.isFinite(t) ? Math.floor(t / 1000) : undefined;
};

function DateFilter(props: { label: string; value: number | undefined; onChange: (v: number | undefined) => void }) {
  const id = useId();
  return (
    <div className="flex w-full flex-col gap-1 sm:w-52">
      <label htmlFor={id} className="text-sm font-medium">
        {props.label}
      </label>
      <DateTimeInput
        id={id}
        className="w-full"
        value={toLocalInput(props.value)}
        onValueChange={(v) => props.onChange(v === '' ? undefined : fromLocalInput(v))}
      />
    </div>
  );
}

export function ConsoleActivityScreen({
  search,
  onSearchChange,
}: {
  search: ActivitySearch;
  onSearchChange: (patch: Partial<ActivitySearch>) => void;
}) {
  const filters = activityFilters(search);
  const query = useInfiniteQuery(activityInfiniteQueryOptions(filters));
  const orgs = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const orgNames = useMemo(
    () => new Map((orgs.data?.pages ?? []).flatMap((p) => p.items).map((o) => [o.org_id, o.name] as const)),
    [orgs.data],
  );
  const columns = useColumns(orgNames);
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportNote, setExportNote] = useState<string | null>(null);
  const active = [search.person, search.operation, search.org, search.outcome, search.range].filter(Boolean).length;

  const exportAs = async (format: 'csv' | 'jsonl') => {
    setExporting(format);
    setExportNote(null);
    try {
      const { rows, capped } = await fetchAllActivity(filters);
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      if (format === 'csv') downloadText(`console-activity-${stamp}.csv`, activityCsv(rows, orgNames));
      else downloadText(`console-activity-${stamp}.jsonl`, activityJsonLines(rows, orgNames), 'application/jsonl');
      setExportNote(
        capped
          ? `Exported the newest ${rows.length} entries (the most one export holds); narrow the filters for older ones.`
          : `Exported ${rows.length} ${rows.length === 1 ? 'entry' : 'entries'}.`,
      );
    } catch (err) {
      setExportNote(`The export failed: ${err instanceof Error ? err.message : 'unknown error'}`);
    } finally {
      setExporting(null);
    }
  };

  return (
    <>
      <PageHeader
        title="Console activity"
        description="Every change made through this console and the person who made it, with the console role that allowed it. Reads are not recorded."
        actions={
          <>
            <Button size="sm" onClick={() => void exportAs('csv')} disabled={exporting !== null}>
              <Download className="size-3.5" aria-hidden />
              {exporting === 'csv' ? 'Exporting…' : 'Export CSV'}
            </Button>
            <Button size="sm" onClick={() => void exportAs('jsonl')} disabled={exporting !== null}>
              <Download className="size-3.5" aria-hidden />
              {exporting === 'jsonl' ? 'Exporting…' : 'Export JSON Lines'}
            </Button>
          </>
        }
      />
      {exportNote && (
        <p role="status" className="mb-3 text-sm text-muted">
          {exportNote}
        </p>
      )}
      <FilterBar active={active}>
        {(narrow) => (
          <div className={narrow ? 'flex flex-col gap-3' : 'mb-3 flex flex-wrap items-end gap-3'}>
            <TextFilter
              label="Person"
              hint="Name, email or subject"
              value={search.person}
              onCommit={(v) => onSearchChange({ person: v.trim() || undefined })}
            />
            <TextFilter
              label="Operation"
              hint="e.g. gitPermissions.replace"
              value={search.operation}
              onCommit={(v) => onSearchChange({ operation: v.trim() || undefined })}
            />
            <FilterSelect
              label="Organization"
              value={search.org ?? ''}
              options={[
                { value: '', label: 'Any organization' },
                ...[...orgNames].map(([id, name]) => ({ value: id, label: name, textValue: name })),
              ]}
              onValueChange={(v) => onSearchChange({ org: v || undefined })}
            />
            <FilterSelect
              label="Outcome"
              className="w-full sm:w-48"
              value={search.outcome ?? ''}
              options={[
                { value: '', label: 'Any outcome' },
                ...Object.entries(OUTCOME_LABEL).map(([value, label]) => ({ value, label })),
              ]}
              onValueChange={(v) => onSearchChange({ outcome: (v || undefined) as ActivitySearch['outcome'] })}
            />
            <FilterSelect
              label="Time range"
              className="w-full sm:w-44"
              value={search.range ?? 'all'}
              options={ACTIVITY_RANGES.map((r) => ({ value: r, label: RANGE_LABEL[r] }))}
              onValueChange={(v) =>
                onSearchChange({
                  range: v === 'all' ? undefined : (v as ActivitySearch['range']),
                  from: undefined,
                  to: undefined,
                })
              }
            />
            {search.range === 'custom' && (
              <>
                <DateFilter label="From" value={search.from} onChange={(from) => onSearchChange({ from })} />
                <DateFilter label="Until" value={search.to} onChange={(to) => onSearchChange({ to })} />
              </>
            )}
          </div>
        )}
      </FilterBar>
      <DataTable
        label="Console activity"
        tableId="console-activity"
        columns={columns}
        query={query}
        getRowId={(r) => String(r.id)}
        empty={{
          title: active ? 'No activity matches these filters' : 'No changes made through the console yet',
        }}
      />
    </>
  );
}
