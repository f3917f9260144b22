/**
 * The knowledge notes list of the enterprise or of one organization: filters in the URL (search, folder,
 * pinned repository and, for the enterprise, access type), a folder tree, and a virtualized list.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Pin, Plus, X } from 'lucide-react';
import { useMemo } from 'react';
import type { KnowledgeNote } from '@/api/operations/knowledge';
import { Badge } from '@/components/badge';
import { Button } from '@/components/button';
import { CursorList, cursorListState } from '@/components/cursor-list';
import { inputClass } from '@/components/field';
import { PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { notesInfiniteQueryOptions, type NoteFilters, type NoteScope } from './api';
import { FolderTree } from './folder-tree';
import { KnowledgeLink } from './note-links';
import { useDebouncedInput } from './use-debounced-value';

export interface NotesScreenProps {
  scope: NoteScope;
  filters: NoteFilters;
  onFiltersChange: (next: NoteFilters) => void;
  /** Shown under the title (the organization's name). */
  subtitle?: string;
}

function AccessBadge({ note }: { note: KnowledgeNote }) {
  return note.access_type === 'enterprise' ? (
    <Badge tone="accent">Enterprise</Badge>
  ) : (
    <Badge tone="info" title={note.org_id ?? undefined}>
      Organization
    </Badge>
  );
}

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>;
}

export function NotesScreen({ scope, filters, onFiltersChange, subtitle }: NotesScreenProps) {
  const query = useInfiniteQuery(notesInfiniteQueryOptions(scope, filters));
  const notes = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total;
  const set = (patch: Partial<NoteFilters>) => onFiltersChange({ ...filters, ...patch });
  const [search, setSearch] = useDebouncedInput(filters.search ?? '', (v) => set({ search: v.trim() || undefined }));
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
          <KnowledgeLink
            scope={scope}
            target="new"
            className="inline-flex h-9 items-center gap-1.5 rounded-md bg-accent px-3.5 text-sm font-medium text-white hover:bg-accent-strong"
          >
            <Plus className="size-4" aria-hidden /> New note
          </KnowledgeLink>
        }
      />
      <div role="search" aria-label="Filter notes" className="mb-3 flex flex-wrap items-end gap-3">
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm font-medium">
          Search
          <input
            type="search"
            className={inputClass}
            placeholder="Name, trigger or body"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        {scope.kind === 'enterprise' && (
          <label className="flex w-44 flex-col gap-1 text-sm font-medium">
            Access type
            <select
              className={inputClass}
              value={filters.access_type ?? ''}
              onChange={(e) => set({ access_type: (e.target.value || undefined) as NoteFilters['access_type'] })}
            >
              <option value="">All access types</option>
              <option value="enterprise">Enterprise</option>
              <option value="org">Organization</option>
            </select>
          </label>
        )}
        <label className="flex w-56 flex-col gap-1 text-sm font-medium">
          Pinned repository
          <input
            className={inputClass}
            placeholder="owner/repository"
            value={pinned}
            onChange={(e) => setPinned(e.target.value)}
          />
        </label>
        {filtered && (
          <Button onClick={() => onFiltersChange({})}>
            <X className="size-4" aria-hidden /> Clear filters
          </Button>
        )}
      </div>
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
          <CursorList
            ariaLabel="Knowledge notes"
            items={notes}
            getKey={(n) => n.note_id}
            columns="minmax(12rem,1.5fr) minmax(10rem,1.6fr) 7.5rem minmax(9rem,1fr) 5.5rem 6.5rem"
            minWidth="52rem"
            header={
              <>
                <span role="columnheader">Name</span>
                <span role="columnheader">Trigger</span>
                <span role="columnheader">Access</span>
                <span role="columnheader">Pinned repository</span>
                <span role="columnheader">Status</span>
                <span role="columnheader">Updated</span>
              </>
            }
            renderRow={(n) => (
              <>
                <span role="cell" className="flex min-w-0 flex-col">
                  <KnowledgeLink
                    scope={scope}
                    target="view"
                    noteId={n.note_id}
                    className="font-medium text-accent hover:underline"
                  >
                    {n.name}
                  </KnowledgeLink>
                  <span className="truncate font-mono text-xs text-muted" title="Folder">
                    {n.folder_path}
                  </span>
                </span>
                <span role="cell" className="line-clamp-2 text-muted">
                  {n.trigger || '—'}
                </span>
                <span role="cell">
                  <AccessBadge note={n} />
                </span>
                <span role="cell" className="truncate font-mono text-xs">
                  {n.pinned_repo ? (
                    <span className="inline-flex items-center gap-1">
                      <Pin className="size-3" aria-hidden /> {n.pinned_repo}
                    </span>
                  ) : (
                    '—'
                  )}
                </span>
                <span role="cell">
                  <EnabledBadge enabled={n.is_enabled} />
                </span>
                <span role="cell">
                  <RelativeTime value={n.updated_at} />
                </span>
              </>
            )}
            total={total}
            {...cursorListState(query)}
            emptyTitle={filtered ? 'No note matches these filters' : 'No knowledge notes yet'}
            emptyHint={filtered ? 'Change or clear the filters.' : 'Create the first note with “New note”.'}
            className="h-auto max-h-[calc(100dvh-16rem)] min-h-60"
          />
        </div>
      </div>
    </>
  );
}
