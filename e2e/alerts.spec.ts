/**
 * Alerts: an admin defines a rule in the form (sessions in error or suspended for more than a minute — the
 * sandbox always has some), checks the rules now, and sees the notifications with the header's unread count;
 * a notification links to the screen that explains it.
 */
import { expect, test } from './fixtures';

test('creates a rule and sees its notifications and the unread count in the header', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Enterprise' }).getByRole('link', { name: 'Alerts' }).click();
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Alerts' }).getByRole('link', { name: 'Rules' }).click();
  await expect(page.getByRole('heading', { name: 'Alert rules', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'New rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New alert rule' });
  await dialog.getByLabel('Name').fill('Stuck sessions (e2e)');
  await dialog.getByRole('combobox', { name: 'Watches' }).click();
  await page.getByRole('option', { name: 'Session in error or suspended' }).click();
  // A missing duration is refused where the admin types it.
  await dialog.getByLabel('Longer than (minutes)').fill('');
  await dialog.getByRole('button', { name: 'Create rule' }).click();
  await expect(dialog.getByText('Longer than (minutes) is required')).toBeVisible();
  await dialog.getByLabel('Longer than (minutes)').fill('1');
  await dialog.getByRole('button', { name: 'Create rule' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /Stuck sessions \(e2e\)/ });
  await expect(row).toContainText('A session error or suspended for more than 1 minutes');

  await page.getByRole('navigation', { name: 'Alerts' }).getByRole('link', { name: 'Notifications' }).click();
  await page.getByRole('button', { name: 'Check now' }).click();
  const first = page.getByRole('link', { name: /Session .* is (error|suspended) for more than 1 minutes/ }).first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: /^Notifications, \d+ unread$/ })).toBeVisible();
  await expect(page.getByTestId('unread-count')).toHaveText(/^(\d+|99\+)$/);

  // The notification leads to the session it is about, and counts as read.
  await first.click();
  await expect(page).toHaveURL(/\/sessions\/[^/]+$/);
});
