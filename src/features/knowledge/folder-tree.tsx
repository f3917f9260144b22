/** The knowledge folder tree with note counts; choosing a folder filters the list by its path. */
import { useQuery } from '@tanstack/react-query';
import { Folder, FolderOpen, Inbox, Library } from 'lucide-react';
import type { ReactNode } from 'react';
import type { FolderSummary } from '@/api/operations/knowledge';
import { ProblemView } from '@/components/problem-view';
import { cn } from '@/lib/cn';
import { foldersQueryOptions, type NoteScope } from './api';

interface TreeNode {
  folder: FolderSummary;
  depth: number;
}

/** Folders in tree order (each followed by its children), with their depth. */
export function flattenFolders(folders: readonly FolderSummary[]): TreeNode[] {
  const children = new Map<string | null, FolderSummary[]>();
  const ids = new Set(folders.map((f) => f.folder_id));
  for (const f of folders) {
    const parent = f.parent_folder_id && ids.has(f.parent_folder_id) ? f.parent_folder_id : null;
    children.set(parent, [...(children.get(parent) ?? []), f]);
  }
  const out: TreeNode[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const f of (children.get(parent) ?? []).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push({ folder: f, depth });
      walk(f.folder_id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

function normalize(path: string | undefined): string | undefined {
  if (path === undefined || path === '') return undefined;
  return `/${path.split('/').filter(Boolean).join('/')}`;
}

function TreeButton({
  selected,
  onClick,
  depth = 0,
  icon,
  label,
  count,
}: {
  selected: boolean;
  onClick: () => void;
  depth?: number;
  icon: ReactNode;
  label: string;
  count?: number;
}) {
  return (
    <li>
      <button
        type="button"
        onClick={onClick}
        aria-current={selected ? 'true' : undefined}
        className={cn(
          'flex w-full items-center gap-1.5 rounded-md px-2 py-1 text-left text-sm hover:bg-surface-2',
          selected && 'bg-accent/10 font-semibold text-accent',
        )}
        style={{ paddingLeft: `${0.5 + depth * 0.875}rem` }}
      >
        {icon}
        <span className="min-w-0 flex-1 truncate">{label}</span>
        {count !== undefined && (
          <span className="text-xs text-muted tabular-nums" aria-label={`${count} ${count === 1 ? 'note' : 'notes'}`}>
            {count}
          </span>
        )}
      </button>
    </li>
  );
}

export function FolderTree({
  scope,
  folderPath,
  onSelect,
}: {
  scope: NoteScope;
  folderPath: string | undefined;
  onSelect: (path: string | undefined) => void;
}) {
  const query = useQuery(foldersQueryOptions(scope));
  const current = normalize(folderPath);
  return (
    <nav aria-label="Folders" className="rounded-lg border border-line bg-surface p-2">
      <p className="px-2 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">Folders</p>
      {query.error ? (
        <ProblemView compact error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <ul className="flex flex-col">
          <TreeButton
            selected={current === undefined}
            onClick={() => onSelect(undefined)}
            icon={<Library className="size-4 shrink-0" aria-hidden />}
            label="All folders"
          />
          <TreeButton
            selected={current === '/'}
            onClick={() => onSelect('/')}
            icon={<Inbox className="size-4 shrink-0" aria-hidden />}
            label="No folder"
            count={query.data?.root_note_count}
          />
          {query.isPending && <li className="px-2 py-1 text-xs text-muted">Loading folders…</li>}
          {flattenFolders(query.data?.folders ?? []).map(({ folder, depth }) => {
            const selected = current === normalize(folder.path);
            const Icon = selected ? FolderOpen : Folder;
            return (
              <TreeButton
                key={folder.folder_id}
                selected={selected}
                onClick={() => onSelect(folder.path)}
                depth={depth}
                icon={<Icon className="size-4 shrink-0" aria-hidden />}
                label={folder.name}
                count={folder.note_count}
              />
            );
          })}
        </ul>
      )}
    </nav>
  );
}
