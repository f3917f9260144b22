/**
 * The one lock helper every git-permission change goes through: under the organization's lock (the store's
 * SetLocks: in this process, and with PostgreSQL across every replica by a lease with a fencing token) it reads
 * the complete current set, lets the change decide what to do with it, stores the previous set as a revision
 * before anything is written upstream, runs the writes (each preceded by a fence check), and records how the
 * change ended. A change that lost its lock stops (503) before writing, and says how far it got.
 */
import { gitPermissionSetVersion } from '../../../api/git-permissions/set-diff';
import { GIT_PERMISSION_SET_MAX, type GitPermission } from '../../../api/git-permissions/resources';
import type { ConsoleGitPermissionSet, GitPermissionRevisionSummary } from '../../../api/console/git-permissions';
import { HttpProblem } from '../../../node/problem-writer';
import type { Redactor } from '../../redact';
import { LockLost, notAppliedForStore, type Fence, type SetLocks } from '../storage/locks';
import { StoreUnavailable } from '../storage/postgres';
import type { UpstreamClient } from '../upstream-client';
import type { BeginRevision, FinishRevision, RevisionStore } from './store';

export interface GitPermissionDeps {
  upstream: UpstreamClient;
  /** The console's own store: the history of changes and the per-organization locks. */
  store: { gitPermissions: RevisionStore; locks: SetLocks };
  redactor: Redactor;
  /** How long recording a change's outcome is retried while the store cannot be reached (default 10 s). */
  recordRetryMs?: number;
}

/** The complete current set, every page (at most GIT_PERMISSION_SET_MAX), stopping if the browser goes away. */
export async function readCurrent(
  upstream: UpstreamClient,
  orgId: string,
  signal?: AbortSignal,
): Promise<GitPermission[]> {
  return (await upstream.all('gitPermissions.list', {
    params: { org_id: orgId },
    maxItems: GIT_PERMISSION_SET_MAX,
    signal,
  })) as GitPermission[];
}

/** A set as the console answers it: the items, their version token and count. */
export const setAnswer = (orgId: string, items: GitPermission[]): ConsoleGitPermissionSet => ({
  org_id: orgId,
  items,
  version: gitPermissionSetVersion(items),
  count: items.length,
});

/** What a change answers: the set, and the revision that recorded it (null when nothing changed). */
export type ChangeAnswer = ConsoleGitPermissionSet & {
  revision: GitPermissionRevisionSummary | null;
  unchanged: boolean;
  recorded?: false;
  warning?: string;
};

/** How far the writes of a change got; `done` is counted by the change's `apply`. */
export interface WriteProgress {
  done: number;
}

/** What a change decided, given the current set: nothing to do, or a revision to begin and its writes. */
export type ChangePlan =
  | { unchanged: true }
  | {
      /** The revision's row, less what the helper fills (organization, previous set and version). */
      revision: Omit<BeginRevision, 'org_id' | 'previous' | 'previous_version'>;
      /** How many upstream operations the writes take (for a part-way stop's message). */
      total: number;
      /** The writes, each after `fence.check()`; answers the set they produced. */
      apply(fence: Fence, progress: WriteProgress): Promise<GitPermission[]>;
    };

export interface GitPermissionLock {
  /**
   * Runs one change to `orgId`'s set under its lock: `plan` sees the complete current set (and may throw a
   * problem, a 409 for a stale edit) and says what to write.
   */
  change(
    orgId: string,
    signal: AbortSignal | undefined,
    plan: (current: GitPermission[], currentVersion: string) => ChangePlan,
  ): Promise<ChangeAnswer>;
}

/** The 503 of a change that lost its lock: what it did (nothing, or how far it got), never a silent pass. */
function lockLostProblem(err: LockLost, revisionId: number, done: number, total: number): HttpProblem {
  const how =
    done === 0
      ? 'Nothing was applied'
      : `It stopped part-way: ${done} of ${total} operations were applied; revision ${revisionId} is reconciled with the API once the set is free, and the history then says what the set holds`;
  return new HttpProblem(
    503,
    `The change was stopped before writing because ${err.message}. ${how}. Reload the set and apply again if it is still needed.`,
    {
      title: 'Service Unavailable',
      reason: 'lock_lost',
      applied: done === 0 ? 'none' : 'partly',
      operations_applied: done,
      operations_planned: total,
      revision_id: revisionId,
    },
    { 'retry-after': '5' },
  );
}

