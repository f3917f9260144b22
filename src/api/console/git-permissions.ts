/**
 * What the console's safe git-permission endpoints (`/console/git-permissions/...`) answer: the complete set
 * with its version token, the history of changes made through the console, and the conflict body.
 */
import { z } from 'zod';
import { OrgId, queryInt, UnixSeconds } from '../conventions';
import { GitPermission } from '../git-permissions/resources';
import {
  ConsoleClearRequest,
  ConsoleReplaceRequest,
  ConsoleRestoreRequest,
  ConsoleUpdateRequest,
} from '../git-permissions/rules';
import { pageOf } from '../page';
import { defineConsoleOperations } from './define';
import { madeByFields } from './session';

/** The current set as the console server read it (every page), with its version token. */
export const ConsoleGitPermissionSet = z.looseObject({
  org_id: z.string(),
  items: z.array(GitPermission),
  version: z.string(),
  count: z.number().int(),
});
export type ConsoleGitPermissionSet = z.infer<typeof ConsoleGitPermissionSet>;

export const GIT_REVISION_ACTIONS = ['replace', 'clear', 'restore', 'update'] as const;
export type GitRevisionAction = (typeof GIT_REVISION_ACTIONS)[number];
export const GIT_REVISION_STATUSES = ['applying', 'applied', 'failed', 'partial'] as const;
export type GitRevisionStatus = (typeof GIT_REVISION_STATUSES)[number];

/** One change made through the console: the set before it (always stored first) and its result. */
export const GitPermissionRevisionSummary = z.looseObject({
  revision_id: z.number().int(),
  org_id: z.string(),
  created_at: UnixSeconds,
  completed_at: UnixSeconds.nullable(),
  action: z.enum(GIT_REVISION_ACTIONS),
  /** `replace` (one atomic PUT), `per_item` (a set over 200, or one permission), `clear` (DELETE all). */
  method: z.enum(['replace', 'per_item', 'clear']),
  status: z.enum(GIT_REVISION_STATUSES),
  restored_from: z.number().int().nullable(),
  previous_version: z.string(),
  previous_count: z.number().int(),
  result_version: z.string().nullable(),
  result_count: z.number().int().nullable(),
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
  error: z.string().nullable(),
  /** Who made the change (a restore: who restored); null for revisions recorded before the console knew. */
  ...madeByFields,
});
export type GitPermissionRevisionSummary = z.infer<typeof GitPermissionRevisionSummary>;

export const GitPermissionRevision = GitPermissionRevisionSummary.extend({
  previous: z.array(GitPermission),
  result: z.array(GitPermission).nullable(),
});
export type GitPermissionRevision = z.infer<typeof GitPermissionRevision>;

/** A diff of two sets (see `diffGitPermissionSets`), of permissions of the given shape. */
const diffOf = <T extends z.ZodType>(item: T) =>
  z.object({
    added: z.array(item),
    removed: z.array(item),
    changed: z.array(z.object({ key: z.string(), before: item, after: item })),
    unchanged: z.number().int(),
  });

/** A permission as a request carried it (a conflict's base): no id or time needed. */
const GitPermissionLike = GitPermission.partial({ git_permission_id: true });

/** What a replace, clear, restore or toggle answers: the set after it, and the revision it made (if any). */
export const ConsoleApplyResult = ConsoleGitPermissionSet.extend({
  revision: GitPermissionRevisionSummary.nullable(),
  unchanged: z.boolean(),
});
export type ConsoleApplyResult = z.infer<typeof ConsoleApplyResult>;

/** A read-only toggle's answer also carries the permission as it is now. */
export const ConsoleToggleResult = ConsoleApplyResult.extend({ permission: GitPermission });
export type ConsoleToggleResult = z.infer<typeof ConsoleToggleResult>;

export const GitRevisionPage = pageOf(GitPermissionRevisionSummary);
export type GitRevisionPage = z.infer<typeof GitRevisionPage>;

export const GitRevisionDiff = z.looseObject({
  from: GitPermissionRevisionSummary,
  to: GitPermissionRevisionSummary,
  diff: diffOf(GitPermission),
});
export type GitRevisionDiff = z.infer<typeof GitRevisionDiff>;

/**
 * The body of a 409 from a console endpoint: the set as it is now and, when the request carried its base
 * set, what changed since (base → current).
 */
