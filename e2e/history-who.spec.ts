/**
 * Issue 12, "history shows who made each change": sign in on the sign-in page with a name (a blank one is
 * refused on its field), see it in the header, make a change, and find the name beside that change in the
 * history — in the table, on a phone's card, and on the revision's page. Uses its own seeded organization.
 */
import type { APIRequestContext } from '@playwright/test';
import { E2E_ACCESS_TOKEN, expect, test } from './fixtures';

// This journey signs in by itself, with a name (the worker's session has none).
test.use({ storageState: { cookies: [], origins: [] } });

async function orgIdByName(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.get('/api/v3/enterprise/organizations?first=200');
  const body = (await res.json()) as { items: Array<{ org_id: string; name: string }> };
  return body.items.find((o) => o.name === name)!.org_id;
}

test('a change made after signing in with a name shows that name in the history', async ({ page, request }) => {
  const orgId = await orgIdByName(request, 'Developer Experience');
  const who = `Dana Reyes ${test.info().workerIndex}-${Date.now() % 100_000}`;

  await page.goto('/console/sign-in');
  const name = page.getByLabel('Your name');
  await expect(name).toHaveAccessibleDescription(/1–80 characters/);
  await expect(name).toHaveAttribute('maxlength', '80');
  // A name of spaces passes the browser's `required`, and the server refuses it on the field.
  await name.fill('   ');
  await page.getByLabel('Access token').fill(E2E_ACCESS_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Check your name: nothing was signed in.');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(/Enter your name \(1–80 characters\)/);
  await expect(name).toBeFocused();

  await name.fill(who);
  await page.getByLabel('Access token').fill(E2E_ACCESS_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Organizations', level: 1 })).toBeVisible();
  // The header names the person beside Sign out.
  await expect(page.getByRole('banner').getByText(who)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  // A change: one permission's read-only switch (recorded in the history).
  await page.goto(`/orgs/${orgId}/git-permissions`);
  const toggle = page.getByRole('switch', { name: /^Read-only: / }).first();
  await toggle.click();
  await expect(page.getByText(/is now read-(only|write)/).first()).toBeVisible();

  await page.goto(`/orgs/${orgId}/git-permissions/history`);
  const revisions = page.getByRole('table', { name: 'Revisions' });
  await expect(revisions.getByRole('columnheader', { name: 'By' })).toBeVisible();
  const mine = revisions.getByRole('row').filter({ hasText: who });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('Read-only toggle');

  // On a phone the row is a card, and it still says who.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('main').getByText(who)).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  // The revision's own page says who made it.
  await mine.getByRole('link', { name: /^View revision #\d+$/ }).click();
  await expect(page.getByRole('heading', { name: /^Revision #\d+: Read-only toggle$/, level: 1 })).toBeVisible();
  await expect(page.getByRole('main').getByText(who)).toBeVisible();
});
