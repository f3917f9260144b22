/**
 * A change to a whole git-permission set (replace, clear, restore), through the lock helper (`lock.ts`): the
 * request's own checks (base against its version, a set larger than one replace takes), the conflict check
 * against the complete current set, and the writes: one atomic PUT (≤ 200 items), DELETE for a clear, or, only
 * when the request allows it, per-item operations (delete, update, add) for a larger set.
 */
import {
  diffGitPermissionSets,
  gitPermissionSetVersion,
  isEmptyDiff,
  normalizeGitPermission,
  type GitPermissionDiff,
} from '../../../api/git-permissions/set-diff';
import {
  GIT_PERMISSIONS_MAX_PER_REQUEST,
  type GitPermission,
  type GitPermissionInput,
} from '../../../api/git-permissions/resources';
import type { GitRevisionAction } from '../../../api/console/git-permissions';
import type { MadeBy } from '../../../api/console/session';
import { HttpProblem } from '../../../node/problem-writer';
import type { Fence } from '../storage/locks';
import type { UpstreamClient } from '../upstream-client';
import { readCurrent, type ChangeAnswer, type GitPermissionLock, type WriteProgress } from './lock';

/** A permission as a replace or add request carries it. */
export const toInput = (p: GitPermissionInput): GitPermissionInput => normalizeGitPermission(p);

export interface ChangeRequest {
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

/** The 409 of an edit that started from another set: what changed since, and the set as it is now. */
export function conflict(baseVersion: string, current: GitPermission[], base?: GitPermissionInput[]): HttpProblem {
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

/** The checks a request passes before the lock is taken: its base is what it says, its size fits its method. */
function checkRequest(req: ChangeRequest, desired: GitPermissionInput[] | null, tooLarge: boolean): void {
  if (req.base && gitPermissionSetVersion(req.base) !== req.base_version) {
    throw new HttpProblem(422, 'base does not match base_version: send the set the edit started from, unchanged', {
      errors: [{ loc: ['body', 'base'], msg: 'base does not match base_version', type: 'base_mismatch' }],
    });
  }
  if (desired && tooLarge && !req.allowPerItem) {
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
}

/** Per-item writes: deletions, read-only changes, then additions in batches; `progress.done` counts each. */
async function applyPerItem(
  upstream: UpstreamClient,
  orgId: string,
  diff: GitPermissionDiff,
  fence: Fence,
  progress: WriteProgress,
): Promise<GitPermission[]> {
  for (const p of diff.removed) {
    await fence.check();
    await upstream.call('gitPermissions.delete', {
      params: { org_id: orgId, git_permission_id: (p as GitPermission).git_permission_id },
    });
    progress.done++;
  }
  for (const ch of diff.changed) {
    await fence.check();
    await upstream.call('gitPermissions.update', {
      params: { org_id: orgId, git_permission_id: (ch.before as GitPermission).git_permission_id },
      body: { read_only: ch.after.read_only ?? false },
    });
    progress.done++;
  }
  for (let i = 0; i < diff.added.length; i += GIT_PERMISSIONS_MAX_PER_REQUEST) {
    await fence.check();
    await upstream.call('gitPermissions.create', {
      params: { org_id: orgId },
      body: { permissions: diff.added.slice(i, i + GIT_PERMISSIONS_MAX_PER_REQUEST) },
    });
    progress.done++;
  }
  return readCurrent(upstream, orgId);
}

/** Replaces (or clears) an organization's whole set, as `req` asks, under its lock and with its history. */
export function applyChange(lock: GitPermissionLock, upstream: UpstreamClient, req: ChangeRequest) {
  const { orgId } = req;
  const desired = req.desired?.map(toInput) ?? null;
  const tooLarge = desired !== null && desired.length > GIT_PERMISSIONS_MAX_PER_REQUEST;
  checkRequest(req, desired, tooLarge);
  return lock.change(orgId, req.signal, (current, currentVersion) => {
    if (currentVersion !== req.base_version) throw conflict(req.base_version, current, req.base);
    const target = desired ?? [];
    const diff = diffGitPermissionSets(current, target);
    // Clearing an empty set, or replacing a set with itself, changes nothing: no revision, no API call.
    if (
      (desired === null && current.length === 0) ||
      (desired !== null && isEmptyDiff(diff) && current.length === target.length)
    ) {
      return { unchanged: true };
    }
    const method = desired === null ? 'clear' : tooLarge ? 'per_item' : 'replace';
    const total =
      method === 'per_item'
        ? diff.removed.length + diff.changed.length + Math.ceil(diff.added.length / GIT_PERMISSIONS_MAX_PER_REQUEST)
        : 1;
    return {
      revision: {
        action: req.action,
        method,
        restored_from: req.restoredFrom,
        added: diff.added.length,
        removed: diff.removed.length,
        changed: diff.changed.length,
        target,
        ...req.by,
      },
      total,
      apply: async (fence, progress) => {
        if (method === 'per_item') return applyPerItem(upstream, orgId, diff, fence, progress);
        await fence.check();
        if (method === 'clear') {
          await upstream.call('gitPermissions.clear', { params: { org_id: orgId } });
          return [];
        }
        return (await upstream.call('gitPermissions.replace', {
          params: { org_id: orgId },
          body: { permissions: target },
        })) as GitPermission[];
      },
    };
  }) satisfies Promise<ChangeAnswer>;
}
