/**
 * Knowledge notes as an admin uses them: filters that live in the URL, and a note created through the form
 * (its trigger sent under both names) then found again by search.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const table = (page: Page) => page.getByRole('table', { name: 'Knowledge notes' });

test('filters notes through the URL, and the filters survive a reload', async ({ page }) => {
  await page.goto('/knowledge?access_type=enterprise&folder_path=%2FEngineering%2FBackend%2FPayments');
  await expect(page.getByRole('heading', { name: 'Knowledge notes' })).toBeVisible();
  await expect(page.getByLabel('Access type')).toHaveText('Enterprise');
  await expect(
    page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /Payments/ }),
  ).toHaveAttribute('aria-current', 'true');
  await expect(table(page).getByRole('link', { name: 'Money handling' })).toBeVisible();
  await expect(table(page).getByRole('link', { name: 'Idempotency keys' })).toBeVisible();
  await expect(page.getByText(/^Loaded 2 of 2/)).toBeVisible();

  // Typing a search narrows the list and writes it into the URL.
  await page.getByLabel('Search').fill('idempotency');
  await expect(page).toHaveURL(/search=idempotency/);
  await expect(table(page).getByRole('link', { name: 'Money handling' })).toHaveCount(0);
  await expect(table(page).getByRole('link', { name: 'Idempotency keys' })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Search')).toHaveValue('idempotency');
  await expect(table(page).getByRole('link', { name: 'Idempotency keys' })).toBeVisible();

  // Choosing organization notes in no folder: the URL follows, and every row is an organization note.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page
    .getByLabel('Access type')
    .click()
    .then(() => page.getByRole('option', { name: 'Organization' }).click());
  await page
    .getByRole('navigation', { name: 'Folders' })
    .getByRole('button', { name: /No folder/ })
    .click();
  await expect(page).toHaveURL(/access_type=org/);
  await expect(page).toHaveURL(/folder_path=%2F(&|$)/);
  const rows = table(page).getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  await expect(table(page).getByText('Enterprise', { exact: true })).toHaveCount(0);
  await expect(table(page).getByText('Organization', { exact: true }).first()).toBeVisible();
});

test('creates a note with the form and finds it by search', async ({ page }) => {
  const name = `Release notes style ${Date.now().toString(36)}`;
  await page.goto('/knowledge/new');
  await page.getByRole('button', { name: 'Create note' }).click();
  // Validated before sending, with the contract's own messages, and focus on the first field to fix.
  await expect(page.getByText('name must not be empty')).toBeVisible();
  await expect(page.getByText('body must not be empty')).toBeVisible();
  await expect(page.getByLabel('Name')).toBeFocused();

  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Trigger').fill('When writing release notes');
  await page.getByLabel('Body').fill('## Tone\n\nWrite **plain** sentences.\n\n- one change per line\n- link the PR');
  await page.getByRole('combobox', { name: 'Folder' }).click();
  await page.getByRole('combobox', { name: 'Search folders' }).fill('onboard');
  await page.getByRole('option', { name: '/Onboarding', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Folder' })).toHaveText('/Onboarding');
  await page.getByRole('switch', { name: 'Enabled' }).click();
  await expect(page.getByRole('switch', { name: 'Enabled' })).toHaveAttribute('aria-checked', 'false');
  // The trigger goes under the spec's name and the vendor's, so that either kind of upstream stores it.
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/knowledge/notes'));
  await page.getByRole('button', { name: 'Create note' }).click();
  expect((await sent).postDataJSON()).toMatchObject({
    trigger_description: 'When writing release notes',
    trigger: 'When writing release notes',
  });

  // The note view: Markdown rendered, the switch's state kept.
  await expect(page.getByRole('heading', { name })).toBeVisible();
  const body = page.getByRole('region', { name: 'Note body' });
  await expect(body.getByRole('heading', { name: 'Tone' })).toBeVisible();
  await expect(body.locator('strong')).toHaveText('plain');
  await expect(body.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(page.getByText('/Onboarding', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'All notes' }).click();
  await page.getByLabel('Search').fill(name.toLowerCase());
  await expect(page).toHaveURL(/search=/);
  await expect(table(page).getByRole('link', { name })).toBeVisible();
  await expect(page.getByText(/^Loaded 1 of 1/)).toBeVisible();
});
