/** Repository indexing over HTTP: the listing extension, the all-or-nothing bulk removal, 422s, 403s, audit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER, startTestSandbox } from '../../../test/harness';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgId: string;
let path: string;

interface Repo {
  repository_path: string;
  indexing_enabled: boolean;
  branches: string[];
  indexing_status: null | {
    indexing_enabled: boolean;
    latest_indexes: Array<{
      job_id: string;
      status: string;
      commit: string;
      branch_name: string | null;
      created_at: number;
    }>;
    latest_completed_search_index_job: { status: string } | null;
    latest_completed_wiki_index_job: { status: string } | null;
  };
}

async function repos(id = orgId): Promise<Repo[]> {
  const out: Repo[] = [];
  let after: string | null = null;
  do {
    const res: { status: number; body: any } = await sb.api.get(
      `/v3beta1/organizations/${id}/repositories/indexing?first=10${after ? `&after=${after}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

const remove = (repository_paths: unknown, token?: string) =>
  sb.api.call('DELETE', path, { body: { repository_paths }, token });

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await sb.api.get('/v3/enterprise/organizations');
  // A later organization, so destructive tests do not change what other files look at.
  orgId = res.body.items[2].org_id;
  path = `/v3beta1/organizations/${orgId}/repositories/indexing`;
});
afterAll(() => sb.stop());

describe('listing (extension)', () => {
  it('pages the repositories with their indexing state, branches and job history', async () => {
    const list = await repos();
    expect(list.length).toBeGreaterThan(10);
    expect(new Set(list.map((r) => r.repository_path)).size).toBe(list.length);
    const enabled = list.filter((r) => r.indexing_enabled);
    expect(enabled.length).toBeGreaterThan(0);
    expect(enabled.every((r) => r.branches.length > 0 && r.indexing_status?.indexing_enabled === true)).toBe(true);
    // Some repositories were never indexed: no status at all.
    expect(list.some((r) => !r.indexing_enabled && r.indexing_status === null)).toBe(true);
    expect(list.some((r) => !r.indexing_enabled && r.indexing_status !== null && r.branches.length === 0)).toBe(true);
  });

  it('jobs appear in every status, with the latest completed search and wiki jobs', async () => {
    const all = await Promise.all(
      (await sb.api.get('/v3/enterprise/organizations')).body.items.map((o: { org_id: string }) => repos(o.org_id)),
    );
    const jobs = all.flat().flatMap((r) => r.indexing_status?.latest_indexes ?? []);
    expect(new Set(jobs.map((j) => j.status))).toEqual(new Set(['completed', 'failed', 'in_progress']));
    for (const j of jobs) {
      expect(j.job_id).toMatch(/^job-/);
      expect(j.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(Number.isInteger(j.created_at)).toBe(true);
    }
    const withStatus = all.flat().filter((r) => r.indexing_status);
    expect(withStatus.some((r) => r.indexing_status!.latest_completed_search_index_job?.status === 'completed')).toBe(
      true,
    );
    expect(withStatus.some((r) => r.indexing_status!.latest_completed_wiki_index_job?.status === 'completed')).toBe(
      true,
    );
  });
});

describe('bulk removal', () => {
  it('disables indexing and clears branches of every listed repository, answering the updated records; audited', async () => {
    const targets = (await repos())
      .filter((r) => r.indexing_enabled)
      .slice(0, 2)
      .map((r) => r.repository_path);
    const res = await remove(targets);
    expect(res.status).toBe(200);
    expect(res.body.map((r: Repo) => r.repository_path)).toEqual(targets);
    for (const r of res.body as Repo[]) {
      expect(r.indexing_enabled).toBe(false);
      expect(r.branches).toEqual([]);
    }
    const after = await repos();
    for (const t of targets)
      expect(after.find((r) => r.repository_path === t)).toMatchObject({ indexing_enabled: false, branches: [] });
    const audit = sb.db
      .prepare(
        `SELECT org_id, data FROM audit_logs WHERE action = 'remove_repository_indexing' ORDER BY rowid DESC LIMIT 1`,
      )
      .get() as { org_id: string; data: string };
    expect(audit.org_id).toBe(orgId);
    expect(JSON.parse(audit.data).repository_paths).toEqual(targets);
  });

  it('404s when any path is unknown, names the unknown paths, and changes nothing', async () => {
    const before = await repos();
    const known = before
      .filter((r) => r.indexing_enabled)
      .slice(0, 2)
      .map((r) => r.repository_path);
    const res = await remove([known[0], 'acme/does-not-exist', known[1], 'acme/nor-this']);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.detail).toContain('acme/does-not-exist');
    expect(res.body.detail).toContain('acme/nor-this');
    expect(res.body.detail).not.toContain(known[0]);
    expect(res.body.not_found_repository_paths).toEqual(['acme/does-not-exist', 'acme/nor-this']);
    expect(await repos()).toEqual(before);
  });

  it('a path of another organization is unknown here', async () => {
    const orgs = (await sb.api.get('/v3/enterprise/organizations')).body.items as Array<{ org_id: string }>;
    const mine = new Set((await repos()).map((r) => r.repository_path));
    const elsewhere = (await repos(orgs[0]!.org_id)).find((r) => !mine.has(r.repository_path))!;
    expect((await remove([elsewhere.repository_path])).status).toBe(404);
  });

  it('removing an already disabled repository succeeds; duplicates are answered once', async () => {
    const disabled = (await repos()).find((r) => !r.indexing_enabled)!;
    const res = await remove([disabled.repository_path, disabled.repository_path]);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
  });

  it.each([
    ['an empty list', []],
    ['101 paths', Array.from({ length: 101 }, (_, i) => `acme/repo-${i}`)],
    ['an empty path', ['']],
    ['no list', undefined],
    ['a list of numbers', [1, 2]],
  ])('422 with errors on %s', async (_what, paths) => {
    const res = paths === undefined ? await sb.api.call('DELETE', path, { body: {} }) : await remove(paths);
    expect(res.status).toBe(422);
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(res.body.errors[0].loc.slice(0, 2)).toEqual(['body', 'repository_paths']);
  });

  it('says how many paths were sent when over the limit', async () => {
    const res = await remove(Array.from({ length: 150 }, (_, i) => `acme/repo-${i}`));
    expect(res.body.errors[0].msg).toMatch(/At most 100 .* 150/);
  });

  it('accepts exactly 100 paths (all unknown here: 404, not 422)', async () => {
    const res = await remove(Array.from({ length: 100 }, (_, i) => `acme/unknown-${i}`));
    expect(res.status).toBe(404);
  });

  it('the viewer gets 403 naming IndexOrgRepositories on both operations', async () => {
    for (const res of [await sb.api.get(path, VIEWER), await remove(['acme/x'], VIEWER)]) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('IndexOrgRepositories');
    }
  });
});
