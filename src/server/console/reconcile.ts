/**
 * Reconciliation of guarded changes that did not finish: a revision left `applying` because its console
 * replica was killed, lost its database, or lost its lock between writing upstream and recording.
 *
 * Which revisions are orphans is decidable from the set's lock: every running change holds its set's lock (a
 * lease in PostgreSQL, renewed while it runs; the promise chain in one process) from before it records its
 * revision until after it records the outcome. So once this replica takes a set's lock without waiting, every
 * revision of that set still `applying` belongs to a change that is gone. Its set is then read from the API
 * and compared with the revision's target and previous set:
 *   - the target: `applied` (the write went through, the recording did not);
 *   - the previous set: `failed`, reconciled as `not_applied` (nothing was written);
 *   - neither, but between the two: a per-item change stopped part-way (`partial`, `partly_applied`);
 *   - anything else: the set was changed since by someone else (`failed`, `changed_elsewhere`: what this change
 *     did cannot be told).
 * The set found is kept as the revision's result, so the history shows it and "restore previous" rolls back.
 * Runs at start and every `CONSOLE_RECONCILE_INTERVAL_S` on every replica; a set that is busy is left for the
 * next round.
 */
import { diffIpRanges } from '../../api/console/ip-access-list';
import { diffGitPermissionSets, gitPermissionSetVersion, isEmptyDiff } from '../../api/git-permissions/set-diff';
import {
  GIT_PERMISSION_SET_MAX,
  gitPermissionKey,
  type GitPermission,
  type GitPermissionInput,
} from '../../api/git-permissions/resources';
import type { FinishRevision, ReconciledOutcome, RevisionStore } from './git-permissions/store';
import { ipAccessListVersion } from './ip-access-list';
import { IP_LOCK, type IpAccessListRevisionStore, type IpRevisionOutcome } from './ip-access-list/store';
import type { SetLocks } from './storage/locks';
import type { UpstreamClient } from './upstream-client';

export interface ReconcileDeps {
  store: { gitPermissions: RevisionStore; ipAccessList: IpAccessListRevisionStore; locks: SetLocks };
  upstream: UpstreamClient;
  log?: (line: string) => void;
}

export interface Reconciled {
  set: 'git-permissions' | 'ip-access-list';
  org_id: string | null;
  revision_id: number;
  outcome: ReconciledOutcome;
}

export interface ReconcileReport {
  reconciled: Reconciled[];
  /** Sets left for the next round: their lock is held (a change runs), or the API or store could not answer. */
  deferred: number;
}

export interface Reconciler {
  /** One round over every revision left `applying`. */
  runOnce(): Promise<ReconcileReport>;
  /** A round now, then one every `intervalMs` (each after the previous ended). */
  start(intervalMs: number): void;
  stop(): void;
}

const why =
  'This change was left unfinished (its console replica stopped, or lost its database or its lock while applying it).';

const sameGitSet = (a: readonly GitPermissionInput[], b: readonly GitPermissionInput[]) =>
  a.length === b.length && isEmptyDiff(diffGitPermissionSets(a, b));

const sameIpList = (a: readonly string[], b: readonly string[]) => {
  const d = diffIpRanges(a, b);
  return d.added.length === 0 && d.removed.length === 0;
};

/** A permission's identity and value (its matcher and read_only), to compare sets item by item. */
const itemKey = (p: GitPermissionInput) => `${gitPermissionKey(p)}\u0000${String(p.read_only ?? false)}`;

/**
 * Whether `now` lies between `from` and `to`, as a per-item change stopped part-way leaves a set: every item is
 * one of either set, and every item both sets share is still there.
 */
function between(
  now: readonly GitPermissionInput[],
  from: readonly GitPermissionInput[],
  to: readonly GitPermissionInput[],
) {
  const a = new Set(from.map(itemKey));
  const b = new Set(to.map(itemKey));
  const n = new Set(now.map(itemKey));
  return [...n].every((k) => a.has(k) || b.has(k)) && [...a].every((k) => !b.has(k) || n.has(k));
}

/** What a git-permission revision left `applying` did, judged from the set the API holds now. */
export function judgeGitRevision(
  rev: { previous: GitPermission[]; target?: GitPermissionInput[] | null; method: string; action: string },
  now: GitPermission[],
): FinishRevision & { reconciled_outcome: ReconciledOutcome } {
  const result_version = gitPermissionSetVersion(now);
  if (rev.target && sameGitSet(now, rev.target)) {
    return { status: 'applied', result: now, result_version, reconciled_outcome: 'applied', error: null };
  }
  if (sameGitSet(now, rev.previous)) {
    return {
      status: 'failed',
      result: null,
      result_version: null,
      reconciled_outcome: 'not_applied',
      error: `Not applied. ${why} The API's set is still the one before it.`,
    };
  }
  if (rev.method === 'per_item' && rev.action !== 'update' && rev.target && between(now, rev.previous, rev.target)) {
    return {
      status: 'partial',
      result: now,
      result_version,
      reconciled_outcome: 'partly_applied',
      error: `Partly applied. ${why} The API's set is now between the one before it and the one it aimed at: restore the previous set to roll back, or apply the change again to finish it.`,
    };
  }
  return {
    status: 'failed',
    result: now,
    result_version,
    reconciled_outcome: 'changed_elsewhere',
    error: `${why} The API's set now matches neither the set before it nor the one it aimed at (it was changed since), so what it did cannot be told; its result is the set found.`,
  };
}

