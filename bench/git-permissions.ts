/**
 * Git permissions: time to load and render a set of 200 (every page) in the table and in the editor, and the
 * pure costs the editor and the console server pay on every apply (diff, version token, validation of 200).
 */
import type { Browser } from '@playwright/test';
import type { Figure } from './lib';
import { runGitPermissionBench } from './git-permissions-model';

interface ConsoleSet {
  items: Array<{
    git_connection_id: string;
    repo_path?: string | null;
    prefix_path?: string | null;
    group_prefix?: string | null;
    read_only?: boolean;
  }>;
  version: string;
}

/** Finds the seeded organization with more than 200 permissions and trims it to exactly 200 through the console. */
async function orgWith200(baseUrl: string): Promise<string> {
  const orgs = (await (await fetch(`${baseUrl}/api/v3/enterprise/organizations?first=200`)).json()) as {
    items: Array<{ org_id: string }>;
  };
  for (const { org_id } of orgs.items) {
    const set = (await (await fetch(`${baseUrl}/console/git-permissions/orgs/${org_id}`)).json()) as ConsoleSet;
    if (set.items.length < 200) continue;
    const permissions = set.items
      .slice(0, 200)
      .map(({ git_connection_id, repo_path, prefix_path, group_prefix, read_only }) => ({
        git_connection_id,
        ...(repo_path ? { repo_path } : prefix_path ? { prefix_path } : { group_prefix }),
        read_only: read_only ?? false,
      }));
    const res = await fetch(`${baseUrl}/console/git-permissions/orgs/${org_id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ base_version: set.version, permissions }),
    });
    if (!res.ok) throw new Error(`could not prepare a 200-permission set: ${res.status} ${await res.text()}`);
    return org_id;
  }
  throw new Error('no seeded organization has 200 or more git permissions');
}

export async function benchGitPermissions({
  baseUrl,
  browser,
}: {
  baseUrl: string;
  browser: Browser;
}): Promise<Figure[]> {
  const orgId = await orgWith200(baseUrl);
  const page = await browser.newPage();
  await page.goto(`${baseUrl}/`); // warm the app shell and the route chunks' cache
  const timeIt = async (path: string, ready: RegExp) => {
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await page.goto(`${baseUrl}${path}`);
      await page.getByText(ready).first().waitFor({ timeout: 30_000 });
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    return Math.round(samples[2]!);
  };
  const table = await timeIt(`/orgs/${orgId}/git-permissions`, /All 200 permissions loaded/);
  const editor = await timeIt(`/orgs/${orgId}/git-permissions/edit`, /200 \/ 200 permissions/);
  await page.close();
  const pure = runGitPermissionBench(500);
  return [
    {
      name: 'load and render 200 permissions (table, 2 pages)',
      value: table,
      unit: 'ms',
      note: 'median of 5 page loads',
    },
    {
      name: 'load and render 200 permissions (bulk editor)',
      value: editor,
      unit: 'ms',
      note: 'median of 5 page loads',
    },
    ...pure.map((r) => ({
      name: r.name,
      value: Math.round(r.medianMs * 1000) / 1000,
      unit: 'ms',
      note: `median of ${r.iterations}`,
    })),
  ];
}
