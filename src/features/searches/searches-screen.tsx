/**
 * Searches, enterprise-wide or in one organization, newest first. The record's shape is not published, so the
 * columns are the fields that arrive (known ones first); times read as times, lists as lists, anything else as
 * text.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Search } from '@/api/operations/searches';
import { columnHelper, DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { formatNumber } from '@/lib/format';
import { searchesInfiniteQueryOptions, type SearchesScope } from './api';
import { fieldLabel, fieldsOf, fieldText, isTimeField } from './fields';
import { OrgName, UserName } from './names';

const col = columnHelper<Search>();

/** Fields whose ids are shown with a name beside them. */
const NAMED = new Set(['org_id', 'user_id']);

function buildColumns(fields: string[]) {
  return col.columns(
    fields.map((key, i) =>
      col.accessor((r): unknown => (r as Record<string, unknown>)[key], {
        id: key,
        header: fieldLabel(key),
        enableSorting: key === 'created_at',
        sortDescFirst: true,
        enableHiding: i > 0,
        meta: {
          width: key === 'query' ? 'minmax(16rem,2.5fr)' : 'minmax(8rem,1fr)',
          className: key.endsWith('_id') && !NAMED.has(key) ? 'truncate font-mono text-xs' : 'truncate',
          card: i === 0 ? 'title' : 'field',
          cellTitle: (r: Search) => fieldText((r as Record<string, unknown>)[key]),
        },
        cell: ({ getValue }) => {
          const v = getValue() as unknown;
          // Ids a person reads get their names beside them.
          if (key === 'org_id' && typeof v === 'string' && v) return <OrgName orgId={v} />;
          if (key === 'user_id' && typeof v === 'string' && v) return <UserName userId={v} />;
          if (isTimeField(key, v)) return <RelativeTime value={v as number} />;
          if (typeof v === 'number') return <span className="tabular-nums">{formatNumber(v, 2)}</span>;
          return fieldText(v);
        },
      }),
    ),
  );
}

export function SearchesScreen({ scope, orgName }: { scope: SearchesScope; orgName?: string }) {
  const query = useInfiniteQuery(searchesInfiniteQueryOptions(scope));
  const loaded = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const fields = useMemo(
    () => (loaded.length ? fieldsOf(loaded as Array<Record<string, unknown>>) : ['query', 'created_at']),
    [loaded],
  );
  const signature = fields.join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the columns change only when the set of fields does
  const columns = useMemo(() => buildColumns(fields), [signature]);
  const total = query.data?.pages[0]?.total;
  return (
    <>
      <PageHeader
        title="Searches"
        documentTitle={scope.kind === 'org' && orgName ? `Searches · ${orgName}` : 'Searches'}
        description={
          scope.kind === 'enterprise'
            ? 'Questions people asked about their code, across every organization, newest first.'
            : `Questions people in ${orgName ?? 'this organization'} asked about their code, newest first.`
        }
      />
      <p role="status" className="mb-2 text-xs text-muted">
        {query.isSuccess
          ? `${total != null ? `${formatNumber(total)} ${total === 1 ? 'search' : 'searches'}; ` : ''}showing the fields the API sends (${fields.length}).`
          : ''}
      </p>
      <DataTable
        label="Searches"
        tableId="searches"
        columns={columns}
        query={query}
        getRowId={(s) => String(s.search_id ?? JSON.stringify(s))}
        minWidth={`${Math.max(40, fields.length * 9)}rem`}
        empty={{ title: 'No searches yet' }}
        className="h-auto max-h-[calc(100dvh-14rem)] min-h-60"
      />
    </>
  );
}