/** The same for an IP access list revision (one atomic write: applied, not applied, or changed since). */
export function judgeIpRevision(
  rev: { previous: string[]; target?: string[] | null },
  now: string[],
): IpRevisionOutcome & { reconciled_outcome: ReconciledOutcome } {
  const result_version = ipAccessListVersion(now);
  if (rev.target && sameIpList(now, rev.target)) {
    const d = diffIpRanges(rev.previous, now);
    return {
      status: 'applied',
      result: now,
      result_version,
      added: d.added,
      removed: d.removed,
      reconciled_outcome: 'applied',
      error: null,
    };
  }
  if (sameIpList(now, rev.previous)) {
    return {
      status: 'failed',
      result: null,
      result_version: null,
      reconciled_outcome: 'not_applied',
      error: `Not applied. ${why} The API's list is still the one before it.`,
    };
  }
  return {
    status: 'failed',
    result: now,
    result_version,
    reconciled_outcome: 'changed_elsewhere',
    error: `${why} The API's list now matches neither the list before it nor the one it aimed at (it was changed since), so what it did cannot be told; its result is the list found.`,
  };
}

export function createReconciler(deps: ReconcileDeps): Reconciler {
  const { store, upstream } = deps;
  const log = deps.log ?? ((line: string) => console.warn(line));
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<ReconcileReport> | undefined;

  async function gitRound(report: ReconcileReport) {
    const orgs = [...new Set((await store.gitPermissions.applying()).map((r) => r.org_id))];
    for (const org of orgs) {
      if (stopped) return;
      try {
        const r = await store.locks.tryRun('git-permissions', org, async () => {
          // Under the set's lock: whatever is still `applying` here belongs to a change that is gone.
          const ids = (await store.gitPermissions.applying()).filter((x) => x.org_id === org);
          if (ids.length === 0) return;
          const now = (await upstream.all('gitPermissions.list', {
            params: { org_id: org },
            maxItems: GIT_PERMISSION_SET_MAX,
          })) as GitPermission[];
          for (const { revision_id } of ids) {
            const rev = await store.gitPermissions.get(org, revision_id);
            if (!rev || rev.status !== 'applying') continue;
            const outcome = judgeGitRevision(rev as typeof rev & { target?: GitPermissionInput[] | null }, now);
            await store.gitPermissions.finish(org, revision_id, outcome);
            report.reconciled.push({
              set: 'git-permissions',
              org_id: org,
              revision_id,
              outcome: outcome.reconciled_outcome,
            });
            log(
              `[console] reconciled git-permission revision ${revision_id} of ${org} left applying: ${outcome.reconciled_outcome.replace('_', ' ')}`,
            );
          }
        });
        if (!r.ran) report.deferred++;
      } catch (err) {
        report.deferred++;
        log(
          `[console] reconciling the git permissions of ${org} is deferred: ${err instanceof Error ? err.message : 'unknown error'}`,
        );
      }
    }
  }

  async function ipRound(report: ReconcileReport) {
    if ((await store.ipAccessList.applying()).length === 0 || stopped) return;
    try {
      const r = await store.locks.tryRun(IP_LOCK[0], IP_LOCK[1], async () => {
        const ids = await store.ipAccessList.applying();
        if (ids.length === 0) return;
        const now = (await upstream.call('ipAccessList.get', {})).ip_ranges;
        for (const { revision_id } of ids) {
          const rev = await store.ipAccessList.get(revision_id);
          if (!rev || rev.status !== 'applying') continue;
          const outcome = judgeIpRevision(rev as typeof rev & { target?: string[] | null }, now);
          await store.ipAccessList.finish(revision_id, outcome);
          report.reconciled.push({
            set: 'ip-access-list',
            org_id: null,
            revision_id,
            outcome: outcome.reconciled_outcome,
          });
          log(
            `[console] reconciled IP access list revision ${revision_id} left applying: ${outcome.reconciled_outcome.replace('_', ' ')}`,
          );
        }
      });
      if (!r.ran) report.deferred++;
    } catch (err) {
      report.deferred++;
      log(
        `[console] reconciling the IP access list is deferred: ${err instanceof Error ? err.message : 'unknown error'}`,
      );
    }
  }

  async function round(): Promise<ReconcileReport> {
    const report: ReconcileReport = { reconciled: [], deferred: 0 };
    try {
      await gitRound(report);
      await ipRound(report);
    } catch {
      // The store could not list the candidates (it is unreachable): the next round tries again.
      report.deferred++;
    }
    return report;
  }

  const runOnce = () => {
    // One round at a time per replica: a round asked for during another waits for it, then runs.
    const next = (running ?? Promise.resolve()).catch(() => undefined).then(round);
    running = next;
    return next;
  };

  return {
    runOnce,
    start(intervalMs) {
      stopped = false;
      const tick = () => {
        void runOnce().finally(() => {
          if (stopped) return;
          timer = setTimeout(tick, intervalMs);
          timer.unref();
        });
      };
      tick();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
