/**
 * Git permissions and git connections as the API answers them (spec: "GitPermission"; shapes from the vendor
 * reference where the spec says "not shown"), the documented limits, and the identity of a permission.
 *
 * The matcher rule, decided here because the spec leaves it open: every permission matches repositories in
 * exactly ONE way — `repo_path` (one repository, exact path), `prefix_path` (every repository whose path starts
 * with it) or `group_prefix` (every repository of a group and its subgroups). A field that is absent, null or
 * the empty string is "not set". Two permissions with the same connection and matcher are the same permission
 * (`gitPermissionKey`).
 */
import { z } from 'zod';
import { UnixSeconds } from '../conventions';

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

/** What a permission is written as in a request: the vendor's GitPermissionCreateRequest. */
export interface GitPermissionInput {
  git_connection_id: string;
  repo_path?: string | null;
  prefix_path?: string | null;
  group_prefix?: string | null;
  read_only?: boolean;
}

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
