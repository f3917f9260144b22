/**
 * Repository indexing: remove two repositories after a confirmation, and see a removal with an unknown path
 * refused with the path named and nothing changed. Runs on a later seeded organization so other journeys
 * see the first ones unchanged.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function orgId(request: APIRequestContext, index: number): Promise<string> {
  const res = await request.get('/api/v3/enterprise/organizations?first=20');
  const body = (await res.json()) as { items: Array<{ org_id: string }> };
  return body.items[index]!.org_id;
}

const table = (page: Page) => page.getByRole('table', { name: 'Repositories' });
const row = (page: Page, path: string) => table(page).getByRole('row').filter({ hasText: path });

test('selects two repositories and removes them from indexing after confirming', async ({ page, request }) => {
  await page.goto(`/orgs/${await orgId(request, 4)}/indexing`);
  await expect(page.getByRole('heading', { name: 'Repository indexing' })).toBeVisible();
  const indexed = table(page).getByRole('row').filter({ hasText: 'Indexing on' });
  await expect(indexed.nth(1)).toBeVisible();
  const paths: string[] = [];
  for (const i of [0, 1]) {
    const text = (await indexed.nth(i).getByRole('cell').nth(1).textContent())!.trim();
    paths.push(text);
    await page.getByRole('checkbox', { name: `Select ${text}` }).check();
  }
  await expect(page.getByText('2 of at most 100 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Remove from indexing (2)' }).click();

  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('heading', { name: 'Remove 2 repositories from indexing?' })).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Repositories to remove' })).toContainText(paths[0]!);
  await dialog.getByRole('button', { name: 'Remove from indexing' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'Removed 2 repositories from indexing' })).toBeVisible();
  for (const p of paths) {
    await expect(row(page, p)).toContainText('Not indexed');
    await expect(row(page, p)).toContainText('No branches');
  }
});

test('refuses a removal with an unknown path, naming it, and changes nothing', async ({ page, request }) => {
  await page.goto(`/orgs/${await orgId(request, 5)}/indexing`);
  const indexed = table(page).getByRole('row').filter({ hasText: 'Indexing on' });
  await expect(indexed.first()).toBeVisible();
  const known = (await indexed.first().getByRole('cell').nth(1).textContent())!.trim();
  const unknown = `acme/no-such-repo-${Date.now().toString(36)}`;

  await page.getByLabel('Repository paths').fill(`${known}\n${unknown}`);
  await page.getByRole('button', { name: 'Remove these from indexing' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('heading', { name: 'Remove 2 repositories from indexing?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove from indexing' }).click();

  const alert = page.getByRole('alert').filter({ hasText: 'nothing was changed' });
  await expect(alert).toBeVisible();
  // Where the admin looks next: in view, with focus on it (not on the body, above the viewport).
  await expect(alert).toBeInViewport();
  await expect(page.locator(':focus')).toContainText('nothing was changed');
  await expect(alert.getByRole('list', { name: 'Repositories not found' })).toHaveText(unknown);
  await expect(row(page, known)).toContainText('Indexing on');
  await page.reload();
  await expect(row(page, known)).toContainText('Indexing on');
});

test('falls back to typed paths when the API does not list repositories', async ({ page, request }) => {
  const org = await orgId(request, 5);
  // An upstream without the listing extension.
  await page.route(`**/api/v3beta1/organizations/${org}/repositories/indexing?*`, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({
          status: 405,
          contentType: 'application/problem+json',
          body: JSON.stringify({ status: 405, title: 'Method Not Allowed', detail: 'GET is not allowed' }),
        })
      : route.fallback(),
  );
  await page.goto(`/orgs/${org}/indexing`);
  await expect(page.getByRole('note')).toContainText('enter the paths of the repositories to remove');
  await expect(page.getByRole('table', { name: 'Repositories' })).toHaveCount(0);
  await expect(page.getByLabel('Repository paths')).toBeVisible();
});
