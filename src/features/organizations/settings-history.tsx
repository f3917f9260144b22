/**
 * The history of settings changed through the console (`console.settings.history.*`), one view for every kind:
 * organizations, ACU limits, org group limits, session tags, roles and IdP group roles. Each entry says when,
 * who, which setting (by name) and what changed, field by field as the forms label them; a gap — a value
 * changed outside the console — is named as such. Restore applies the value before or after an entry again,
 * behind a confirmation; where the API cannot (a deleted organization), the button is disabled and the reason
 * is written beside it. Screens of other areas show it through their route (`history` slots).
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  SETTING_KIND_LABELS,
  SETTINGS_HISTORY_PAGE_SIZE,
  settingsHistoryKeys,
  type SettingChange,
  type SettingKind,
  type SettingRevision,
  type SettingValue,
} from '@/api/console/settings-history';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { MadeByText } from '@/components/made-by';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';
import { acuLimitKeys, orgGroupLimitKeys } from '@/lib/enterprise-limits';
import { formatNumber } from '@/lib/format';
import { orgTagKeys } from '@/lib/org-tags';
import { organizationKeys } from '@/lib/organizations';

export interface SettingsHistoryFilter {
  kind: readonly SettingKind[];
  key?: string;
  key_prefix?: string;
}

export const settingsHistoryInfiniteQueryOptions = (filter: SettingsHistoryFilter) =>
  cursorInfiniteQueryOptions({
    queryKey: settingsHistoryKeys.list(filter),
    page: (after, signal) =>
      apiCall('console.settings.history.list', {
        query: { ...filter, kind: [...filter.kind], first: SETTINGS_HISTORY_PAGE_SIZE, after },
        signal,
      }),
    staleTime: 0,
  });

/** How the forms label each field of a setting. */
function fieldLabel(kind: SettingKind, path: readonly string[]): string {
  const [head, group, field] = path;
  switch (kind) {
    case 'organization':
      return head === 'name' ? 'Name' : head === 'max_session_acu_limit' ? 'ACU limit per session' : (head ?? '');
    case 'acu-limit':
      return 'ACU limit per billing cycle';
    case 'org-group-limits':
      if (head === 'groups' && group !== undefined) {
        return field === 'org_ids'
          ? `Group “${group}”: organizations`
          : field === 'max_cycle_acus'
            ? `Group “${group}”: ACU maximum per cycle`
            : `Group “${group}”`;
      }
      return 'Groups';
    case 'org-tags':
      return head === 'tags' ? 'Allowed tags' : head === 'default_tag' ? 'Default tag' : (head ?? '');
    case 'roles':
    case 'idp-group-roles':
      return 'Role';
  }
}

/** A value as a person reads it: ids with their names, no limit and none in words. */
function valueText(kind: SettingKind, path: readonly string[], v: SettingValue, names: Record<string, string>) {
  if (v === null) {
    if (kind === 'acu-limit' || path.includes('max_session_acu_limit') || path.includes('max_cycle_acus'))
      return 'no limit';
    return 'none';
  }
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'string') {
    const name = names[v];
    if (name) return name;
    if (path.includes('org_ids')) return `organization ${v} (name unknown)`;
    if (path.includes('role_id')) return `role ${v} (name unknown)`;
    return v;
  }
  return JSON.stringify(v);
}

/** One line per change: "Name: Platform → Platform team", "Allowed tags: + beta". */
export function ChangeLines({ revision, reverse = false }: { revision: SettingRevision; reverse?: boolean }) {
  const { kind, names } = revision;
  if (revision.origin === 'console' && revision.before === null && revision.after_known) {
    if (revision.changes.length === 0) return <span>Created</span>;
  }
  if (!revision.after_known) return <span className="text-muted">The value after could not be read</span>;
  if (revision.after === null && revision.before !== null && !reverse) {
    return <span>{kind === 'organization' ? 'Deleted' : 'No longer exists'}</span>;
  }
  const changes: SettingChange[] = reverse
    ? revision.changes.map((c) => ({ path: c.path, before: c.after, after: c.before }))
    : revision.changes;
  if (changes.length === 0) return <span className="text-muted">No difference</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {changes.slice(0, 12).map((c, i) => {
        const label = fieldLabel(kind, c.path);
        const listEntry = c.path.includes('tags') || c.path.includes('org_ids');
        return (
          <li key={i} className="break-words">
            <span className="text-muted">{label}: </span>
            {listEntry ? (
              c.before === null ? (
                <Badge tone="success">+ {valueText(kind, c.path, c.after, names)}</Badge>
              ) : (
                <Badge tone="danger">− {valueText(kind, c.path, c.before, names)}</Badge>
              )
            ) : (
              <>
                <span className="line-through decoration-danger/60">{valueText(kind, c.path, c.before, names)}</span>
                <span aria-hidden> → </span>
                <span className="sr-only"> changed to </span>
                <span className="font-medium">{valueText(kind, c.path, c.after, names)}</span>
              </>
            )}
          </li>
        );
      })}
      {changes.length > 12 && <li className="text-muted">and {formatNumber(changes.length - 12)} more</li>}
    </ul>
  );
}