export function gitPermissionLock(deps: GitPermissionDeps): GitPermissionLock {
  const store = deps.store.gitPermissions;
  const { upstream, redactor } = deps;
  const recordRetryMs = deps.recordRetryMs ?? 10_000;

  /**
   * Records how a change ended, after proving the set's lock is still held (the fence). A database that
   * cannot be reached is tried again for a while (the fence keeps the lock meanwhile); a lock that was lost
   * is never written over. Answers whether it was recorded: when not, the revision stays `applying` and
   * reconciliation closes it once no change holds the set.
   */
  async function record(orgId: string, id: number, outcome: FinishRevision, fence: Fence): Promise<boolean> {
    const deadline = Date.now() + recordRetryMs;
    for (;;) {
      try {
        await fence.check();
        await store.finish(orgId, id, outcome);
        return true;
      } catch (err) {
        const retry =
          err instanceof StoreUnavailable || (err instanceof LockLost && err.reason === 'store_unavailable');
        if (!retry || Date.now() + 250 > deadline) {
          console.error(
            `[console] recording git-permission revision ${id} failed: ${err instanceof Error ? err.message : 'unknown error'}; reconciliation will close it`,
          );
          return false;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /**
   * Records a change as applied with the set it produced, and answers that set with the revision. The change
   * was applied (every write ran under the lock): that is answered even when it could not be recorded.
   */
  async function recordApplied(orgId: string, revisionId: number, result: GitPermission[], fence: Fence) {
    const answer = setAnswer(orgId, result);
    const recorded = await record(
      orgId,
      revisionId,
      { status: 'applied', result, result_version: answer.version },
      fence,
    );
    if (!recorded) {
      return {
        ...answer,
        revision: null,
        unchanged: false,
        recorded: false as const,
        warning: `The change was applied, but the console could not record it in the history yet (its store cannot be reached). Revision ${revisionId} shows it as applying until the console reconciles it with the API.`,
      };
    }
    return { ...answer, revision: await store.summary(orgId, revisionId).catch(() => null), unchanged: false };
  }

  /**
   * Records a change whose writes threw, and answers the error to throw: a lost lock becomes its 503 (a change
   * that wrote nothing says so on its own revision at once, without the fence: nothing it wrote can be
   * overwritten by this; part-way, the set is another change's now, so reconciliation tells what it holds);
   * any other error is recorded as failed, or partial with what the set holds now.
   */
  async function recordFailure(
    orgId: string,
    id: number,
    err: unknown,
    fence: Fence,
    done: number,
    total: number,
  ): Promise<unknown> {
    if (err instanceof LockLost) {
      if (done === 0) {
        await store
          .finish(orgId, id, {
            status: 'failed',
            result: null,
            result_version: null,
            error: `Not applied: ${err.message}`,
          })
          .catch(() => undefined);
      }
      return lockLostProblem(err, id, done, total);
    }
    // Stored and served again by the history: never with the credential in it.
    const message = redactor.redact(err instanceof Error ? err.message : 'unknown error');
    if (done > 0) {
      // A per-item apply stopped half-way: record what the set is now, so nothing is lost from view.
      const now = await readCurrent(upstream, orgId).catch(() => null);
      const result_version = now ? gitPermissionSetVersion(now) : null;
      await record(orgId, id, { status: 'partial', result: now, result_version, error: message }, fence);
    } else {
      await record(orgId, id, { status: 'failed', result: null, result_version: null, error: message }, fence);
    }
    return err;
  }

  /** Runs changes to one organization one after another, across every replica sharing the store. */
  const serialized = <T>(orgId: string, work: (fence: Fence) => Promise<T>): Promise<T> =>
    deps.store.locks.run('git-permissions', orgId, work).catch((err: unknown) => {
      throw err instanceof StoreUnavailable ? notAppliedForStore(err) : err;
    });

  return {
    change: (orgId, signal, plan) =>
      serialized(orgId, async (fence) => {
        // 1. The complete current set, every page; 2. the change's own checks against it.
        const current = await readCurrent(upstream, orgId, signal);
        const currentVersion = gitPermissionSetVersion(current);
        const decided = plan(current, currentVersion);
        if ('unchanged' in decided) return { ...setAnswer(orgId, current), revision: null, unchanged: true };
        // 3. The previous set is stored before anything changes upstream.
        const id = await store.begin({
          ...decided.revision,
          org_id: orgId,
          previous: current,
          previous_version: currentVersion,
        });
        // 4. Apply: every upstream write is preceded by a fence check, so a change that lost its lock writes
        // nothing more.
        const progress: WriteProgress = { done: 0 };
        let result: GitPermission[];
        try {
          result = await decided.apply(fence, progress);
        } catch (err) {
          throw await recordFailure(orgId, id, err, fence, progress.done, decided.total);
        }
        // 5. Record the result.
        return recordApplied(orgId, id, result, fence);
      }),
  };
}
