/**
 * The history of git-permission changes made through the console: list the revisions, view one (the set
 * before and after, and its diff), diff two, and restore one — a replace with the same conflict check.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { diffGitPermissionSets, normalizeGitPermission } from '@/api/git-permissions/set-diff';
import { type GitPermission } from '@/api/git-permissions/resources';
import { type GitPermissionRevisionSummary } from '@/api/console/git-permissions';
import { Badge, type Tone } from '@/components/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CursorList, cursorListState } from '@/components/cursor-list';
import { Field, inputClass } from '@/components/field';
import { PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { formatNumber } from '@/lib/format';
import {
  gitPermissionSetQueryOptions,
  gitRevisionDiffQueryOptions,
  gitRevisionQueryOptions,
  gitRevisionsInfiniteQueryOptions,
  useRestoreGitRevision,
} from './api';
import type { ConsoleApplyResult } from '@/api/console/git-permissions';
import { conflictOf, connectionLabel, DiffView, MatcherText, useConnections, type ConflictBody } from './shared';

const STATUS_TONE: Record<string, Tone> = { applied: 'success', failed: 'danger', partial: 'warn', applying: 'info' };
const ACTION_LABEL: Record<string, string> = {
  replace: 'Replace',
  clear: 'Clear all',
  restore: 'Restore',
  update: 'Read-only toggle',
};

function RevisionStatus({ r }: { r: GitPermissionRevisionSummary }) {
  return (
    <Badge tone={STATUS_TONE[r.status] ?? 'neutral'} title={r.error ?? undefined}>
      {r.status}
    </Badge>
  );
}

function counts(r: GitPermissionRevisionSummary) {
  return `+${r.added} −${r.removed} ~${r.changed}`;
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
  const restore = useRestoreGitRevision(orgId);
  const [done, setDone] = useState<ConsoleApplyResult | null>(null);
  const [conflict, setConflict] = useState<ConflictBody | null>(null);
  const { byId } = useConnections();
  const count = set === 'previous' ? revision.previous_count : revision.result_count;
  const run = (base: { version: string; items: GitPermission[] }) =>
    restore.mutate(
      {
        revisionId: revision.revision_id,
        set,
        base_version: base.version,
        base: base.items.map(normalizeGitPermission),
        allow_per_item: (count ?? 0) > 200,
      },
      {
        onSuccess: (r) => {
          setDone(r);
          setConflict(null);
        },
        onError: (e) => setConflict(conflictOf(e)),
      },
    );
  return (
    <>
      <Button size={size} disabled={count === null} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) {
            restore.reset();
            setDone(null);
            setConflict(null);
          }
        }}
        title={
          done
            ? 'Restored'
            : `Restore ${set === 'previous' ? 'the set before' : 'the result of'} revision #${revision.revision_id}?`
        }
        description={
          done ? (
            <span role="status">
              {done.unchanged
                ? 'The current set already equals this revision; nothing was changed.'
                : `Restored: the organization now has ${formatNumber(done.count)} permissions (revision #${done.revision?.revision_id}).`}
            </span>
          ) : (
            <>
              The organization's git permissions are replaced by the {formatNumber(count ?? 0)} permissions{' '}
              {set === 'previous' ? 'it had before' : 'it had after'} this change. The current set is kept in the
              history.
              {(count ?? 0) > 200
                ? ' This set is larger than one replace accepts, so it is applied with per-item operations (not atomic).'
                : ''}
            </>
          )
        }
        confirmLabel={done ? 'Close' : conflict ? 'Restore on top of the current set' : 'Restore'}
        pending={restore.isPending || (!done && current.isPending)}
        onConfirm={() => {
          if (done) return setOpen(false);
          if (conflict) return run({ version: conflict.current_version, items: conflict.current });
          if (current.data) run(current.data);
        }}
      >
        {!done && current.data && !conflict && (
          <p className="mt-2 text-xs text-muted">Current set: {formatNumber(current.data.count)} permissions.</p>
        )}
        {current.error ? <ProblemView compact error={current.error} /> : null}
        {conflict && (
          <div className="mt-3 flex max-h-80 flex-col gap-2 overflow-auto" role="alert">
            <p className="text-sm font-semibold text-warn">
              The set changed since it was read; nothing was restored. What changed meanwhile:
            </p>
            {conflict.changes ? (
              <DiffView diff={conflict.changes} connectionName={(id) => connectionLabel(byId.get(id), id)} />
            ) : null}
          </div>
        )}
        {restore.error && !conflict ? (
          <div className="mt-3">
            <ProblemView compact error={restore.error} />
          </div>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

export function GitPermissionHistory({ orgId, from, to }: { orgId: string; from?: number; to?: number }) {
  const navigate = useNavigate({ from: '/orgs/$orgId/git-permissions/history/' });
  const query = useInfiniteQuery(gitRevisionsInfiniteQueryOptions(orgId));
  const revisions = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const [pickFrom, setPickFrom] = useState<string>(from !== undefined ? String(from) : '');
  const [pickTo, setPickTo] = useState<string>(to !== undefined ? String(to) : '');
  const compare = from !== undefined && to !== undefined;
  return (
    <>
      <PageHeader
        title="Git permission history"
        description={
          <>
            Every replace, clear and restore made through the console, with the complete set before it.{' '}
            <Link
              to="/orgs/$orgId/git-permissions"
              params={{ orgId }}
              search={{}}
              className="text-accent hover:underline"
            >
              Back to the list
            </Link>
          </>
        }
      />
      {revisions.length >= 2 && (
        <form
          className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-line bg-surface p-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (pickFrom && pickTo) void navigate({ search: { from: Number(pickFrom), to: Number(pickTo) } });
          }}
        >
          <Field label="From revision" className="w-56">
            <select className={inputClass} value={pickFrom} onChange={(e) => setPickFrom(e.target.value)}>
              <option value="">Choose…</option>
              {revisions.map((r) => (
                <option key={r.revision_id} value={r.revision_id}>
                  #{r.revision_id} {ACTION_LABEL[r.action]} ({r.result_count ?? r.previous_count})
                </option>
              ))}
            </select>
          </Field>
          <Field label="To revision" className="w-56">
            <select className={inputClass} value={pickTo} onChange={(e) => setPickTo(e.target.value)}>
              <option value="">Choose…</option>
              {revisions.map((r) => (
                <option key={r.revision_id} value={r.revision_id}>
                  #{r.revision_id} {ACTION_LABEL[r.action]} ({r.result_count ?? r.previous_count})
                </option>
              ))}
            </select>
          </Field>
          <Button type="submit" disabled={!pickFrom || !pickTo}>
            Compare
          </Button>
          <p className="w-full text-xs text-muted">Each revision stands for the set it produced.</p>
        </form>
      )}
      {compare && <RevisionDiff orgId={orgId} from={from} to={to} />}
      <CursorList
        ariaLabel="Revisions"
        items={revisions}
        total={query.data?.pages[0]?.total}
        getKey={(r) => String(r.revision_id)}
        columns="4rem minmax(7rem,1fr) minmax(8rem,1fr) minmax(9rem,1fr) minmax(7rem,0.8fr) minmax(16rem,2fr)"
        minWidth="56rem"
        className="h-[28rem]"
        header={
          <>
            <span role="columnheader">#</span>
            <span role="columnheader">Change</span>
            <span role="columnheader">When</span>
            <span role="columnheader">Permissions</span>
            <span role="columnheader">Status</span>
            <span role="columnheader">Actions</span>
          </>
        }
        renderRow={(r) => (
          <>
            <span role="cell" className="font-mono text-xs">
              #{r.revision_id}
            </span>
            <span role="cell">
              {ACTION_LABEL[r.action] ?? r.action}
              {r.restored_from !== null ? (
                <span className="block text-xs text-muted">from #{r.restored_from}</span>
              ) : null}
              {r.method === 'per_item' ? <span className="block text-xs text-muted">per item</span> : null}
            </span>
            <span role="cell" className="text-xs">
              <RelativeTime value={r.created_at} />
            </span>
            <span role="cell" className="text-xs">
              {formatNumber(r.previous_count)} → {r.result_count !== null ? formatNumber(r.result_count) : '?'}{' '}
              <span className="text-muted">({counts(r)})</span>
            </span>
            <span role="cell">
              <RevisionStatus r={r} />
            </span>
            <span role="cell" className="flex flex-wrap gap-1.5">
              <Link
                to="/orgs/$orgId/git-permissions/history/$revisionId"
                params={{ orgId, revisionId: String(r.revision_id) }}
                className="inline-flex h-7 items-center rounded-md border border-line px-2.5 text-xs font-medium hover:bg-surface-2"
                aria-label={`View revision #${r.revision_id}`}
              >
                View
              </Link>
              <RestoreButton orgId={orgId} revision={r} set="previous" label="Restore previous set" />
            </span>
          </>
        )}
        {...cursorListState(query)}
        emptyTitle="No changes recorded yet"
        emptyHint="Changes applied with the bulk editor (replace, clear, restore) appear here with the set before them."
      />
    </>
  );
}

function RevisionDiff({ orgId, from, to }: { orgId: string; from: number; to: number }) {
  const q = useQuery(gitRevisionDiffQueryOptions(orgId, from, to));
  const { byId } = useConnections();
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
        <DiffView diff={q.data.diff} connectionName={(id) => connectionLabel(byId.get(id), id)} />
      )}
    </section>
  );
}

function SetTable({
  items,
  label,
  connectionName,
}: {
  items: GitPermission[];
  label: string;
  connectionName: (id: string) => string;
}) {
  return (
    <CursorList
      ariaLabel={label}
      items={items}
      total={items.length}
      getKey={(p, i) => `${p.git_permission_id}-${i}`}
      columns="minmax(14rem,3fr) minmax(10rem,1.5fr) minmax(6rem,0.8fr)"
      minWidth="36rem"
      estimateSize={36}
      className="h-96"
      header={
        <>
          <span role="columnheader">Matches</span>
          <span role="columnheader">Connection</span>
          <span role="columnheader">Read-only</span>
        </>
      }
      renderRow={(p) => (
        <>
          <span role="cell">
            <MatcherText item={p} />
          </span>
          <span role="cell" className="truncate text-xs">
            {connectionName(p.git_connection_id)}
          </span>
          <span role="cell" className="text-xs">
            {p.read_only ? 'Read-only' : 'Read/write'}
          </span>
        </>
      )}
      hasNextPage={false}
      isFetchingNextPage={false}
      isPending={false}
      error={null}
      fetchNextPage={() => undefined}
      refetch={() => undefined}
      emptyTitle="Empty set"
    />
  );
}

export function GitPermissionRevisionView({ orgId, revisionId }: { orgId: string; revisionId: number }) {
  const q = useQuery(gitRevisionQueryOptions(orgId, revisionId));
  const { byId } = useConnections();
  const [tab, setTab] = useState<'changes' | 'previous' | 'result'>('changes');
  const connectionName = (id: string) => connectionLabel(byId.get(id), id);
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
            <RelativeTime value={r.created_at} /> · {formatNumber(r.previous_count)} →{' '}
            {r.result_count !== null ? formatNumber(r.result_count) : '?'} permissions
            {r.restored_from !== null ? ` · restored from #${r.restored_from}` : ''} ·{' '}
            <Link
              to="/orgs/$orgId/git-permissions/history"
              params={{ orgId }}
              search={{}}
              className="text-accent hover:underline"
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
          </>
        }
      />
      {r.error && (
        <div className="mb-3">
          <ProblemView
            error={new Error(`This change ${r.status === 'partial' ? 'stopped half-way' : 'failed'}: ${r.error}`)}
          />
        </div>
      )}
      <div role="tablist" aria-label="Revision" className="mb-3 flex gap-1 border-b border-line">
        {(
          [
            ['changes', 'Changes'],
            ['previous', `Before (${r.previous.length})`],
            ['result', `After (${r.result?.length ?? '—'})`],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={tab === key}
            disabled={key === 'result' && !r.result}
            onClick={() => setTab(key)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${tab === key ? 'border-accent text-accent' : 'border-transparent text-muted hover:text-fg'}`}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'changes' && diff && <DiffView diff={diff} connectionName={connectionName} />}
        {tab === 'previous' && (
          <SetTable items={r.previous} label="Permissions before the change" connectionName={connectionName} />
        )}
        {tab === 'result' && r.result && (
          <SetTable items={r.result} label="Permissions after the change" connectionName={connectionName} />
        )}
      </div>
    </>
  );
}