const ACTION_LABELS: Record<string, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  set: 'Set',
  remove: 'Removed',
  replace: 'Replaced',
  append: 'Added tags',
  clear: 'Cleared',
  'set-default': 'Set the default tag',
  'clear-default': 'Cleared the default tag',
  'set-role': 'Set the role',
  'remove-role': 'Removed the role',
};

function ChangeCell({ r }: { r: SettingRevision }) {
  return (
    <div className="flex flex-col items-start gap-1">
      {r.origin === 'outside' ? (
        <>
          <Badge tone="warn" className="whitespace-normal">
            Changed outside the console
          </Badge>
          {r.revision_id === null && <span className="text-xs text-muted">Found just now</span>}
        </>
      ) : (
        <span>
          {r.action === 'restore'
            ? `Restored from entry #${r.restored_from ?? '?'}`
            : (ACTION_LABELS[r.action] ?? r.action)}
        </span>
      )}
      {r.status === 'failed' && (
        <span className="text-xs text-danger">
          <Badge tone="danger">Failed</Badge> {r.error}
        </span>
      )}
      {r.status === 'applying' && <Badge tone="warn">Not finished</Badge>}
    </div>
  );
}

type Restore = { revision: SettingRevision; set: 'before' | 'after' };

function RestoreCell({ r, onRestore }: { r: SettingRevision; onRestore: (x: Restore) => void }) {
  if (r.revision_id === null) {
    return <span className="text-xs text-muted">{r.restore_before.reason}</span>;
  }
  const reasons = [
    ...new Set([r.restore_before, r.restore_after].filter((x) => !x.allowed).map((x) => x.reason ?? '')),
  ].filter(Boolean);
  const id = `restore-why-${r.revision_id}`;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap gap-1">
        <Button
          size="sm"
          disabled={!r.restore_before.allowed}
          aria-describedby={r.restore_before.allowed ? undefined : id}
          aria-label={`Restore ${r.label} as before entry ${r.revision_id}`}
          onClick={() => onRestore({ revision: r, set: 'before' })}
        >
          Before
        </Button>
        <Button
          size="sm"
          disabled={!r.restore_after.allowed}
          aria-describedby={r.restore_after.allowed ? undefined : id}
          aria-label={`Restore ${r.label} as after entry ${r.revision_id}`}
          onClick={() => onRestore({ revision: r, set: 'after' })}
        >
          After
        </Button>
      </div>
      {reasons.length > 0 && (
        <p id={id} className="text-xs text-muted">
          {reasons.join(' ')}
        </p>
      )}
    </div>
  );
}

interface SettingsHistoryProps {
  title: string;
  description?: string;
  filter: SettingsHistoryFilter;
  /** After a restore: the screen showing the setting reads it again (the areas in lib/ are refreshed here). */
  onRestored?: () => unknown;
  /**
   * Shown on demand: on a list screen (members, service users, IdP groups) the history would otherwise be a second
   * table of the same people under the list, read on every visit.
   */
  collapsed?: boolean;
}

export function SettingsHistory({ collapsed = false, ...props }: SettingsHistoryProps) {
  const [open, setOpen] = useState(!collapsed);
  if (open) return <SettingsHistoryPanel {...props} />;
  return (
    <section aria-label={props.title} className="flex flex-wrap items-center justify-between gap-2">
      <h2 className="text-base font-semibold">{props.title}</h2>
      <Button size="sm" aria-expanded={false} onClick={() => setOpen(true)}>
        Show history
      </Button>
    </section>
  );
}