export const GitPermissionConflict = z.looseObject({
  status: z.literal(409),
  title: z.string(),
  detail: z.string(),
  base_version: z.string(),
  current_version: z.string(),
  current: z.array(GitPermission),
  /** base → current: removed and changed items are as the request's base carried them. */
  changes: diffOf(GitPermissionLike).nullable(),
});
export type GitPermissionConflict = z.infer<typeof GitPermissionConflict>;

/** Revision numbers in paths and queries: digits only; anything else is not a revision (404 / 422). */
const RevisionNumber = z
  .string()
  .regex(/^\d{1,12}$/, 'Not a revision number')
  .transform(Number);

const OrgPath = z.object({ org_id: OrgId });
const RevisionPath = OrgPath.extend({ revision_id: RevisionNumber });

/** The history list pages by 50 unless asked otherwise. */
export const GIT_REVISIONS_PAGE_SIZE = 50;

const BASE = '/console/git-permissions/orgs/{org_id}';

export const consoleGitPermissionOperations = defineConsoleOperations({
  'console.gitPermissions.get': {
    id: 'console.gitPermissions.get',
    method: 'GET',
    permission: 'ManageGitIntegrations',
    path: BASE,
    summary: "An organization's complete set of git permissions (every page) and its version token",
    params: OrgPath,
    response: ConsoleGitPermissionSet,
  },
  'console.gitPermissions.replace': {
    id: 'console.gitPermissions.replace',
    method: 'PUT',
    permission: 'ManageGitIntegrations',
    path: BASE,
    summary: 'Replace the set, checked against the version the edit started from (409 with the difference)',
    params: OrgPath,
    body: ConsoleReplaceRequest,
    response: ConsoleApplyResult,
  },
  'console.gitPermissions.clear': {
    id: 'console.gitPermissions.clear',
    method: 'DELETE',
    permission: 'ManageGitIntegrations',
    path: BASE,
    summary: 'Clear the set, checked against the version the admin saw',
    params: OrgPath,
    body: ConsoleClearRequest,
    response: ConsoleApplyResult,
  },
  'console.gitPermissions.update': {
    id: 'console.gitPermissions.update',
    method: 'PATCH',
    permission: 'ManageGitIntegrations',
    path: `${BASE}/permissions/{git_permission_id}`,
    summary: "One permission's read_only, under the same lock, version check and history as a replace",
    params: OrgPath.extend({ git_permission_id: z.string().min(1).max(256) }),
    body: ConsoleUpdateRequest,
    response: ConsoleToggleResult,
  },
  'console.gitPermissions.revisions.list': {
    id: 'console.gitPermissions.revisions.list',
    method: 'GET',
    permission: 'ManageGitIntegrations',
    path: `${BASE}/revisions`,
    summary: 'The history of changes made through the console, newest first',
    params: OrgPath,
    query: z.object({
      first: queryInt({ min: 1, max: 200, name: 'first' }).default(GIT_REVISIONS_PAGE_SIZE),
      after: z
        .string()
        .regex(/^\d{1,12}$/, 'after must be an end_cursor of this list')
        .transform(Number)
        .optional(),
    }),
    response: GitRevisionPage,
  },
  'console.gitPermissions.revisions.diff': {
    id: 'console.gitPermissions.revisions.diff',
    method: 'GET',
    permission: 'ManageGitIntegrations',
    path: `${BASE}/revisions/diff`,
    summary: 'What turns the set of one revision into the set of another',
    params: OrgPath,
    query: z.object({ from: RevisionNumber, to: RevisionNumber }),
    response: GitRevisionDiff,
  },
  'console.gitPermissions.revisions.get': {
    id: 'console.gitPermissions.revisions.get',
    method: 'GET',
    permission: 'ManageGitIntegrations',
    path: `${BASE}/revisions/{revision_id}`,
    summary: 'One revision with its previous and resulting sets',
    params: RevisionPath,
    response: GitPermissionRevision,
  },
  'console.gitPermissions.revisions.restore': {
    id: 'console.gitPermissions.revisions.restore',
    method: 'POST',
    permission: 'ManageGitIntegrations',
    path: `${BASE}/revisions/{revision_id}/restore`,
    summary: "Bring back a revision's previous (or resulting) set, with the same conflict check as a replace",
    params: RevisionPath,
    body: ConsoleRestoreRequest,
    response: ConsoleApplyResult,
  },
});
