/** Snapshot builds: filter by status and "active only" through the screen, with the filters kept in the URL. */
import type { Page } from '@playwright/test';
import { expect, firstOrgId, test } from './fixtures';

const table = (page: Page) => page.getByRole('table', { name: 'Snapshot builds' });
/** Chooses a status in the Status select (a listbox, not a native select). */
async function chooseStatus(page: Page, label: string) {
  await page.getByLabel('Status').click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

test('filters builds by status and shows the active build only', async ({ page, request }) => {
  await page.goto(`/orgs/${await firstOrgId(request)}/snapshot-builds`);
  await expect(page.getByRole('heading', { name: 'Snapshot builds' })).toBeVisible();
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();

  await chooseStatus(page, 'Failed');
  await expect(page).toHaveURL(/status=failed/);
  const rows = table(page).getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  const statuses = await rows.evaluateAll((els) =>
    els.slice(1).map((el) => el.querySelectorAll('[role=cell]')[1]?.textContent),
  );
  expect(statuses.length).toBeGreaterThan(0);
  expect(new Set(statuses)).toEqual(new Set(['Failed']));
  // Every finished build shows its duration.
  await expect(rows.nth(1).getByRole('cell').nth(5)).toHaveText(/\d+ (s|min|h)/);

  await page.reload();
  await expect(page.getByLabel('Status')).toHaveText('Failed');

  await chooseStatus(page, 'Succeeded');
  // URL-driven: the checkbox's state lands with the navigation, so click, then expect it checked.
  await page.getByLabel('Active only').click();
  await expect(page.getByLabel('Active only')).toBeChecked();
  await expect(page).toHaveURL(/active=true/);
  await expect(page.getByText(/^Loaded 1 of 1/)).toBeVisible();
  await expect(rows.nth(1)).toContainText('Succeeded');
  await expect(rows.nth(1)).toContainText('Active');

  await chooseStatus(page, 'Failed');
  await expect(page.getByText('The active build is not failed')).toBeVisible();
});