function SettingsHistoryPanel({ title, description, filter, onRestored }: Omit<SettingsHistoryProps, 'collapsed'>) {
  const query = useInfiniteQuery(settingsHistoryInfiniteQueryOptions(filter));
  const [restore, setRestore] = useState<Restore | null>(null);
  const showKind = filter.kind.length > 1;

  const columns = useMemo(() => {
    const col = columnHelper<SettingRevision>();
    return col.columns([
      col.accessor('created_at', { header: 'When', ...timeColumn({ sortable: false }) }),
      col.accessor((r) => r.made_by ?? '', {
        id: 'made_by',
        header: 'Who',
        meta: { width: 'minmax(7rem,0.7fr)', className: 'text-sm' },
        cell: ({ row: { original: r } }) =>
          r.origin === 'outside' ? (
            <span className="text-muted italic">Unknown (outside the console)</span>
          ) : (
            <MadeByText revision={r} />
          ),
      }),
      col.accessor('label', {
        header: 'Setting',
        meta: { width: 'minmax(9rem,1fr)', className: 'flex flex-col', card: 'title' },
        cell: ({ row: { original: r } }) => (
          <>
            <span className="font-medium break-words">{r.label}</span>
            {showKind && <span className="text-xs text-muted">{SETTING_KIND_LABELS[r.kind]}</span>}
          </>
        ),
      }),
      col.display({
        id: 'change',
        header: 'Change',
        meta: { width: '10rem' },
        cell: ({ row: { original: r } }) => <ChangeCell r={r} />,
      }),
      col.display({
        id: 'diff',
        header: 'What changed',
        meta: { width: 'minmax(14rem,2fr)', className: 'text-sm' },
        cell: ({ row: { original: r } }) => <ChangeLines revision={r} />,
      }),
      col.display({
        id: 'restore',
        header: 'Restore',
        meta: { width: 'minmax(9rem,0.9fr)' },
        cell: ({ row: { original: r } }) => <RestoreCell r={r} onRestore={setRestore} />,
      }),
    ]);
  }, [showKind]);

  return (
    <section aria-label={title} className="flex flex-col gap-2">
      <div>
        <h2 className="text-base font-semibold">{title}</h2>
        <p className="text-sm text-muted">
          {description ??
            'Changes made through this console, newest first, with who made each one and what it changed. A change made elsewhere shows as “Changed outside the console”. Restore brings back the value before or after an entry.'}
        </p>
      </div>
      <DataTable
        label={title}
        tableId="settings-history"
        columns={columns}
        query={query}
        getRowId={(r) => (r.revision_id === null ? `now-${r.kind}-${r.key}` : String(r.revision_id))}
        estimateRowHeight={72}
        minWidth="52rem"
        className="max-h-[32rem]"
        empty={{
          title: 'No changes recorded yet',
          hint: 'Changes made through this console are kept here, with who made them and restore.',
        }}
      />
      {restore && <RestoreDialog restore={restore} onClose={() => setRestore(null)} onRestored={onRestored} />}
    </section>
  );
}

/** The areas a restore of each kind changes (those whose keys live in lib/; the screen's own via `onRestored`). */
const RESTORED_KEYS: Record<SettingKind, ReadonlyArray<readonly unknown[]>> = {
  organization: [organizationKeys.all],
  'acu-limit': [acuLimitKeys.all, organizationKeys.all],
  'org-group-limits': [orgGroupLimitKeys.all],
  'org-tags': [orgTagKeys.all],
  roles: [],
  'idp-group-roles': [],
};

function RestoreDialog({
  restore,
  onClose,
  onRestored,
}: {
  restore: Restore;
  onClose: () => void;
  onRestored?: () => unknown;
}) {
  const { revision, set } = restore;
  const qc = useQueryClient();
  const mutation = useMutation({
    mutationFn: () =>
      apiCall('console.settings.history.restore', {
        params: { revision_id: String(revision.revision_id) },
        body: { set },
      }),
    onSuccess: async () => {
      for (const key of [settingsHistoryKeys.all, ...RESTORED_KEYS[revision.kind]])
        void qc.invalidateQueries({ queryKey: key });
      await onRestored?.();
    },
  });
  return (
    <ConfirmDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Restore ${revision.label}?`}
      description={`Applies again the value ${set === 'before' ? 'before' : 'after'} entry #${revision.revision_id}, through the same checks as a change made on its screen. It is recorded as a new entry.`}
      confirmLabel="Restore"
      pending={mutation.isPending}
      onConfirm={() =>
        mutation.mutate(undefined, {
          onSuccess: (res) => {
            toast({
              title: res.unchanged
                ? `Nothing to restore: ${revision.label} already has that value`
                : `Restored ${revision.label} as ${set} entry #${revision.revision_id}`,
              tone: 'success',
            });
            onClose();
          },
        })
      }
    >
      <section aria-label="What the restore brings back" className="mt-3 text-sm">
        <ChangeLines revision={revision} reverse={set === 'before'} />
      </section>
      {mutation.error && (
        <div className="mt-3">
          <ProblemView compact error={mutation.error} />
        </div>
      )}
    </ConfirmDialog>
  );
}
