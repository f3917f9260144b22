/**
 * Git permissions journeys: bulk-edit a set of more than 100 (several pages) without losing anything outside
 * the edit; import CSV, see the diff, apply; restore the previous revision; see a concurrent change detected
 * and reapply on top of it. Each test uses its own seeded organization.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';

interface Perm {
  git_permission_id: string;
  git_connection_id: string;
  repo_path: string | null;
  prefix_path: string | null;
  group_prefix: string | null;
  read_only: boolean;
}

async function orgIdByName(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.get('/api/v3/enterprise/organizations?first=200');
  const body = (await res.json()) as { items: Array<{ org_id: string; name: string }> };
  return body.items.find((o) => o.name === name)!.org_id;
}

async function listAll(request: APIRequestContext, orgId: string): Promise<Perm[]> {
  const items: Perm[] = [];
  let after: string | null = null;
  do {
    const res = await request.get(
      `/api/v3/enterprise/organizations/${orgId}/git-providers/permissions?first=100${after ? `&after=${after}` : ''}`,
    );
    expect(res.status()).toBe(200);
    const page = (await res.json()) as { items: Perm[]; has_next_page: boolean; end_cursor: string | null };
    items.push(...page.items);
    after = page.has_next_page ? page.end_cursor : null;
  } while (after);
  return items;
}

const key = (p: Perm) => `${p.git_connection_id}|${p.repo_path ?? ''}|${p.prefix_path ?? ''}|${p.group_prefix ?? ''}`;
const state = (items: Perm[]) => new Map(items.map((p) => [key(p), p.read_only]));

test('edits a set of more than 100 permissions (several pages) and loses nothing outside the edit', async ({
  page,
  request,
}) => {
  const orgId = await orgIdByName(request, 'Platform Engineering');
  const before = await listAll(request, orgId);
  expect(before.length).toBeGreaterThan(100);

  await page.goto(`/orgs/${orgId}/git-permissions`);
  await expect(page.getByText(`All ${before.length} permissions loaded (2 pages)`)).toBeVisible();
  await page.getByRole('link', { name: 'Bulk edit' }).click();
  await expect(page.getByText(`${before.length} / 200 permissions`)).toBeVisible();

  await page.getByLabel('Read-only, row 1', { exact: true }).click();
  await page.getByRole('button', { name: 'Remove row 2', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search repositories' }).fill('ledger');
  const addButton = page.getByRole('list', { name: 'Repositories' }).getByRole('button', { name: /^Add / }).first();
  await expect(addButton).toHaveAttribute('aria-label', /ledger/);
  const addedPath = ((await addButton.getAttribute('aria-label')) ?? '').replace(/^Add /, '');
  await addButton.click();
  await expect(page.getByText(`${before.length} / 200 permissions`)).toBeVisible();
  await expect(page.getByText('1 added, 1 removed, 1 changed')).toBeVisible();

  await page.getByRole('button', { name: 'Review changes' }).click();
  const review = page.getByRole('region', { name: 'Review changes' });
  await expect(review.getByRole('region', { name: 'Removed' })).toContainText(
    before[1]!.repo_path ?? before[1]!.group_prefix ?? before[1]!.prefix_path ?? '',
  );
  await review.getByRole('button', { name: 'Apply 3 changes' }).click();
  await expect(page.getByText(`Applied. The organization now has ${before.length} git permissions.`)).toBeVisible();

  const after = state(await listAll(request, orgId));
  const expected = state(before);
  expected.set(key(before[0]!), !before[0]!.read_only);
  expected.delete(key(before[1]!));
  const addedKey = [...after.keys()].find((k) => !expected.has(k))!;
  expect(addedKey).toContain(`|${addedPath}|`);
  expected.set(addedKey, false);
  expect(after).toEqual(expected);
});

test('imports CSV, shows the diff and applies it', async ({ page, request }) => {
  const orgId = await orgIdByName(request, 'Mobile Apps');
  const before = await listAll(request, orgId);
  const conn = (
    (await (await request.get('/api/v3/enterprise/git-providers/connections')).json()) as {
      items: Array<{ git_connection_id: string }>;
    }
  ).items[1]!.git_connection_id;

  await page.goto(`/orgs/${orgId}/git-permissions/edit`);
  await expect(page.getByText(`${before.length} / 200 permissions`)).toBeVisible();
  await page.getByRole('button', { name: 'Import or paste…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import permissions' });
  await dialog
    .getByLabel('CSV or JSON', { exact: true })
    .fill(
      `git_connection_id,repo_path,prefix_path,group_prefix,read_only\n${conn},,,mobile/apps,true\n${conn},payments/core/e2e-import,,,false\n`,
    );
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText(`${before.length + 2} / 200 permissions`)).toBeVisible();

  await page.getByRole('button', { name: 'Review changes' }).click();
  const review = page.getByRole('region', { name: 'Review changes' });
  await expect(review.getByText('2 added, 0 removed, 0 changed')).toBeVisible();
  await expect(review.getByRole('region', { name: 'Added' })).toContainText('Group mobile/apps');
  await review.getByRole('button', { name: 'Apply 2 changes' }).click();
  await expect(page.getByText(`Applied. The organization now has ${before.length + 2} git permissions.`)).toBeVisible();

  const after = await listAll(request, orgId);
  expect(after).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ git_connection_id: conn, group_prefix: 'mobile/apps', read_only: true }),
    ]),
  );
  expect(after).toEqual(
    expect.arrayContaining([expect.objectContaining({ repo_path: 'payments/core/e2e-import', read_only: false })]),
  );
  expect(after.length).toBe(before.length + 2);
});

test('restores the previous revision from the history', async ({ page, request }) => {
  const orgId = await orgIdByName(request, 'Security Operations');
  const original = await listAll(request, orgId);

  await page.goto(`/orgs/${orgId}/git-permissions/edit`);
  await expect(page.getByText(`${original.length} / 200 permissions`)).toBeVisible();
  await page.getByRole('button', { name: 'Remove row 1', exact: true }).click();
  await page.getByRole('button', { name: 'Remove row 1', exact: true }).click();
  await page.getByRole('button', { name: 'Review changes' }).click();
  await page.getByRole('button', { name: 'Apply 2 changes' }).click();
  await expect(
    page.getByText(`Applied. The organization now has ${original.length - 2} git permissions.`),
  ).toBeVisible();
  expect(await listAll(request, orgId)).toHaveLength(original.length - 2);

  await page.getByRole('link', { name: 'View history' }).click();
  const revisions = page.getByRole('table', { name: 'Revisions' });
  const latest = revisions.getByRole('row').nth(1);
  await expect(latest).toContainText('Replace');
  await latest.getByRole('button', { name: 'Restore previous set' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByText(`Current set: ${original.length - 2} permissions.`)).toBeVisible();
  // The restore shows what it changes before it applies: the two removed permissions come back.
  await expect(dialog.getByRole('region', { name: 'What the restore changes' })).toContainText('2 added');
  await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
  // Done: the dialog closes, a toast says what happened, and focus is back on the button that opened it.
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(`Restored: the organization now has ${original.length} permissions`).first(),
  ).toBeVisible();

  expect(state(await listAll(request, orgId))).toEqual(state(original));
  await expect(revisions.getByRole('row').nth(1)).toContainText('Restore');
});

test('detects a concurrent change, shows it, and reapplies the edit on top', async ({ page, request }) => {
  const orgId = await orgIdByName(request, 'Growth Web');
  const before = await listAll(request, orgId);

  await page.goto(`/orgs/${orgId}/git-permissions/edit`);
  await expect(page.getByText(`${before.length} / 200 permissions`)).toBeVisible();
  await page.getByLabel('Read-only, row 1', { exact: true }).click();

  // Meanwhile another admin toggles a different permission directly through the API.
  const other = before[5]!;
  const patch = await request.patch(
    `/api/v3/enterprise/organizations/${orgId}/git-providers/permissions/${other.git_permission_id}`,
    {
      data: { read_only: !other.read_only },
    },
  );
  expect(patch.status()).toBe(200);

  await page.getByRole('button', { name: 'Review changes' }).click();
  await page.getByRole('button', { name: 'Apply 1 changes' }).click();
  const conflict = page.getByRole('region', { name: 'Conflict' });
  await expect(conflict.getByText('Another change landed while you were editing. Nothing was applied.')).toBeVisible();
  await expect(conflict.getByText('0 added, 0 removed, 1 changed', { exact: false }).first()).toBeVisible();
  await conflict.getByRole('button', { name: 'Reapply my edit on top' }).click();

  const review = page.getByRole('region', { name: 'Review changes' });
  await expect(review.getByText('0 added, 0 removed, 1 changed')).toBeVisible();
  await review.getByRole('button', { name: 'Apply 1 changes' }).click();
  await expect(page.getByText(`Applied. The organization now has ${before.length} git permissions.`)).toBeVisible();

  const after = state(await listAll(request, orgId));
  const expected = state(before);
  expected.set(key(before[0]!), !before[0]!.read_only);
  expected.set(key(other), !other.read_only);
  expect(after).toEqual(expected);
});
