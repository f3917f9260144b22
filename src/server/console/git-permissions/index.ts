/**
 * Safe bulk editing of an organization's git permissions (`/console/git-permissions/orgs/{org_id}/...`).
 *
 * The API's replace (PUT) swaps the whole set, so a replace built from one page, or from a set another admin
 * changed meanwhile, silently deletes permissions. Replace, clear and restore therefore go through here:
 *   1. read the complete current set, every page;
 *   2. compare its version token with the one the admin's edit started from — 409 with the difference if not;
 *   3. store the current set as the revision's previous set (before anything is written upstream), with who
 *      makes the change (the signed-in person, or how it is made: `../actor.ts`);
 *   4. apply upstream: one atomic PUT (≤ 200 items), DELETE for a clear, or — only when the request allows
 *      it — per-item operations (delete, update, add) for a set larger than one PUT accepts;
 *   5. record the result (or the failure) on the revision.
 * Changes to one organization are serialized (the store's SetLocks: in this process, and with PostgreSQL across
 * every replica by a lease with a fencing token), so two console users cannot interleave steps 1–5 whichever
 * replica answers them; each upstream write and the recording first prove the lease is still held, and a change
 * that lost it stops (503) before writing. A single permission's read-only toggle goes through the same lock, version check and history
 * (PATCH .../permissions/{id}).
 */
import {
  diffGitPermissionSets,
  gitPermissionSetVersion,
  isEmptyDiff,
  normalizeGitPermission,
} from '../../../api/git-permissions/set-diff';
import {
  GIT_PERMISSION_SET_MAX,
  GIT_PERMISSIONS_MAX_PER_REQUEST,
  type GitPermission,
  type GitPermissionInput,
} from '../../../api/git-permissions/resources';
import type { ConsoleGitPermissionSet, GitRevisionAction } from '../../../api/console/git-permissions';
import type { MadeBy } from '../../../api/console/session';
import { actorOf } from '../actor';
import type { Redactor } from '../../redact';
import type { ConsoleHandler, ConsoleHandlers } from '../mount';
import { HttpProblem } from '../../../node/problem-writer';
import type { UpstreamClient } from '../upstream-client';
import { LockLost, notAppliedForStore, type Fence, type SetLocks } from '../storage/locks';
import { StoreUnavailable } from '../storage/postgres';
import type { FinishRevision, RevisionStore } from './store';

/** A permission as a replace or add request carries it. */
const toInput = (p: GitPermissionInput): GitPermissionInput => normalizeGitPermission(p);

/** The complete current set, every page (at most GIT_PERMISSION_SET_MAX), stopping if the browser goes away. */
async function readCurrent(upstream: UpstreamClient, orgId: string, signal?: AbortSignal): Promise<GitPermission[]> {
  return (await upstream.all('gitPermissions.list', {
    params: { org_id: orgId },
    maxItems: GIT_PERMISSION_SET_MAX,
    signal,
  })) as GitPermission[];
}

export interface GitPermissionDeps {
  upstream: UpstreamClient;
  /** The console's own store: the history of changes and the per-organization locks. */
  store: { gitPermissions: RevisionStore; locks: SetLocks };
  redactor: Redactor;
  /** How long recording a change's outcome is retried while the store cannot be reached (default 10 s). */
  recordRetryMs?: number;
}

