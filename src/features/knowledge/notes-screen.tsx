/**
 * The knowledge notes list of the enterprise or of one organization: filters in the URL (search, folder,
 * pinned repository and, for the enterprise, access type), a folder tree, and the notes on the data table.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Pin, Plus } from 'lucide-react';
import { useMemo } from 'react';
import type { KnowledgeNote } from '@/api/operations/knowledge';
import { Badge } from '@/components/badge';
import { buttonClass } from '@/components/ui/button';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { accessColumn, DocumentFilters, documentListEmpty } from '@/components/markdown-document';
import { SavedViews } from '@/components/saved-views';
import { FilterText } from '@/components/filter-bar';
import { PageHeader } from '@/components/page-header';
import { notesInfiniteQueryOptions, type NoteFilters, type NoteScope } from './api';
import { FolderTree } from './folder-tree';
import { KnowledgeLink } from './note-links';
import { useDebouncedInput } from '@/lib/debounce';

export interface NotesScreenProps {
  scope: NoteScope;
  filters: NoteFilters;
  onFiltersChange: (next: NoteFilters) => void;
  /** Shown under the title (the organization's name). */
  subtitle?: string;
}

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>;
}

const col = columnHelper<KnowledgeNote>();

function noteColumns(scope: NoteScope) {
  return col.columns([
    col.accessor('name', {
      header: 'Name',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(12rem,1.5fr)', className: 'flex flex-col' },
      cell: ({ row: { original: n } }) => (
        <>
          <KnowledgeLink
            scope={scope}
            target="view"
            noteId={n.note_id}
            className="font-medium text-accent underline underline-offset-2 hover:no-underline"
          >
            {n.name}
          </KnowledgeLink>
          <span className="truncate font-mono text-xs text-muted" title="Folder">
            {n.folder_path}
          </span>
        </>
      ),
    }),
    col.accessor((n) => n.trigger ?? '', {
      id: 'trigger',
      header: 'Trigger',
      meta: { width: 'minmax(10rem,1.6fr)', className: 'line-clamp-2 text-muted' },
      cell: ({ getValue }) => getValue() || '—',
    }),
    accessColumn<KnowledgeNote>(),
    col.accessor((n) => n.pinned_repo ?? '', {
      id: 'pinned_repo',
      header: 'Pinned repository',
      enableSorting: true,
      meta: { width: 'minmax(9rem,1fr)', className: 'truncate font-mono text-xs' },
      cell: ({ getValue }) =>
        getValue() ? (
          <span className="inline-flex items-center gap-1">
            <Pin className="size-3" aria-hidden /> {getValue()}
          </span>
        ) : (
          '—'
        ),
    }),
    col.accessor('is_enabled', {
      header: 'Status',
      enableSorting: true,
      meta: { width: '5.5rem' },
      cell: ({ getValue }) => <EnabledBadge enabled={getValue()} />,
    }),
    col.accessor('updated_at', { header: 'Updated', ...timeColumn() }),
  ]);
}

export function NotesScreen({ scope, filters, onFiltersChange, subtitle }: NotesScreenProps) {
  const query = useInfiniteQuery(notesInfiniteQueryOptions(scope, filters));
  const orgId = scope.kind === 'org' ? scope.orgId : undefined;
  const columns = useMemo(() => noteColumns(orgId ? { kind: 'org', orgId } : { kind: 'enterprise' }), [orgId]);
  const set = (patch: Partial<NoteFilters>) => onFiltersChange({ ...filters, ...patch });
  const [pinned, setPinned] = useDebouncedInput(filters.pinned_repo ?? '', (v) =>
    set({ pinned_repo: v.trim() || undefined }),
  );
  const filtered = !!(filters.search || filters.folder_path || filters.pinned_repo || filters.access_type);

  return (
    <>
      <PageHeader
        title="Knowledge notes"
        description={
          scope.kind === 'enterprise'
            ? 'What your agents know across the enterprise: enterprise notes and every organization’s notes.'
            : `The notes of ${subtitle ?? 'this organization'}. Enterprise notes are managed in the enterprise list.`
        }
        actions={
          <>
            <SavedViews
              screen={scope.kind === 'enterprise' ? 'notes-enterprise' : 'notes'}
              current={filters}
              onOpen={(view) => onFiltersChange(view)}
            />
            <KnowledgeLink scope={scope} target="new" className={buttonClass({ variant: 'primary' })}>
              <Plus className="size-4" aria-hidden /> New note
            </KnowledgeLink>
          </>
        }
      />
      <DocumentFilters
        plural="notes"
        enterprise={scope.kind === 'enterprise'}
        filters={filters}
        onFiltersChange={onFiltersChange}
        searchPlaceholder="Name, trigger or body"
        counted={[filters.pinned_repo]}
        filtered={filtered}
      >
        <FilterText
          label="Pinned repository"
          className="w-56"
          placeholder="owner/repository"
          value={pinned}
          onChange={setPinned}
        />
      </DocumentFilters>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-[15rem_minmax(0,1fr)]">
        <div className="md:sticky md:top-20 md:self-start">
          <FolderTree scope={scope} folderPath={filters.folder_path} onSelect={(folder_path) => set({ folder_path })} />
        </div>
        <div className="min-w-0">
          {filters.folder_path && (
            <p className="mb-2 text-sm text-muted">
              Folder <span className="font-mono text-fg">{filters.folder_path}</span>
            </p>
          )}
          <DataTable
            label="Knowledge notes"
            tableId="knowledge-notes"
            columns={columns}
            query={query}
            getRowId={(n) => n.note_id}
            minWidth="52rem"
            empty={documentListEmpty(filtered, {
              noMatch: 'No note matches these filters',
              none: 'No knowledge notes yet',
              first: 'Create the first note with “New note”.',
            })}
            className="h-auto max-h-[calc(100dvh-16rem)] min-h-60"
          />
        </div>
      </div>
    </>
  );
}
