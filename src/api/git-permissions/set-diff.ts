/**
 * Sets of git permissions, shared by the console server and the bulk editor: the normalized form, the diff of
 * two sets (keyed by connection and matcher) and the version token the conflict check compares.
 */
import {
  gitPermissionKey,
  MATCHER_FIELDS,
  MATCHER_LABELS,
  matcherOf,
  matcherValueOf,
  type GitPermissionInput,
} from './resources';

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