/** The handlers of the console's git-permission operations (`console.gitPermissions.*`). */
export function gitPermissionHandlers(deps: GitPermissionDeps): ConsoleHandlers {
  const store = deps.store.gitPermissions;
  const { upstream, redactor } = deps;
  const recordRetryMs = deps.recordRetryMs ?? 10_000;

  /** A set as the console answers it: the items, their version token and count. */
  const setAnswer = (orgId: string, items: GitPermission[]): ConsoleGitPermissionSet => ({
    org_id: orgId,
    items,
    version: gitPermissionSetVersion(items),
    count: items.length,
  });

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
        recorded: false,
        warning: `The change was applied, but the console could not record it in the history yet (its store cannot be reached). Revision ${revisionId} shows it as applying until the console reconciles it with the API.`,
      };
    }
    return { ...answer, revision: await store.summary(orgId, revisionId).catch(() => null), unchanged: false };
  }

  /**
   * A change that lost its lock before writing anything: its own revision says so, once, without the fence
   * (nothing it wrote can be overwritten by this). If the store cannot take it, reconciliation will.
   */
  const recordNotApplied = (orgId: string, id: number, err: LockLost) =>
    store
      .finish(orgId, id, { status: 'failed', result: null, result_version: null, error: `Not applied: ${err.message}` })
      .catch(() => undefined);

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

  /** Runs changes to one organization one after another, across every replica sharing the store. */
  const serialized = <T>(orgId: string, work: (fence: Fence) => Promise<T>): Promise<T> =>
    deps.store.locks.run('git-permissions', orgId, work).catch((err: unknown) => {
      throw err instanceof StoreUnavailable ? notAppliedForStore(err) : err;
    });

  interface ChangeRequest {
    orgId: string;
    action: GitRevisionAction;
    base_version: string;
    base?: GitPermissionInput[];
    /** The set wanted after the change; null clears. */
    desired: GitPermissionInput[] | null;
    allowPerItem: boolean;
    restoredFrom: number | null;
    /** Who makes the change (a restore: who restores), recorded on the revision. */
    by: MadeBy;
    /** Aborted when the browser goes away: stops reading the current set (never an apply under way). */
    signal?: AbortSignal;
  }

  function conflict(baseVersion: string, current: GitPermission[], base?: GitPermissionInput[]): HttpProblem {
    const currentVersion = gitPermissionSetVersion(current);
    const changes = base ? diffGitPermissionSets(base.map(toInput), current) : null;
    const what = changes
      ? `${changes.added.length} added, ${changes.removed.length} removed, ${changes.changed.length} changed`
      : 'the set differs';
    return new HttpProblem(
      409,
      `The git permissions of this organization changed since the edit started (${what}). Nothing was applied.`,
      { base_version: baseVersion, current_version: currentVersion, current, changes },
    );
  }

  async function applyChange(req: ChangeRequest) {
    const { orgId } = req;
    if (req.base && gitPermissionSetVersion(req.base) !== req.base_version) {
      throw new HttpProblem(422, 'base does not match base_version: send the set the edit started from, unchanged', {
        errors: [{ loc: ['body', 'base'], msg: 'base does not match base_version', type: 'base_mismatch' }],
      });
    }
    const desired = req.desired?.map(toInput) ?? null;
    const tooLarge = desired !== null && desired.length > GIT_PERMISSIONS_MAX_PER_REQUEST;
    if (tooLarge && !req.allowPerItem) {
      throw new HttpProblem(
        422,
        `This set has ${desired.length} permissions; one replace takes at most ${GIT_PERMISSIONS_MAX_PER_REQUEST}. Apply it with per-item operations (allow_per_item: true; not atomic) or make it smaller.`,
        {
          errors: [
            {
              loc: ['body', 'permissions'],
              msg: `At most ${GIT_PERMISSIONS_MAX_PER_REQUEST} permissions per replace; this set has ${desired.length}`,
              type: 'too_big',
            },
          ],
        },
      );
    }
    return serialized(orgId, async (fence) => {
      // 1. The complete current set, every page.
      const current = await readCurrent(upstream, orgId, req.signal);
      const currentVersion = gitPermissionSetVersion(current);
      // 2. The conflict check.
      if (currentVersion !== req.base_version) throw conflict(req.base_version, current, req.base);
      const target = desired ?? [];
      const diff = diffGitPermissionSets(current, target);
      // Clearing an empty set, or replacing a set with itself, changes nothing: no revision, no API call.
      if (
        (desired === null && current.length === 0) ||
        (desired !== null && isEmptyDiff(diff) && current.length === target.length)
      ) {
        return { ...setAnswer(orgId, current), revision: null, unchanged: true };
      }
      const method = desired === null ? 'clear' : tooLarge ? 'per_item' : 'replace';
      // 3. The previous set is stored before anything changes upstream.
      const id = await store.begin({
        org_id: orgId,
        action: req.action,
        method,
        restored_from: req.restoredFrom,
        previous: current,
        previous_version: currentVersion,
        added: diff.added.length,
        removed: diff.removed.length,
        changed: diff.changed.length,
        target,
        ...req.by,
      });
      // Every upstream write is preceded by a fence check: a change that lost its lock writes nothing more.
      let done = 0;
      const total =
        method === 'per_item'
          ? diff.removed.length + diff.changed.length + Math.ceil(diff.added.length / GIT_PERMISSIONS_MAX_PER_REQUEST)
          : 1;
      let result: GitPermission[];
      try {
        // 4. Apply.
        if (method === 'clear') {
          await fence.check();
          await upstream.call('gitPermissions.clear', { params: { org_id: orgId } });
          result = [];
        } else if (method === 'replace') {
          await fence.check();
          result = (await upstream.call('gitPermissions.replace', {
            params: { org_id: orgId },
            body: { permissions: target },
          })) as GitPermission[];
        } else {
          for (const p of diff.removed) {
            await fence.check();
            await upstream.call('gitPermissions.delete', {
              params: { org_id: orgId, git_permission_id: (p as GitPermission).git_permission_id },
            });
            done++;
          }
          for (const ch of diff.changed) {
            await fence.check();
            await upstream.call('gitPermissions.update', {
              params: { org_id: orgId, git_permission_id: (ch.before as GitPermission).git_permission_id },
              body: { read_only: ch.after.read_only ?? false },
            });
            done++;
          }
          for (let i = 0; i < diff.added.length; i += GIT_PERMISSIONS_MAX_PER_REQUEST) {
            await fence.check();
            await upstream.call('gitPermissions.create', {
              params: { org_id: orgId },
              body: { permissions: diff.added.slice(i, i + GIT_PERMISSIONS_MAX_PER_REQUEST) },
            });
            done++;
          }
          result = await readCurrent(upstream, orgId);
        }
      } catch (err) {
        if (err instanceof LockLost) {
          // Nothing written: the revision says so at once (it is this change's own row). Part-way: the set is
          // another change's now, so reconciliation tells what it holds once that one is done.
          if (done === 0) await recordNotApplied(orgId, id, err);
          throw lockLostProblem(err, id, done, total);
        }
        // Stored and served again by the history: never with the credential in it.
        const message = redactor.redact(err instanceof Error ? err.message : 'unknown error');
        if (done > 0) {
          // Per-item apply stopped half-way: record what the set is now, so nothing is lost from view.
          const now = await readCurrent(upstream, orgId).catch(() => null);
          await record(
            orgId,
            id,
            {
              status: 'partial',
              result: now,
              result_version: now ? gitPermissionSetVersion(now) : null,
              error: message,
            },
            fence,
          );
        } else {
          await record(orgId, id, { status: 'failed', result: null, result_version: null, error: message }, fence);
        }
        throw err;
      }
      // 5. Record the result.
      return recordApplied(orgId, id, result, fence);
    });
  }

  const revisionOf = async (orgId: string, revisionId: number) => {
    const rev = await store.get(orgId, revisionId);
    if (!rev) throw new HttpProblem(404, `Revision ${revisionId} was not found in this organization's history`);
    return rev;
  };

  // One permission's read_only, under the same lock, version check and history as a replace.
  const update: ConsoleHandler<'console.gitPermissions.update'> = ({ params, body, signal, c }) => {
    const { org_id: orgId, git_permission_id: permissionId } = params;
    return serialized(orgId, async (fence) => {
      const current = await readCurrent(upstream, orgId, signal);
      const currentVersion = gitPermissionSetVersion(current);
      if (body.base_version !== undefined && body.base_version !== currentVersion) {
        throw conflict(body.base_version, current);
      }
      const before = current.find((p) => p.git_permission_id === permissionId);
      if (!before) {
        throw new HttpProblem(404, `Git permission ${permissionId} was not found in this organization's set`);
      }
      if ((before.read_only ?? false) === body.read_only) {
        return { ...setAnswer(orgId, current), revision: null, unchanged: true, permission: before };
      }
      const id = await store.begin({
        org_id: orgId,
        action: 'update',
        method: 'per_item',
        restored_from: null,
        previous: current,
        previous_version: currentVersion,
        added: 0,
        removed: 0,
        changed: 1,
        target: current.map((p) =>
          toInput(p.git_permission_id === permissionId ? { ...p, read_only: body.read_only } : p),
        ),
        ...actorOf(c),
      });
      let updated: Awaited<ReturnType<typeof upstream.call<'gitPermissions.update'>>>;
      try {
        await fence.check();
        updated = await upstream.call('gitPermissions.update', {
          params: { org_id: orgId, git_permission_id: permissionId },
          body: { read_only: body.read_only },
        });
      } catch (err) {
        if (err instanceof LockLost) {
          await recordNotApplied(orgId, id, err);
          throw lockLostProblem(err, id, 0, 1);
        }
        const message = redactor.redact(err instanceof Error ? err.message : 'unknown error');
        await record(orgId, id, { status: 'failed', result: null, result_version: null, error: message }, fence);
        throw err;
      }
      const result = current.map((p) => (p.git_permission_id === permissionId ? { ...p, ...updated } : p));
      return { ...(await recordApplied(orgId, id, result, fence)), permission: updated };
    });
  };

  return {
    'console.gitPermissions.get': async ({ params, signal }) => {
      return setAnswer(params.org_id, await readCurrent(upstream, params.org_id, signal));
    },
    'console.gitPermissions.replace': ({ params, body, signal, c }) =>
      applyChange({
        orgId: params.org_id,
        action: 'replace',
        base_version: body.base_version,
        base: body.base,
        desired: body.permissions,
        allowPerItem: body.allow_per_item === true,
        restoredFrom: null,
        by: actorOf(c),
        signal,
      }),
    'console.gitPermissions.clear': ({ params, body, c }) =>
      applyChange({
        orgId: params.org_id,
        action: 'clear',
        base_version: body.base_version,
        base: body.base,
        desired: null,
        allowPerItem: false,
        restoredFrom: null,
        by: actorOf(c),
      }),
    'console.gitPermissions.update': update,
    'console.gitPermissions.revisions.list': async ({ params, query }) => {
      const page = await store.list(params.org_id, { first: query.first, after: query.after });
      const last = page.items[page.items.length - 1];
      return {
        items: page.items,
        total: page.total,
        has_next_page: page.has_next_page,
        end_cursor: page.has_next_page && last ? String(last.revision_id) : null,
      };
    },
    'console.gitPermissions.revisions.diff': async ({ params, query }) => {
      const from = await revisionOf(params.org_id, query.from);
      const to = await revisionOf(params.org_id, query.to);
      // Each revision stands for the set it produced (its previous set when it did not complete).
      const setOf = (r: typeof from) => r.result ?? r.previous;
      const { previous: _p, result: _r, ...fromSummary } = from;
      const { previous: _p2, result: _r2, ...toSummary } = to;
      return { from: fromSummary, to: toSummary, diff: diffGitPermissionSets(setOf(from), setOf(to)) };
    },
    'console.gitPermissions.revisions.get': ({ params }) => revisionOf(params.org_id, params.revision_id),
    'console.gitPermissions.revisions.restore': async ({ params, body, c }) => {
      const rev = await revisionOf(params.org_id, params.revision_id);
      const set = body.set === 'result' ? rev.result : rev.previous;
      if (!set)
        throw new HttpProblem(
          422,
          `Revision ${rev.revision_id} has no resulting set to restore (it ${rev.status === 'failed' ? 'failed' : 'did not complete'})`,
          {
            errors: [
              {
                loc: ['body', 'set'],
                msg: 'This revision has no result; restore its previous set instead',
                type: 'no_result',
              },
            ],
          },
        );
      return applyChange({
        orgId: params.org_id,
        action: 'restore',
        base_version: body.base_version,
        base: body.base,
        desired: set,
        allowPerItem: body.allow_per_item === true,
        restoredFrom: rev.revision_id,
        by: actorOf(c),
      });
    },
  };
}
