/**
 * The rules a request that writes git permissions must satisfy: the strict request schemas of the API and of
 * the console's safe endpoints, and `validateGitPermissionSet`, the single implementation of the per-item and
 * per-set rules. The request schemas, the sandbox, the console server and the bulk editor all call it, so the
 * form and the API refuse exactly the same things with the same messages.
 */
import { z } from 'zod';
import { OrgId, PageQuery, queryInt } from '../conventions';
import type { FieldError } from '../problem';
import {
  GIT_MATCHER_MAX_LENGTH,
  GIT_PERMISSION_SET_MAX,
  GIT_PERMISSIONS_MAX_PER_REQUEST,
  GIT_REPOSITORIES_PAGE_MAX,
  gitPermissionKey,
  MATCHER_FIELDS,
  matcherValueOf,
  type GitPermissionInput,
  type MatcherField,
} from './resources';

// ── Requests (strict) ───────────────────────────────────────────────────────────────────────────────────

/** A matcher's text: its length a `.max()` (the form counts it; OpenAPI shows it); its pattern a set rule. */
const matcherValue = (name: MatcherField) =>
  z.string().max(GIT_MATCHER_MAX_LENGTH, `${name} is at most ${GIT_MATCHER_MAX_LENGTH} characters`).nullish();

/** The shape of one item; the rules that need the whole item or set are in `validateGitPermissionSet`. */
export const GitPermissionCreateRequest = z.strictObject({
  git_connection_id: z.string({ message: 'git_connection_id is required' }),
  repo_path: matcherValue('repo_path'),
  prefix_path: matcherValue('prefix_path'),
  group_prefix: matcherValue('group_prefix'),
  read_only: z.boolean({ message: 'read_only must be true or false' }).default(false),
});

/** A path as git hosts write them: segments of letters, digits, `.`, `_`, `-`, joined by `/`. */
const SEGMENT = '[A-Za-z0-9_.-]+';
const MATCHER_PATTERNS: Record<MatcherField, { re: RegExp; msg: string }> = {
  repo_path: {
    re: new RegExp(`^${SEGMENT}(/${SEGMENT})+$`),
    msg: 'repo_path must be a repository path like "acme/platform/api" (at least owner/name; letters, digits, . _ - and /; no leading or trailing /)',
  },
  prefix_path: {
    re: new RegExp(`^${SEGMENT}(/${SEGMENT})*/?$`),
    msg: 'prefix_path must be a path prefix like "acme/platform/" (letters, digits, . _ - and /; no leading /)',
  },
  group_prefix: {
    re: new RegExp(`^${SEGMENT}(/${SEGMENT})*$`),
    msg: 'group_prefix must be a group like "acme/platform" (letters, digits, . _ - and /; no leading or trailing /)',
  },
};

export interface ValidateOptions {
  /** Enforce the 200-item limit of one replace (off for the console's per-item apply of a larger set). */
  limit?: number | null;
  /** Known connection ids; when given, an unknown `git_connection_id` is an error. */
  connectionIds?: ReadonlySet<string>;
  /** Where the array sits in the request, for `loc`: `['body', 'permissions']` by default. */
  loc?: ReadonlyArray<string | number>;
}

/**
 * Every rule a set of permissions must satisfy, as field errors located at the item and field that break it,
 * e.g. `['body', 'permissions', 17, 'repo_path']`:
 * - at most 200 items per request (the count is reported once, at `['body', 'permissions']`);
 * - `git_connection_id` is set (and known, when the known ids are given);
 * - exactly one matcher per permission, written as its pattern says;
 * - no two items with the same connection and matcher (the later one is flagged).
 */
export function validateGitPermissionSet(
  items: readonly GitPermissionInput[],
  opts: ValidateOptions = {},
): FieldError[] {
  const base = [...(opts.loc ?? ['body', 'permissions'])];
  const limit = opts.limit === undefined ? GIT_PERMISSIONS_MAX_PER_REQUEST : opts.limit;
  const errors: FieldError[] = [];
  if (limit !== null && items.length > limit) {
    errors.push({
      loc: base,
      msg: `At most ${limit} permissions per replace; this set has ${items.length}`,
      type: 'too_big',
    });
  }
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const at = (field?: string): Array<string | number> => (field ? [...base, i, field] : [...base, i]);
    const conn = typeof item.git_connection_id === 'string' ? item.git_connection_id.trim() : '';
    if (conn === '') {
      errors.push({
        loc: at('git_connection_id'),
        msg: 'git_connection_id is required: choose the git connection',
        type: 'missing',
      });
    } else if (opts.connectionIds && !opts.connectionIds.has(item.git_connection_id)) {
      errors.push({
        loc: at('git_connection_id'),
        msg: `Unknown git connection ${item.git_connection_id}`,
        type: 'unknown_git_connection',
      });
    }
    const set = MATCHER_FIELDS.filter((f) => matcherValueOf(item, f) !== null);
    if (set.length === 0) {
      errors.push({
        loc: at('repo_path'),
        msg: 'Set one matcher: repo_path, prefix_path or group_prefix',
        type: 'matcher_missing',
      });
    } else if (set.length > 1) {
      for (const f of set) {
        errors.push({
          loc: at(f),
          msg: `Set only one matcher per permission; this one sets ${set.join(' and ')}`,
          type: 'matcher_exclusive',
        });
      }
    }
    for (const f of set) {
      const v = matcherValueOf(item, f)!;
      if (v.length > GIT_MATCHER_MAX_LENGTH) {
        errors.push({ loc: at(f), msg: `${f} is at most ${GIT_MATCHER_MAX_LENGTH} characters`, type: 'too_long' });
      } else if (!MATCHER_PATTERNS[f].re.test(v)) {
        errors.push({ loc: at(f), msg: MATCHER_PATTERNS[f].msg, type: 'pattern' });
      }
    }
    if (conn !== '' && set.length === 1) {
      const key = gitPermissionKey(item);
      const first = seen.get(key);
      if (first !== undefined) {
        errors.push({
          loc: at(set[0]),
          msg: `Duplicate of permissions[${first}]: same connection and ${set[0]}`,
          type: 'duplicate',
        });
      } else {
        seen.set(key, i);
      }
    }
  });
  return errors;
}

