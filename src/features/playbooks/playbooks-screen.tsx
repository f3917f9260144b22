/**
 * The playbooks of the enterprise (every playbook, with an access-type filter) or of one organization (its own,
 * and beside them the enterprise playbooks it can use too), searchable, on the data table.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Play, Plus } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import type { Playbook } from '@/api/operations/playbooks';
import { columnHelper, DataTable, timeColumn, type DataTableColumn } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { buttonClass } from '@/components/ui/button';
import { accessColumn, DocumentFilters, documentListEmpty } from '@/components/markdown-document';
import {
  matchesSearch,
  playbookChoicesQueryOptions,
  playbooksInfiniteQueryOptions,
  type PlaybookFilters,
  type PlaybookScope,
} from './api';
import { PlaybookLink, startSessionRoute } from './links';

const col = columnHelper<Playbook>();

function playbookColumns(scope: PlaybookScope, linkScope: (p: Playbook) => PlaybookScope): DataTableColumn<Playbook>[] {
  const scoped: DataTableColumn<Playbook>[] =
    scope.kind === 'enterprise'
      ? col.columns([
          col.accessor((p) => p.org_id ?? '', {
            id: 'org_id',
            header: 'Organization',
            enableSorting: true,
            meta: { width: 'minmax(8rem,1fr)', className: 'truncate font-mono text-xs' },
            cell: ({ getValue }) => getValue() || 'Every organization',
          }),
        ])
      : col.columns([
          col.display({
            id: 'start',
            header: 'Session',
            meta: { width: '7.5rem' },
            cell: ({ row: { original: p } }) => (
              <Link
                {...startSessionRoute(scope.orgId, p.playbook_id)}
                className="inline-flex items-center gap-1 text-sm text-accent underline underline-offset-2 hover:no-underline"
                aria-label={`Start a session with ${p.title}`}
              >
                <Play className="size-3.5" aria-hidden /> Start
              </Link>
            ),
          }),
        ]);
  return [
    ...col.columns([
      col.accessor('title', {
        header: 'Title',
        enableSorting: true,
        enableHiding: false,
        meta: { width: 'minmax(14rem,2fr)', className: 'flex flex-col' },
        cell: ({ row: { original: p } }) => (
          <>
            <PlaybookLink
              scope={linkScope(p)}
              target="view"
              playbookId={p.playbook_id}
              className="font-medium text-accent underline underline-offset-2 hover:no-underline"
            >
              {p.title}
            </PlaybookLink>
            <span className="truncate text-xs text-muted">
              {p.body
                .replace(/[#*`>_-]/g, '')
                .trim()
                .slice(0, 120)}
            </span>
          </>
        ),
      }),
      col.accessor((p) => p.macro ?? '', {
        id: 'macro',
        header: 'Macro',
        enableSorting: true,
        meta: { width: '8rem', className: 'truncate font-mono text-xs' },
        cell: ({ getValue }) => getValue() || '—',
      }),
      accessColumn<Playbook>(),
    ]),
    ...scoped,
    ...col.columns([col.accessor('updated_at', { header: 'Updated', ...timeColumn() })]),
  ];
}

export interface PlaybooksScreenProps {
  scope: PlaybookScope;
  filters: PlaybookFilters;
  onFiltersChange: (next: PlaybookFilters) => void;
  /** Shown in the description (the organization's name). */
  subtitle?: string;
}

export function PlaybooksScreen({ scope, filters, onFiltersChange, subtitle }: PlaybooksScreenProps) {
  const query = useInfiniteQuery(playbooksInfiniteQueryOptions(scope, filters));
  const orgId = scope.kind === 'org' ? scope.orgId : undefined;
  const columns = useMemo(() => {
    const s: PlaybookScope = orgId ? { kind: 'org', orgId } : { kind: 'enterprise' };
    return playbookColumns(s, (p) => (orgId && p.access_type === 'org' ? s : { kind: 'enterprise' }));
  }, [orgId]);
  // The API's search and access filter are sandbox extensions: narrow what is loaded too.
  const filter = useCallback(
    (p: Playbook) =>
      matchesSearch(p, filters.search) && (!filters.access_type || p.access_type === filters.access_type),
    [filters.search, filters.access_type],
  );
  const filtered = !!(filters.search || filters.access_type);

  return (
    <>
      <PageHeader
        title="Playbooks"
        description={
          scope.kind === 'enterprise'
            ? 'The procedures agents follow: enterprise playbooks (usable in every organization) and each organization’s own.'
            : `The playbooks of ${subtitle ?? 'this organization'}. Enterprise playbooks, listed below, are usable here too.`
        }
        actions={
          <PlaybookLink scope={scope} target="new" className={buttonClass({ variant: 'primary' })}>
            <Plus className="size-4" aria-hidden /> New playbook
          </PlaybookLink>
        }
      />
      <DocumentFilters
        plural="playbooks"
        enterprise={scope.kind === 'enterprise'}
        filters={filters}
        onFiltersChange={onFiltersChange}
        searchPlaceholder="Title, macro or body"
      />
      <DataTable
        label={scope.kind === 'enterprise' ? 'Playbooks' : 'Organization playbooks'}
        tableId={scope.kind === 'enterprise' ? 'playbooks-enterprise' : 'playbooks'}
        columns={columns}
        query={query}
        filter={filter}
        getRowId={(p) => p.playbook_id}
        minWidth="44rem"
        empty={documentListEmpty(filtered, {
          noMatch: 'No playbook matches these filters',
          none: 'No playbooks yet',
          first: 'Create the first one with “New playbook”.',
        })}
        className="h-auto max-h-[calc(100dvh-16rem)] min-h-48"
      />
      {scope.kind === 'org' && <EnterprisePlaybooks orgId={scope.orgId} search={filters.search} columns={columns} />}
    </>
  );
}

/** The enterprise playbooks an organization can use, under its own list. */
function EnterprisePlaybooks({
  orgId,
  search,
  columns,
}: {
  orgId: string;
  search: string | undefined;
  columns: ReturnType<typeof playbookColumns>;
}) {
  const choices = useQuery(playbookChoicesQueryOptions(orgId));
  const rows = useMemo(
    () => (choices.data ?? []).filter((p) => p.access_type === 'enterprise' && matchesSearch(p, search)),
    [choices.data, search],
  );
  return (
    <section aria-labelledby="enterprise-playbooks" className="mt-6">
      <h2 id="enterprise-playbooks" className="mb-2 text-base font-semibold">
        Enterprise playbooks
      </h2>
      {choices.isPending ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : choices.isError ? (
        <p className="text-sm text-muted">The enterprise playbooks could not be read.</p>
      ) : (
        <DataTable
          label="Enterprise playbooks"
          tableId="playbooks-enterprise-in-org"
          columns={columns}
          data={rows}
          getRowId={(p) => p.playbook_id}
          minWidth="44rem"
          empty={{ title: search ? 'No enterprise playbook matches the search' : 'No enterprise playbooks' }}
          className="h-auto max-h-96 min-h-32"
        />
      )}
    </section>
  );
}
