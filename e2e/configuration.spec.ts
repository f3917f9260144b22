/**
 * Configuration as code from the screen: write a document (an error is shown at its line first), plan it,
 * review the planned changes, apply exactly that plan, and see the report and the revision in the history;
 * a second plan of the same document has no changes.
 */
import { expect, test } from './fixtures';

test('reviews a plan and applies it from the Configuration screen', async ({ page }) => {
  const name = `E2E Config ${Date.now().toString(36)}`;
  await page.goto('/settings/configuration');
  await expect(page.getByRole('heading', { name: 'Configuration', level: 1 })).toBeVisible();
  const editor = page.getByLabel('Document (YAML or JSON)');

  await editor.fill(`version: 1\norganizations:\n  - name: ${name}\n    acu_limit: -1\n`);
  await expect(page.getByRole('list', { name: 'Errors in the document' })).toContainText(
    'Line 4 (organizations[0].acu_limit)',
  );

  await editor.fill(
    `version: 1\norganizations:\n  - name: ${name}\n    acu_limit: 1200\n    allowed_tags: [release]\n`,
  );
  await page.getByRole('button', { name: 'Plan', exact: true }).click();
  const planned = page
    .getByRole('grid', { name: 'Planned changes' })
    .or(page.getByRole('table', { name: 'Planned changes' }));
  await expect(planned).toContainText(`Create the organization ${name}`);
  await expect(planned).toContainText('Allowed session tags');
  await expect(page.getByText('2 to create, 0 to update, 0 to delete.')).toBeVisible();

  await page.getByRole('button', { name: 'Apply this plan' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Applied 2 changes.')).toBeVisible();
  const history = page
    .getByRole('grid', { name: 'Applied revisions' })
    .or(page.getByRole('table', { name: 'Applied revisions' }));
  await expect(history).toContainText('2 created, 0 updated, 0 deleted');

  await page.getByRole('button', { name: 'Plan', exact: true }).click();
  await expect(page.getByText('No changes: live state matches the document.')).toBeVisible();
});