/** Adds the set rules to a zod schema whose `permissions` array has been shape-checked. */
function withSetRules<T extends z.ZodType<{ permissions: GitPermissionInput[] }>>(schema: T, limit: number | null) {
  return schema.superRefine(
    (value, ctx) => {
      const raw: unknown = (value as { permissions?: unknown } | null)?.permissions;
      if (!Array.isArray(raw)) return;
      // Items whose shape already failed keep their own errors; every other item is still checked, so one
      // bad item never hides the others' problems.
      const broken = new Set(
        ctx.issues.filter((i) => i.path?.[0] === 'permissions' && typeof i.path[1] === 'number').map((i) => i.path![1]),
      );
      const items = raw.map((p) => (typeof p === 'object' && p !== null ? p : {})) as GitPermissionInput[];
      for (const e of validateGitPermissionSet(items, { limit, loc: ['permissions'] })) {
        if (typeof e.loc[1] === 'number' && broken.has(e.loc[1])) continue;
        ctx.addIssue({
          code: 'custom',
          path: e.loc as Array<string | number>,
          message: e.msg,
          params: { type: e.type },
        });
      }
    },
    { when: (payload) => Array.isArray((payload.value as { permissions?: unknown } | null)?.permissions) },
  );
}

/** PUT (replace) and POST (bulk add) body: the vendor's GitPermissionBulkCreateRequest. */
export const GitPermissionBulkCreateRequest = withSetRules(
  z.strictObject({
    permissions: z
      .array(GitPermissionCreateRequest, { message: 'permissions must be an array of permissions' })
      .max(GIT_PERMISSIONS_MAX_PER_REQUEST, {
        error: (issue) =>
          `At most ${GIT_PERMISSIONS_MAX_PER_REQUEST} permissions per replace; this set has ${Array.isArray(issue.input) ? issue.input.length : 'more'}`,
      }),
  }),
  // The count is the array's own `.max()` (which OpenAPI shows as maxItems); the set rules check the rest.
  null,
);

/** PATCH body: the vendor's GitPermissionUpdateRequest. */
export const GitPermissionUpdateRequest = z.strictObject({
  read_only: z.boolean({ message: 'read_only must be true or false' }).nullish(),
});

export const GitPermissionParams = z.object({ org_id: OrgId, git_permission_id: z.string().min(1) });

export const GitRepositoriesQuery = PageQuery.extend({
  // The vendor's maximum there is 100, not the usual 200.
  first: queryInt({ min: 1, max: GIT_REPOSITORIES_PAGE_MAX, name: 'first' }).default(GIT_REPOSITORIES_PAGE_MAX),
  filter_name: z.string().max(200, 'filter_name is at most 200 characters').nullish(),
});

// ── The console server's safe bulk endpoints (`/console/git-permissions/...`) ──────────────────────────

/** The set the admin started from: its version token, and the set itself so a 409 can show what changed. */
export const GitPermissionBase = z.strictObject({
  base_version: z.string({ message: 'base_version is required: the version of the set the edit started from' }).min(1),
  // Other fields of a permission as the API answered it are dropped, not refused: the base is what was read.
  base: z
    .array(
      z.object({
        ...GitPermissionCreateRequest.shape,
        git_permission_id: z.string().optional(),
        created_at: z.number().nullish(),
      }),
    )
    .max(GIT_PERMISSION_SET_MAX, `base holds at most ${GIT_PERMISSION_SET_MAX} permissions`)
    .optional(),
});

/** PUT /console/git-permissions/orgs/{org_id}: a replace with the conflict check, any size. */
export const ConsoleReplaceRequest = withSetRules(
  GitPermissionBase.extend({
    permissions: z
      .array(GitPermissionCreateRequest, { message: 'permissions must be an array of permissions' })
      .max(
        GIT_PERMISSION_SET_MAX,
        `A set holds at most ${GIT_PERMISSION_SET_MAX} permissions in the console, even applied item by item`,
      ),
    /** Needed for a set over 200: apply it with per-item operations (delete, update, add), which is not atomic. */
    allow_per_item: z.boolean().optional(),
  }),
  null,
);
export type ConsoleReplaceRequest = z.input<typeof ConsoleReplaceRequest>;

/** DELETE /console/git-permissions/orgs/{org_id} (clear) and POST .../revisions/{id}/restore. */
export const ConsoleClearRequest = GitPermissionBase;
export type GitPermissionBase = z.input<typeof GitPermissionBase>;
export const ConsoleRestoreRequest = GitPermissionBase.extend({
  /** Which set of the revision to bring back: the one before the change (default) or its result. */
  set: z.enum(['previous', 'result']).default('previous'),
  allow_per_item: z.boolean().optional(),
});
export type ConsoleRestoreRequest = z.input<typeof ConsoleRestoreRequest>;

/** PATCH /console/git-permissions/orgs/{org_id}/permissions/{git_permission_id}: one permission's read_only. */
export const ConsoleUpdateRequest = z.strictObject({
  read_only: z.boolean({ message: 'read_only must be true or false' }),
  /** The version of the set the change was made on; a different current set answers 409. */
  base_version: z.string().min(1).optional(),
});
export type ConsoleUpdateRequest = z.input<typeof ConsoleUpdateRequest>;
