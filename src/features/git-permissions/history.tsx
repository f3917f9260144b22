/**
 * The history of git-permission changes made through the console: list the revisions, view one (the set
 * before and after, and its diff), diff two, and restore one — a change with the same conflict check as the
 * bulk editor's (the apply hook in api.ts).
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useMemo, useState } from 'react';
import type { GitPermission, GitPermissionInput } from '@/api/git-permissions/resources';
import { diffGitPermissionSets, normalizeGitPermission } from '@/api/git-permissions/set-diff';
import type { GitPermissionRevisionSummary } from '@/api/console/git-permissions';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { MadeByText, madeByText } from '@/components/made-by';
import { PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { Button, buttonClass } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { Select } from '@/components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatNumber } from '@/lib/format';
import {
  gitPermissionSetQueryOptions,
  gitRevisionDiffQueryOptions,
  gitRevisionQueryOptions,
  gitRevisionsInfiniteQueryOptions,
  useApplyGitPermissionChange,
} from './api';
import { BackToList, connectionLabel, DiffView, MatcherText, useConnections } from './shared';

const STATUS_TONE: Record<string, Tone> = { applied: 'success', failed: 'danger', partial: 'warn', applying: 'info' };
const ACTION_LABEL: Record<string, string> = {
  replace: 'Replace',
  clear: 'Clear all',
  restore: 'Restore',
  update: 'Read-only toggle',
};

/** What reconciliation found for a change left unfinished (a replica stopped mid-change), when it closed it. */
const RECONCILED_LABEL: Record<string, string> = {
  applied: 'applied (reconciled)',
  not_applied: 'not applied (reconciled)',
  partly_applied: 'partly applied (reconciled)',
  changed_elsewhere: 'unknown: changed since (reconciled)',
};

function RevisionStatus({ r }: { r: GitPermissionRevisionSummary }) {
  const reconciled = typeof r.reconciled_outcome === 'string' ? RECONCILED_LABEL[r.reconciled_outcome] : undefined;
  return (
    <Badge tone={STATUS_TONE[r.status] ?? 'neutral'} title={r.error ?? undefined}>
      {reconciled ?? r.status}
    </Badge>
  );
}

function useConnectionName() {
  const { byId } = useConnections();
  return (id: string) => connectionLabel(byId.get(id), id);
}

/**
 * Finishes a change that reconciliation found partly applied (its replica stopped mid-way): applies the set it
 * aimed at, from the current set, with the conflict check. Rolling it back is the restore of its previous set.
 */
function FinishButton({
  orgId,
  revision,
  target,
}: {
  orgId: string;
  revision: GitPermissionRevisionSummary;
  target: GitPermissionInput[];
}) {
  const [open, setOpen] = useState(false);
  const current = useQuery({ ...gitPermissionSetQueryOptions(orgId), enabled: open });
  const finish = useApplyGitPermissionChange(orgId);
  const conflict = finish.outcome?.status === 'conflict' ? finish.outcome.conflict : null;
  const close = () => {
    setOpen(false);
    finish.reset();
  };
  const run = (base: { version: string; items: GitPermission[] }) =>
    void finish
      .apply({ action: 'replace', permissions: target, allow_per_item: target.length > 200 }, base)
      .then((o) => {
        if (o?.status !== 'done') return;
        close();
        toast({
          tone: 'success',
          title: 'Finished',
          description: `The organization now has ${formatNumber(o.result.count)} permissions, as revision #${revision.revision_id} meant.`,
        });
      });
  return (
    <>
      <Button size="md" onClick={() => setOpen(true)}>
        Finish this change
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(o) => (o ? setOpen(true) : close())}
        title={`Finish revision #${revision.revision_id}?`}
        description={`The organization's git permissions are replaced by the ${formatNumber(target.length)} permissions this change aimed at. The current set is kept in the history.`}
        confirmLabel={conflict ? 'Finish on top of the current set' : 'Finish'}
        pending={finish.isPending || current.isPending}
        onConfirm={() => {
          if (conflict) return run({ version: conflict.current_version, items: conflict.current });
          if (current.data) run(current.data);
        }}
      >
        {finish.formError && <ProblemView error={finish.formError} />}
      </ConfirmDialog>
    </>
  );
}

