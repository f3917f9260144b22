/**
 * Git permissions and git connections (spec: "GitPermission", "Replace git permissions for an organization" and
 * the further operations; shapes from the vendor reference where the spec says "not shown").
 *
 * The matcher rule, decided here because the spec leaves it open: every permission matches repositories in
 * exactly ONE way — `repo_path` (one repository, exact path), `prefix_path` (every repository whose path starts
 * with it) or `group_prefix` (every repository of a group and its subgroups). A field that is absent, null or
 * the empty string is "not set". `validateGitPermissionSet` below is the single implementation of this rule and
 * of the other per-item rules; the request schemas, the sandbox, the console server and the bulk editor all call
 * it, so the form and the API refuse exactly the same things with the same messages.
 *
 * Also here, because the browser and the console server both need them: the identity of a permission
 * (`gitPermissionKey`), the diff of two sets and the version token of a set used by the conflict check.
 */
import { z } from 'zod';
import { OrgId, PageQuery, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import type { FieldError } from '../problem';
import { defineOperations } from './define';

/** Documented limit: a replace (and, by the vendor's shared request schema, a bulk add) takes at most 200 items. */
export const GIT_PERMISSIONS_MAX_PER_REQUEST = 200;
/**
 * Largest set the console's safe endpoints handle, read or written (applied item by item past 200): the
 * console's own bound, so one request or one upstream cannot make it hold an unbounded set.
 */
export const GIT_PERMISSION_SET_MAX = 5_000;
/** Longest matcher value accepted (the console's own bound, so a pasted file cannot grow without limit). */
export const GIT_MATCHER_MAX_LENGTH = 512;
/** The vendor's repositories list pages by at most 100 (the spec allows 200 everywhere; the console asks for ≤ 100). */
export const GIT_REPOSITORIES_PAGE_MAX = 100;

export const MATCHER_FIELDS = ['repo_path', 'prefix_path', 'group_prefix'] as const;
export type MatcherField = (typeof MATCHER_FIELDS)[number];

export const MATCHER_LABELS: Record<MatcherField, string> = {
  repo_path: 'Repository',
  prefix_path: 'Path prefix',
  group_prefix: 'Group',
};

export const GIT_PROVIDER_TYPES = [
  'github_token',
  'github_individual_token',
  'github_app',
  'gitlab_token',
  'gitlab_oauth',
  'azure_devops_oauth',
  'bitbucket_oauth',
  'bitbucket_token',
] as const;

// ── Resources (tolerant) ────────────────────────────────────────────────────────────────────────────────

export const GitPermission = z.looseObject({
  git_permission_id: z.string(),
  git_connection_id: z.string(),
  created_at: UnixSeconds.nullish(),
  repo_path: z.string().nullish(),
  prefix_path: z.string().nullish(),
  group_prefix: z.string().nullish(),
  read_only: z.boolean().default(false),
});
export type GitPermission = z.infer<typeof GitPermission>;

export const GitConnection = z.looseObject({
  git_connection_id: z.string(),
  name: z.string().nullable(),
  host: z.string(),
  /** One of GIT_PROVIDER_TYPES; kept open so a new provider type shows instead of failing. */
  git_provider_type: z.string(),
  created_at: UnixSeconds,
});
export type GitConnection = z.infer<typeof GitConnection>;

export const GitConnectionRepository = z.looseObject({
  provider_repository_id: z.string(),
  git_connection_id: z.string(),
  git_connection_host: z.string(),
  repo_name: z.string(),
  repo_path: z.string(),
  repo_description: z.string().nullable(),
  repo_language: z.string().nullable(),
  last_updated_at: UnixSeconds.nullable(),
});
export type GitConnectionRepository = z.infer<typeof GitConnectionRepository>;

// ── Requests (strict) ───────────────────────────────────────────────────────────────────────────────────

/** What a permission is written as in a request: the vendor's GitPermissionCreateRequest. */
export interface GitPermissionInput {
  git_connection_id: string;
  repo_path?: string | null;
  prefix_path?: string | null;
  group_prefix?: string | null;
  read_only?: boolean;
}

const matcherValue = z.string().nullish();

/** The shape of one item; the rules that need the whole item or set are in `validateGitPermissionSet`. */
export const GitPermissionCreateRequest = z.strictObject({
  git_connection_id: z.string({ message: 'git_connection_id is required' }),
  repo_path: matcherValue,
  prefix_path: matcherValue,
  group_prefix: matcherValue,
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

/** The value of a matcher field, or null when it is not set (absent, null or ""). */
export function matcherValueOf(
  item: Partial<Record<MatcherField, string | null | undefined>>,
  field: MatcherField,
): string | null {
  const v = item[field];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** The one matcher a valid permission sets, or null when it sets none or several. */
export function matcherOf(
  item: Partial<Record<MatcherField, string | null | undefined>>,
): { field: MatcherField; value: string } | null {
  const set = MATCHER_FIELDS.filter((f) => matcherValueOf(item, f) !== null);
  if (set.length !== 1) return null;
  const field = set[0]!;
  return { field, value: matcherValueOf(item, field)! };
}

/**
 * The identity of a permission within an organization's set: its connection and its one matcher. Two items
 * with the same key are duplicates; an item whose key is unchanged but whose `read_only` differs is "changed".
 * Items that break the matcher rule get a key from all three fields so they still diff sensibly.
 */
export function gitPermissionKey(item: GitPermissionInput): string {
  const m = matcherOf(item);
  if (m) return `${item.git_connection_id}\u0000${m.field}\u0000${m.value}`;
  return `${item.git_connection_id}\u0000${MATCHER_FIELDS.map((f) => matcherValueOf(item, f) ?? '').join('\u0000')}`;
}

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
    permissions: z.array(GitPermissionCreateRequest, { message: 'permissions must be an array of permissions' }),
  }),
  GIT_PERMISSIONS_MAX_PER_REQUEST,
);

/** PATCH body: the vendor's GitPermissionUpdateRequest. */
export const GitPermissionUpdateRequest = z.strictObject({
  read_only: z.boolean({ message: 'read_only must be true or false' }).nullish(),
});

export const GitPermissionParams = z.object({ org_id: OrgId, git_permission_id: z.string().min(1) });
const OrgParams = z.object({ org_id: OrgId });

export const GitRepositoriesQuery = PageQuery.extend({
  filter_name: z.string().max(200, 'filter_name is at most 200 characters').nullish(),
});

// ── Operations ──────────────────────────────────────────────────────────────────────────────────────────

const PERMISSIONS_PATH = '/v3/enterprise/organizations/{org_id}/git-providers/permissions';

export const gitPermissionOperations = defineOperations({
  'gitPermissions.list': {
    id: 'gitPermissions.list',
    method: 'GET',
    path: PERMISSIONS_PATH,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "List an organization's git permissions",
    params: OrgParams,
    query: PageQuery,
    response: pageOf(GitPermission),
    paginated: true,
  },
  'gitPermissions.replace': {
    id: 'gitPermissions.replace',
    method: 'PUT',
    path: PERMISSIONS_PATH,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "Replace an organization's whole set of git permissions (at most 200)",
    params: OrgParams,
    body: GitPermissionBulkCreateRequest,
    response: z.array(GitPermission),
    note: 'Matcher rule chosen by the console: exactly one of repo_path, prefix_path, group_prefix per item. Items equal to an existing permission (same connection and matcher) keep its id and created_at in the sandbox.',
  },
  'gitPermissions.create': {
    id: 'gitPermissions.create',
    method: 'POST',
    path: PERMISSIONS_PATH,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: 'Add git permissions to an organization (bulk, at most 200)',
    params: OrgParams,
    body: GitPermissionBulkCreateRequest,
    response: z.array(GitPermission),
    note: 'In the vendor reference (bulk create), not in the spec. An item equal to an existing permission is refused as a duplicate.',
  },
  'gitPermissions.clear': {
    id: 'gitPermissions.clear',
    method: 'DELETE',
    path: PERMISSIONS_PATH,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "Clear an organization's git permissions; answers with the removed set",
    params: OrgParams,
    response: z.array(GitPermission),
  },
  'gitPermissions.update': {
    id: 'gitPermissions.update',
    method: 'PATCH',
    path: `${PERMISSIONS_PATH}/{git_permission_id}`,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: 'Update one git permission (read_only)',
    params: GitPermissionParams,
    body: GitPermissionUpdateRequest,
    response: GitPermission,
    note: 'Request and response shapes from the vendor reference: {read_only} in, the permission out.',
  },
  'gitPermissions.delete': {
    id: 'gitPermissions.delete',
    method: 'DELETE',
    path: `${PERMISSIONS_PATH}/{git_permission_id}`,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: 'Delete one git permission; answers with the removed permission',
    params: GitPermissionParams,
    response: GitPermission,
    note: 'In the vendor reference, not in the spec.',
  },
  'gitConnections.list': {
    id: 'gitConnections.list',
    method: 'GET',
    path: '/v3/enterprise/git-providers/connections',
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "List the enterprise's git connections",
    query: PageQuery,
    response: pageOf(GitConnection),
    paginated: true,
    note: 'Permission not shown in the spec; ManageGitIntegrations chosen, as for the connection repositories.',
  },
  'gitConnections.repositories': {
    id: 'gitConnections.repositories',
    method: 'GET',
    path: '/v3/enterprise/git-providers/connections/{connection_id}/repositories',
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "List a git connection's repositories, filtered by name",
    params: z.object({ connection_id: z.string().min(1) }),
    query: GitRepositoriesQuery,
    response: pageOf(GitConnectionRepository),
    paginated: true,
    note: 'filter_name matches repo_name or repo_path, case-insensitive, anywhere in the text.',
  },
});

// ── Sets: diff and version (shared by the console server and the bulk editor) ───────────────────────────

/** A permission reduced to what the set means: connection, one matcher, read_only. */
export interface NormalizedGitPermission {
  git_connection_id: string;
  repo_path: string | null;
  prefix_path: string | null;
  group_prefix: string | null;
  read_only: boolean;
}

export function normalizeGitPermission(item: GitPermissionInput): NormalizedGitPermission {
  return {
    git_connection_id: item.git_connection_id,
    repo_path: matcherValueOf(item, 'repo_path'),
    prefix_path: matcherValueOf(item, 'prefix_path'),
    group_prefix: matcherValueOf(item, 'group_prefix'),
    read_only: item.read_only ?? false,
  };
}

export interface GitPermissionChange<T> {
  key: string;
  before: T;
  after: T;
}

export interface GitPermissionDiff<T extends GitPermissionInput = GitPermissionInput> {
  added: T[];
  removed: T[];
  /** Same connection and matcher, different `read_only`. */
  changed: Array<GitPermissionChange<T>>;
  unchanged: number;
}

/** What turns set `before` into set `after`, keyed by connection and matcher. Linear in the sizes. */
export function diffGitPermissionSets<T extends GitPermissionInput>(
  before: readonly T[],
  after: readonly T[],
): GitPermissionDiff<T> {
  const beforeByKey = new Map<string, T>();
  for (const b of before) beforeByKey.set(gitPermissionKey(b), b);
  const added: T[] = [];
  const changed: Array<GitPermissionChange<T>> = [];
  const kept = new Set<string>();
  let unchanged = 0;
  for (const a of after) {
    const key = gitPermissionKey(a);
    const b = beforeByKey.get(key);
    if (!b || kept.has(key)) {
      added.push(a);
      continue;
    }
    kept.add(key);
    if ((b.read_only ?? false) !== (a.read_only ?? false)) changed.push({ key, before: b, after: a });
    else unchanged++;
  }
  const removed = before.filter((b) => !kept.has(gitPermissionKey(b)));
  return { added, removed, changed, unchanged };
}

export function isEmptyDiff(d: GitPermissionDiff<GitPermissionInput>): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;
}

