/**
 * What the console's safe git-permission endpoints (`/console/git-permissions/...`) answer: the complete set
 * with its version token, the history of changes made through the console, and the conflict body.
 */
import type { GitPermission, GitPermissionInput } from '../git-permissions/resources';
import type { GitPermissionDiff } from '../git-permissions/set-diff';

/** The current set as the console server read it (every page), with its version token. */
export interface ConsoleGitPermissionSet {
  org_id: string;
  items: GitPermission[];
  version: string;
  count: number;
}

export type GitRevisionAction = 'replace' | 'clear' | 'restore' | 'update';
export type GitRevisionStatus = 'applying' | 'applied' | 'failed' | 'partial';

/** One change made through the console: the set before it (always stored first) and its result. */
export interface GitPermissionRevisionSummary {
  revision_id: number;
  org_id: string;
  created_at: number;
  completed_at: number | null;
  action: GitRevisionAction;
  /** `replace` (one atomic PUT), `per_item` (a set over 200), `clear` (DELETE all). */
  method: 'replace' | 'per_item' | 'clear';
  status: GitRevisionStatus;
  restored_from: number | null;
  previous_version: string;
  previous_count: number;
  result_version: string | null;
  result_count: number | null;
  added: number;
  removed: number;
  changed: number;
  error: string | null;
}

export interface GitPermissionRevision extends GitPermissionRevisionSummary {
  previous: GitPermission[];
  result: GitPermission[] | null;
}

/** The body of a 409 from a console endpoint: what changed since the admin's base, and the set as it is now. */
export interface GitPermissionConflict {
  status: 409;
  title: string;
  detail: string;
  base_version: string;
  current_version: string;
  current: GitPermission[];
  /** base → current, when the request carried its base set. */
  changes: GitPermissionDiff<GitPermissionInput> | null;
}