/** Restores one side of a revision, from the current set, with the conflict check. */
function RestoreButton({
  orgId,
  revision,
  set,
  label,
  size = 'sm',
}: {
  orgId: string;
  revision: GitPermissionRevisionSummary;
  set: 'previous' | 'result';
  label: string;
  size?: 'sm' | 'md';
}) {
  const [open, setOpen] = useState(false);
  const current = useQuery({ ...gitPermissionSetQueryOptions(orgId), enabled: open });
  const full = useQuery({ ...gitRevisionQueryOptions(orgId, revision.revision_id), enabled: open });
  const restore = useApplyGitPermissionChange(orgId);
  const connectionName = useConnectionName();
  const count = set === 'previous' ? revision.previous_count : revision.result_count;
  const outcome = restore.outcome;
  const conflict = outcome?.status === 'conflict' ? outcome.conflict : null;
  const target = full.data ? (set === 'previous' ? full.data.previous : full.data.result) : undefined;
  // The same diff the editor's review shows: what the restore would change in the current set.
  const preview = useMemo(
    () => (current.data && target ? diffGitPermissionSets(current.data.items, target) : null),
    [current.data, target],
  );
  const close = () => {
    setOpen(false);
    restore.reset();
  };
  const run = (base: { version: string; items: GitPermission[] }) =>
    void restore
      .apply({ action: 'restore', revisionId: revision.revision_id, set, allow_per_item: (count ?? 0) > 200 }, base)
      .then((o) => {
        if (o?.status !== 'done') return;
        close();
        const done = o.result;
        toast({
          tone: 'success',
          title: done.unchanged ? 'Nothing to restore' : 'Restored',
          description: done.unchanged
            ? 'The current set already equals this revision; nothing was changed.'
            : `Restored: the organization now has ${formatNumber(done.count)} permissions (revision #${done.revision?.revision_id}).`,
        });
      });
  return (
    <>
      <Button size={size} disabled={count === null} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(o) => (o ? setOpen(true) : close())}
        title={`Restore ${set === 'previous' ? 'the set before' : 'the result of'} revision #${revision.revision_id}?`}
        description={
          <>
            The organization's git permissions are replaced by the {formatNumber(count ?? 0)} permissions{' '}
            {set === 'previous' ? 'it had before' : 'it had after'} this change. The current set is kept in the history.
            {(count ?? 0) > 200
              ? ' This set is larger than one replace accepts, so it is applied with per-item operations (not atomic).'
              : ''}
          </>
        }
        confirmLabel={conflict ? 'Restore on top of the current set' : 'Restore'}
        pending={restore.isPending || current.isPending || full.isPending}
        onConfirm={() => {
          if (conflict) return run({ version: conflict.current_version, items: conflict.current });
          if (current.data) run(current.data);
        }}
      >
        {current.data && !conflict && (
          <p className="mt-2 text-xs text-muted">Current set: {formatNumber(current.data.count)} permissions.</p>
        )}
        {preview && !conflict && (
          <section aria-label="What the restore changes" className="mt-3 flex max-h-72 flex-col gap-2 overflow-auto">
            <p className="text-sm font-semibold">What the restore changes</p>
            <DiffView
              diff={preview}
              connectionName={connectionName}
              emptyText="Nothing: the current set already equals it."
            />
          </section>
        )}
        {current.error ? <ProblemView compact error={current.error} /> : null}
        {full.error ? <ProblemView compact error={full.error} /> : null}
        {conflict && (
          <div className="mt-3 flex max-h-80 flex-col gap-2 overflow-auto" role="alert">
            <p className="text-sm font-semibold text-warn">
              The set changed since it was read; nothing was restored. What changed meanwhile:
            </p>
            {conflict.changes ? <DiffView diff={conflict.changes} connectionName={connectionName} /> : null}
          </div>
        )}
        {restore.formError ? (
          <div className="mt-3">
            <ProblemView compact error={restore.formError} />
          </div>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

const revisionCol = columnHelper<GitPermissionRevisionSummary>();

function revisionColumns(orgId: string) {
  return revisionCol.columns([
    revisionCol.accessor('revision_id', {
      header: '#',
      enableHiding: false,
      meta: { width: '4rem', className: 'font-mono text-xs' },
      cell: ({ getValue }) => `#${getValue()}`,
    }),
    revisionCol.accessor('action', {
      header: 'Change',
      meta: { width: 'minmax(7rem,1fr)' },
      cell: ({ row: { original: r } }) => (
        <>
          {ACTION_LABEL[r.action] ?? r.action}
          {r.restored_from !== null ? <span className="block text-xs text-muted">from #{r.restored_from}</span> : null}
          {r.method === 'per_item' ? <span className="block text-xs text-muted">per item</span> : null}
        </>
      ),
    }),
    revisionCol.accessor('created_at', {
      header: 'When',
      ...timeColumn({ sortable: false, width: 'minmax(8rem,1fr)' }),
    }),
    revisionCol.accessor((r) => madeByText(r), {
      id: 'made_by',
      header: 'By',
      meta: { width: 'minmax(8rem,1fr)', className: 'text-sm' },
      cell: ({ row: { original: r } }) => <MadeByText revision={r} />,
    }),
    revisionCol.display({
      id: 'permissions',
      header: 'Permissions',
      meta: { width: 'minmax(9rem,1fr)', className: 'text-xs' },
      cell: ({ row: { original: r } }) => (
        <>
          {formatNumber(r.previous_count)} → {r.result_count !== null ? formatNumber(r.result_count) : '?'}{' '}
          <span className="text-muted">
            (+{r.added} −{r.removed} ~{r.changed})
          </span>
        </>
      ),
    }),
    revisionCol.accessor('status', {
      header: 'Status',
      meta: { width: 'minmax(7rem,0.8fr)' },
      cell: ({ row }) => <RevisionStatus r={row.original} />,
    }),
    revisionCol.display({
      id: 'actions',
      header: 'Actions',
      enableHiding: false,
      meta: { width: 'minmax(16rem,2fr)', className: 'flex flex-wrap gap-1.5' },
      cell: ({ row: { original: r } }) => (
        <>
          <Link
            to="/orgs/$orgId/git-permissions/history/$revisionId"
            params={{ orgId, revisionId: String(r.revision_id) }}
            className={buttonClass({ size: 'sm' })}
            aria-label={`View revision #${r.revision_id}`}
            data-row-link
          >
            View
          </Link>
          <RestoreButton orgId={orgId} revision={r} set="previous" label="Restore previous set" />
        </>
      ),
    }),
  ]);
}

export function GitPermissionHistory({ orgId, from, to }: { orgId: string; from?: number; to?: number }) {
  const query = useInfiniteQuery(gitRevisionsInfiniteQueryOptions(orgId));
  const revisions = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const columns = useMemo(() => revisionColumns(orgId), [orgId]);
  return (
    <>
      <PageHeader
        title="Git permission history"
        description={
          <>
            Every replace, clear and restore made through the console, with who made it and the complete set before it.{' '}
            <BackToList orgId={orgId} />
          </>
        }
      />
      {revisions.length >= 2 && <CompareForm revisions={revisions} from={from} to={to} />}
      {from !== undefined && to !== undefined && <RevisionDiff orgId={orgId} from={from} to={to} />}
      <DataTable
        label="Revisions"
        tableId="git-permission-revisions"
        columns={columns}
        query={query}
        getRowId={(r) => String(r.revision_id)}
        minWidth="64rem"
        className="h-auto max-h-[28rem]"
        empty={{
          title: 'No changes recorded yet',
          hint: 'Changes applied with the bulk editor (replace, clear, restore) appear here with the set before them.',
        }}
      />
    </>
  );
}

/** Two revisions to compare; the comparison's revisions are in the URL. */
function CompareForm({
  revisions,
  from,
  to,
}: {
  revisions: readonly GitPermissionRevisionSummary[];
  from?: number;
  to?: number;
}) {
  const navigate = useNavigate({ from: '/orgs/$orgId/git-permissions/history/' });
  const [pickFrom, setPickFrom] = useState(from !== undefined ? String(from) : '');
  const [pickTo, setPickTo] = useState(to !== undefined ? String(to) : '');
  const id = useId();
  const options = revisions.map((r) => ({
    value: String(r.revision_id),
    label: `#${r.revision_id} ${ACTION_LABEL[r.action] ?? r.action} (${r.result_count ?? r.previous_count})`,
  }));
  return (
    <form
      className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-line bg-surface p-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (pickFrom && pickTo) void navigate({ search: { from: Number(pickFrom), to: Number(pickTo) } });
      }}
    >
      {(
        [
          ['from', 'From revision', pickFrom, setPickFrom],
          ['to', 'To revision', pickTo, setPickTo],
        ] as const
      ).map(([key, label, value, onChange]) => (
        <div key={key} className="flex w-56 flex-col gap-1">
          <label htmlFor={`${id}-${key}`} className="text-sm font-medium">
            {label}
          </label>
          <Select id={`${id}-${key}`} value={value} placeholder="Choose…" options={options} onValueChange={onChange} />
        </div>
      ))}
      <Button type="submit" disabled={!pickFrom || !pickTo}>
        Compare
      </Button>
      <p className="w-full text-xs text-muted">Each revision stands for the set it produced.</p>
    </form>
  );
}

function RevisionDiff({ orgId, from, to }: { orgId: string; from: number; to: number }) {
  const q = useQuery(gitRevisionDiffQueryOptions(orgId, from, to));
  const connectionName = useConnectionName();
  return (
    <section aria-label={`Differences from #${from} to #${to}`} className="mb-4 flex flex-col gap-2">
      <h2 className="text-base font-semibold">
        From #{from} to #{to}
      </h2>
      {q.isPending ? (
        <Spinner />
      ) : q.error ? (
        <ProblemView error={q.error} />
      ) : (
        <DiffView diff={q.data.diff} connectionName={connectionName} />
      )}
    </section>
  );
}

const setCol = columnHelper<GitPermission>();

function setColumns(connectionName: (id: string) => string) {
  return setCol.columns([
    setCol.display({
      id: 'matcher',
      header: 'Matches',
      enableHiding: false,
      meta: { width: 'minmax(14rem,3fr)' },
      cell: ({ row }) => <MatcherText item={row.original} />,
    }),
    setCol.accessor((p) => connectionName(p.git_connection_id), {
      id: 'connection',
      header: 'Connection',
      meta: { width: 'minmax(10rem,1.5fr)', className: 'truncate text-xs' },
    }),
    setCol.accessor('read_only', {
      header: 'Read-only',
      meta: { width: 'minmax(6rem,0.8fr)', className: 'text-xs' },
      cell: ({ getValue }) => (getValue() ? 'Read-only' : 'Read/write'),
    }),
  ]);
}

/** One set of a revision (before or after it). */
function SetTable({ items, label }: { items: GitPermission[]; label: string }) {
  const { byId } = useConnections();
  const columns = useMemo(() => setColumns((id) => connectionLabel(byId.get(id), id)), [byId]);
  return (
    <DataTable
      label={label}
      tableId="git-permission-revision-set"
      columns={columns}
      data={items}
      getRowId={(p) => p.git_permission_id}
      minWidth="36rem"
      estimateRowHeight={36}
      className="h-auto max-h-96"
      empty={{ title: 'Empty set' }}
    />
  );
}

export function GitPermissionRevisionView({ orgId, revisionId }: { orgId: string; revisionId: number }) {
  const q = useQuery(gitRevisionQueryOptions(orgId, revisionId));
  const connectionName = useConnectionName();
  const diff = useMemo(
    () =>
      q.data
        ? diffGitPermissionSets(
            q.data.previous.map(normalizeGitPermission),
            (q.data.result ?? q.data.previous).map(normalizeGitPermission),
          )
        : null,
    [q.data],
  );
  if (q.isPending) return <Spinner />;
  if (q.error) return <ProblemView error={q.error} onRetry={() => void q.refetch()} />;
  const r = q.data;
  return (
    <>
      <PageHeader
        title={`Revision #${r.revision_id}: ${ACTION_LABEL[r.action] ?? r.action}`}
        description={
          <>
            <RelativeTime value={r.created_at} /> · by <MadeByText revision={r} /> · {formatNumber(r.previous_count)} →{' '}
            {r.result_count !== null ? formatNumber(r.result_count) : '?'} permissions
            {r.restored_from !== null ? ` · restored from #${r.restored_from}` : ''} ·{' '}
            <Link
              to="/orgs/$orgId/git-permissions/history"
              params={{ orgId }}
              search={{}}
              className="text-accent underline underline-offset-2 hover:no-underline"
            >
              All revisions
            </Link>
          </>
        }
        actions={
          <>
            <RevisionStatus r={r} />
            <RestoreButton
              orgId={orgId}
              revision={r}
              set="previous"
              label="Restore the set before this change"
              size="md"
            />
            {r.result && (
              <RestoreButton
                orgId={orgId}
                revision={r}
                set="result"
                label="Restore the result of this change"
                size="md"
              />
            )}
            {r.reconciled_outcome === 'partly_applied' && Array.isArray(r.target) && (
              <FinishButton orgId={orgId} revision={r} target={r.target as GitPermissionInput[]} />
            )}
          </>
        }
      />
      {r.error && (
        <div className="mb-3">
          <ProblemView
            error={
              new Error(
                typeof r.reconciled_outcome === 'string'
                  ? `This change was left unfinished and reconciled with the API afterwards: ${r.error}`
                  : `This change ${r.status === 'partial' ? 'stopped half-way' : 'failed'}: ${r.error}`,
              )
            }
          />
        </div>
      )}
      <Tabs defaultValue="changes">
        <TabsList aria-label="Revision" className="mb-3">
          <TabsTrigger value="changes">Changes</TabsTrigger>
          <TabsTrigger value="previous">Before ({r.previous.length})</TabsTrigger>
          <TabsTrigger value="result" disabled={!r.result}>
            After ({r.result?.length ?? '—'})
          </TabsTrigger>
        </TabsList>
        <TabsContent value="changes">{diff && <DiffView diff={diff} connectionName={connectionName} />}</TabsContent>
        <TabsContent value="previous">
          <SetTable items={r.previous} label="Permissions before the change" />
        </TabsContent>
        <TabsContent value="result">
          {r.result && <SetTable items={r.result} label="Permissions after the change" />}
        </TabsContent>
      </Tabs>
    </>
  );
}
