/**
 * Benchmark helpers for `npm run bench` (pure, no DOM): build permission sets of a given size and time the
 * diff and version token the editor and the console server compute on every apply.
 *
 * Load-and-render of 200 permissions is a browser measurement; see `measureLoadAndRenderGuide` below.
 */
import { diffGitPermissionSets, gitPermissionSetVersion } from '../src/api/git-permissions/set-diff';
import { validateGitPermissionSet } from '../src/api/git-permissions/rules';
import { type GitPermissionInput } from '../src/api/git-permissions/resources';

/** A deterministic set of `n` valid permissions (mixed matchers, about a third read-only). */
export function makeGitPermissionSet(n: number, seed = 1): GitPermissionInput[] {
  const out: GitPermissionInput[] = [];
  for (let i = 0; i < n; i++) {
    const conn = `gitconn-bench${(i + seed) % 5}`;
    const kind = i % 10;
    out.push(
      kind < 7
        ? { git_connection_id: conn, repo_path: `acme/group-${i % 17}/repo-${i}`, read_only: (i + seed) % 3 === 0 }
        : kind < 9
          ? { git_connection_id: conn, group_prefix: `acme/group-${i}`, read_only: false }
          : { git_connection_id: conn, prefix_path: `acme/prefix-${i}/`, read_only: true },
    );
  }
  return out;
}

/** Two sets of `n` that differ the way a bulk edit does: some removed, some added, some toggled. */
export function makeEditedPair(n = 200): { before: GitPermissionInput[]; after: GitPermissionInput[] } {
  const before = makeGitPermissionSet(n);
  const after = before
    .filter((_, i) => i % 20 !== 0)
    .map((p, i) => (i % 15 === 0 ? { ...p, read_only: !p.read_only } : p));
  while (after.length < n)
    after.push({ git_connection_id: 'gitconn-bench9', repo_path: `acme/new/repo-${after.length}` });
  return { before, after };
}

export interface BenchResult {
  name: string;
  iterations: number;
  /** Median milliseconds per iteration. */
  medianMs: number;
}

function time(name: string, iterations: number, fn: () => unknown): BenchResult {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { name, iterations, medianMs: samples[Math.floor(samples.length / 2)]! };
}

/** Diff of two sets of 200, the version token of a 200-set, and full validation of a 200-set. */
export function runGitPermissionBench(iterations = 200): BenchResult[] {
  const { before, after } = makeEditedPair(200);
  return [
    time('git permissions: diff two sets of 200', iterations, () => diffGitPermissionSets(before, after)),
    time('git permissions: version token of 200', iterations, () => gitPermissionSetVersion(after)),
    time('git permissions: validate 200 (editor, per keystroke)', iterations, () => validateGitPermissionSet(after)),
  ];
}

/**
 * Load and render 200 permissions: with `npm start` on the sandbox, a Playwright page, and the seeded
 * "Data Infrastructure" organization (230 permissions, 3 pages of 100; or replace one org's set with 200):
 *   const t0 = Date.now(); await page.goto(`/orgs/${orgId}/git-permissions`);
 *   await page.getByText(/All \d+ permissions loaded/).waitFor(); const ms = Date.now() - t0;
 * and for the editor: goto `/orgs/${orgId}/git-permissions/edit`, wait for the text "N / 200 permissions".
 */
export const measureLoadAndRenderGuide = 'see the comment above';
