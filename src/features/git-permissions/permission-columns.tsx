/**
 * The permissions table's columns: matcher, its type, connection, the read-only switch (a quick toggle that
 * does not open the editor) and when it was created, each sortable in the browser by its own value.
 */
import { describeMatcher } from '@/api/git-permissions/set-diff';
import { matcherOf, MATCHER_LABELS, type GitConnection, type GitPermission } from '@/api/git-permissions/resources';
import { Badge } from '@/components/badge';
import { columnHelper } from '@/components/data-table';
import { RelativeTime } from '@/components/relative-time';
import { Switch } from '@/components/ui/switch';
import type { ToggleVariables } from './api';
import { connectionLabel, MatcherText, PROVIDER_LABELS } from './shared';

type SortValue = (p: GitPermission) => string | number;

/** Compares by the column's value (numbers as numbers, text in the reader's locale), then by id. */
function sortBy(value: SortValue) {
  return (a: { original: GitPermission }, b: { original: GitPermission }) => {
    const va = value(a.original);
    const vb = value(b.original);
    const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return c !== 0 ? c : a.original.git_permission_id.localeCompare(b.original.git_permission_id);
  };
}

export interface ReadOnlyToggle {
  pending: readonly (string | undefined)[];
  onToggle: (variables: ToggleVariables) => void;
}

const col = columnHelper<GitPermission>();

export function permissionColumns(byId: ReadonlyMap<string, GitConnection>, toggle: ReadOnlyToggle) {
  const name = (p: GitPermission) => connectionLabel(byId.get(p.git_connection_id), p.git_connection_id);
  const sortable = (value: SortValue) => ({ enableSorting: true, sortDescFirst: false, sortFn: sortBy(value) });
  return col.columns([
    col.accessor((p) => matcherOf(p)?.value ?? '', {
      id: 'matcher',
      header: 'Matches',
      enableHiding: false,
      ...sortable((p) => matcherOf(p)?.value ?? ''),
      meta: { width: 'minmax(14rem,3fr)' },
      cell: ({ row }) => <MatcherText item={row.original} />,
    }),
    col.accessor((p) => matcherOf(p)?.field ?? '', {
      id: 'type',
      header: 'Matcher',
      ...sortable((p) => matcherOf(p)?.field ?? ''),
      meta: { width: 'minmax(7rem,1fr)' },
      cell: ({ row }) => {
        const m = matcherOf(row.original);
        return (
          <Badge tone={m?.field === 'repo_path' ? 'info' : m?.field === 'group_prefix' ? 'accent' : 'neutral'}>
            {m ? MATCHER_LABELS[m.field] : 'Invalid'}
          </Badge>
        );
      },
    }),
    col.accessor(name, {
      id: 'connection',
      header: 'Connection',
      ...sortable(name),
      meta: {
        width: 'minmax(10rem,1.5fr)',
        className: 'truncate text-xs',
        cellTitle: (p: GitPermission) => `${byId.get(p.git_connection_id)?.host ?? ''} ${p.git_connection_id}`,
      },
      cell: ({ row: { original: p } }) => {
        const conn = byId.get(p.git_connection_id);
        return (
          <>
            {connectionLabel(conn, p.git_connection_id)}
            {conn ? (
              <span className="block text-muted">
                {PROVIDER_LABELS[conn.git_provider_type] ?? conn.git_provider_type}
              </span>
            ) : null}
          </>
        );
      },
    }),
    col.accessor('read_only', {
      id: 'read_only',
      header: 'Read-only',
      enableHiding: false,
      ...sortable((p) => (p.read_only ? 1 : 0)),
      meta: { width: 'minmax(8.5rem,0.8fr)', className: 'flex items-center gap-2 whitespace-nowrap' },
      cell: ({ row: { original: p } }) => (
        <>
          <Switch
            checked={p.read_only}
            disabled={toggle.pending.includes(p.git_permission_id)}
            aria-label={`Read-only: ${describeMatcher(p)}`}
            onCheckedChange={(checked) =>
              toggle.onToggle({ id: p.git_permission_id, read_only: checked, label: describeMatcher(p) })
            }
          />
          <span className="text-xs text-muted">{p.read_only ? 'Read-only' : 'Read/write'}</span>
        </>
      ),
    }),
    col.accessor((p) => p.created_at ?? 0, {
      id: 'created_at',
      header: 'Created',
      ...sortable((p) => p.created_at ?? 0),
      meta: { width: 'minmax(7rem,1fr)', className: 'text-xs text-muted' },
      cell: ({ row }) => <RelativeTime value={row.original.created_at} />,
    }),
  ]);
}