/** cyrb53: a fast, well-mixed 53-bit string hash (pure JS, so the browser and Node compute the same token). */
function cyrb53(s: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The version token of a set: a hash of its normalized content (connection, matcher, read_only), independent
 * of order, ids and timestamps. Two reads of an unchanged set give the same token; any added, removed or
 * toggled permission changes it. The conflict check compares the token the admin started from with the
 * token of the set read just before applying.
 */
export function gitPermissionSetVersion(items: readonly GitPermissionInput[]): string {
  const lines = items.map((i) => `${gitPermissionKey(i)}\u0000${i.read_only ? 1 : 0}`).sort();
  const text = `${lines.length}\n${lines.join('\n')}`;
  return `gpv1-${cyrb53(text, 1).toString(36)}${cyrb53(text, 2).toString(36)}`;
}

/** The matcher of a permission as one line for people: "Repository acme/api". */
export function describeMatcher(item: GitPermissionInput): string {
  const m = matcherOf(item);
  if (m) return `${MATCHER_LABELS[m.field]} ${m.value}`;
  const set = MATCHER_FIELDS.filter((f) => matcherValueOf(item, f) !== null);
  return set.length === 0
    ? 'No matcher'
    : set.map((f) => `${MATCHER_LABELS[f]} ${matcherValueOf(item, f)}`).join(' + ');
}

// ── The console server's safe bulk endpoints (`/console/git-permissions/...`) ──────────────────────────

/** The set the admin started from: its version token, and the set itself so a 409 can show what changed. */
export const GitPermissionBase = z.strictObject({
  base_version: z.string({ message: 'base_version is required: the version of the set the edit started from' }).min(1),
  base: z
    .array(
      GitPermissionCreateRequest.extend({
        git_permission_id: z.string().optional(),
        created_at: z.number().nullish(),
      }).loose(),
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
export const ConsoleRestoreRequest = GitPermissionBase.extend({
  /** Which set of the revision to bring back: the one before the change (default) or its result. */
  set: z.enum(['previous', 'result']).default('previous'),
  allow_per_item: z.boolean().optional(),
});
export type ConsoleRestoreRequest = z.input<typeof ConsoleRestoreRequest>;

/** The current set as the console server read it (every page), with its version token. */
export interface ConsoleGitPermissionSet {
  org_id: string;
  items: GitPermission[];
  version: string;
  count: number;
}

/** PATCH /console/git-permissions/orgs/{org_id}/permissions/{git_permission_id}: one permission's read_only. */
export const ConsoleUpdateRequest = z.strictObject({
  read_only: z.boolean({ message: 'read_only must be true or false' }),
  /** The version of the set the change was made on; a different current set answers 409. */
  base_version: z.string().min(1).optional(),
});
export type ConsoleUpdateRequest = z.input<typeof ConsoleUpdateRequest>;

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
