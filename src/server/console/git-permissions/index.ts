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
 * that lost it stops (503) before writing. A single permission's read-only toggle goes through the same lock,
 * version check and history (PATCH .../permissions/{id}).
 *
 * Steps 1, 3 and 5 and the lock are `lock.ts`'s (one helper for every change); a whole set's checks and writes
 * are `set-change.ts`'s; here is one handler per operation.
 */
import { diffGitPermissionSets } from '../../../api/git-permissions/set-diff';
import type { GitPermission } from '../../../api/git-permissions/resources';
import { HttpProblem } from '../../../node/problem-writer';
import { actorOf } from '../actor';
import type { ConsoleHandler, ConsoleHandlers } from '../mount';
import { gitPermissionLock, readCurrent, setAnswer, type GitPermissionDeps, type GitPermissionLock } from './lock';
import { applyChange, conflict, toInput } from './set-change';
import type { RevisionStore } from './store';

export type { GitPermissionDeps } from './lock';

const revisionOf = async (store: RevisionStore, orgId: string, revisionId: number) => {
  const rev = await store.get(orgId, revisionId);
  if (!rev) throw new HttpProblem(404, `Revision ${revisionId} was not found in this organization's history`);
  return rev;
};

/** One permission's read_only, under the same lock, version check and history as a replace. */
function updateHandler(
  lock: GitPermissionLock,
  deps: GitPermissionDeps,
): ConsoleHandler<'console.gitPermissions.update'> {
  return async ({ params, body, signal, c }) => {
    const { org_id: orgId, git_permission_id: permissionId } = params;
    let before: GitPermission | undefined;
    let updated: GitPermission | undefined;
    const answer = await lock.change(orgId, signal, (current, currentVersion) => {
      if (body.base_version !== undefined && body.base_version !== currentVersion) {
        throw conflict(body.base_version, current);
      }
      before = current.find((p) => p.git_permission_id === permissionId);
      if (!before) {
        throw new HttpProblem(404, `Git permission ${permissionId} was not found in this organization's set`);
      }
      if ((before.read_only ?? false) === body.read_only) return { unchanged: true };
      return {
        revision: {
          action: 'update',
          method: 'per_item',
          restored_from: null,
          added: 0,
          removed: 0,
          changed: 1,
          target: current.map((p) =>
            toInput(p.git_permission_id === permissionId ? { ...p, read_only: body.read_only } : p),
          ),
          ...actorOf(c),
        },
        total: 1,
        apply: async (fence) => {
          await fence.check();
          const changed = await deps.upstream.call('gitPermissions.update', {
            params: { org_id: orgId, git_permission_id: permissionId },
            body: { read_only: body.read_only },
          });
          updated = changed;
          return current.map((p) => (p.git_permission_id === permissionId ? { ...p, ...changed } : p));
        },
      };
    });
    return { ...answer, permission: (updated ?? before)! };
  };
}

/** Restores a revision's previous set, or the set it produced, as a new change (with its own revision). */
function restoreHandler(
  lock: GitPermissionLock,
  deps: GitPermissionDeps,
): ConsoleHandler<'console.gitPermissions.revisions.restore'> {
  return async ({ params, body, c }) => {
    const rev = await revisionOf(deps.store.gitPermissions, params.org_id, params.revision_id);
    const set = body.set === 'result' ? rev.result : rev.previous;
    if (!set) {
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
    }
    return applyChange(lock, deps.upstream, {
      orgId: params.org_id,
      action: 'restore',
      base_version: body.base_version,
      base: body.base,
      desired: set,
      allowPerItem: body.allow_per_item === true,
      restoredFrom: rev.revision_id,
      by: actorOf(c),
    });
  };
}

/** The history's page: revisions newest first, the cursor the last one's number. */
function revisionsListHandler(store: RevisionStore): ConsoleHandler<'console.gitPermissions.revisions.list'> {
  return async ({ params, query }) => {
    const page = await store.list(params.org_id, { first: query.first, after: query.after });
    const last = page.items[page.items.length - 1];
    return {
      items: page.items,
      total: page.total,
      has_next_page: page.has_next_page,
      end_cursor: page.has_next_page && last ? String(last.revision_id) : null,
    };
  };
}

/** Two revisions side by side: each stands for the set it produced (its previous set when it did not complete). */
function revisionsDiffHandler(store: RevisionStore): ConsoleHandler<'console.gitPermissions.revisions.diff'> {
  return async ({ params, query }) => {
    const from = await revisionOf(store, params.org_id, query.from);
    const to = await revisionOf(store, params.org_id, query.to);
    const setOf = (r: typeof from) => r.result ?? r.previous;
    const { previous: _p, result: _r, ...fromSummary } = from;
    const { previous: _p2, result: _r2, ...toSummary } = to;
    return { from: fromSummary, to: toSummary, diff: diffGitPermissionSets(setOf(from), setOf(to)) };
  };
}

/** The handlers of the console's git-permission operations (`console.gitPermissions.*`). */
export function gitPermissionHandlers(deps: GitPermissionDeps): ConsoleHandlers {
  const store = deps.store.gitPermissions;
  const { upstream } = deps;
  const lock = gitPermissionLock(deps);
  return {
    'console.gitPermissions.get': async ({ params, signal }) =>
      setAnswer(params.org_id, await readCurrent(upstream, params.org_id, signal)),
    'console.gitPermissions.replace': ({ params, body, signal, c }) =>
      applyChange(lock, upstream, {
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
      applyChange(lock, upstream, {
        orgId: params.org_id,
        action: 'clear',
        base_version: body.base_version,
        base: body.base,
        desired: null,
        allowPerItem: false,
        restoredFrom: null,
        by: actorOf(c),
      }),
    'console.gitPermissions.update': updateHandler(lock, deps),
    'console.gitPermissions.revisions.list': revisionsListHandler(store),
    'console.gitPermissions.revisions.diff': revisionsDiffHandler(store),
    'console.gitPermissions.revisions.get': ({ params }) => revisionOf(store, params.org_id, params.revision_id),
    'console.gitPermissions.revisions.restore': restoreHandler(lock, deps),
  };
}
