/**
 * Keyboard-only journeys and history: the command palette to a session by its title, terminate it through
 * the dialog and land back on the trigger; filters are history steps that Back and Forward restore.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';

async function firstOrg(request: APIRequestContext): Promise<string> {
  const res = await request.get('/api/v3/enterprise/organizations?first=1');
  return ((await res.json()) as { items: Array<{ org_id: string }> }).items[0]!.org_id;
}

test('the command palette goes to a session by title; terminating it by keyboard returns focus to the trigger', async ({
  page,
  request,
}) => {
  const orgId = await firstOrg(request);
  const title = `Palette target ${Date.now()}`;
  const created = await request.post(`/api/v3/organizations/${orgId}/sessions`, { data: { prompt: 'E2E', title } });
  const sessionId = ((await created.json()) as { session_id: string }).session_id;

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Organizations', level: 1 })).toBeVisible();
  await page.keyboard.press('Control+k');
  const search = page.getByRole('textbox', { name: 'Search screens, organizations, sessions and notes' });
  await expect(search).toBeFocused();
  await page.keyboard.type(title);
  const option = page.getByRole('option', { name: new RegExp(title) });
  await expect(option).toBeVisible();
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/sessions/${sessionId}$`));
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeFocused();

  // Terminate through the dialog with the keyboard alone.
  const trigger = page.getByRole('button', { name: 'Terminate', exact: true });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Terminate this session?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Terminate session' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const done = page.getByRole('button', { name: 'Terminated' });
  await expect(done).toBeFocused();
  await expect(done).toBeDisabled();
});

test('`?` lists the shortcuts and `/` focuses the screen`s search', async ({ page, request }) => {
  const orgId = await firstOrg(request);
  await page.goto(`/orgs/${orgId}/git-permissions`);
  await expect(page.getByRole('heading', { name: 'Git permissions', level: 1 })).toBeVisible();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('command palette');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Filter permissions' })).toBeFocused();
});

test('Back and Forward after three filter changes restore each state', async ({ page, request }) => {
  const orgId = await firstOrg(request);
  await page.goto(`/orgs/${orgId}/sessions`);
  const archived = page.getByRole('combobox', { name: 'Archived' });
  const choose = async (label: string) => {
    await archived.click();
    await page.getByRole('option', { name: label }).click();
  };
  await choose('Not archived');
  await expect(page).toHaveURL(/archived=false(&|$)/);
  await choose('Archived only');
  await expect(page).toHaveURL(/archived=true(&|$)/);
  await page.getByRole('button', { name: /^Origin:/ }).click();
  // The box follows the URL: it shows checked once the navigation it started has landed.
  await page.getByRole('checkbox', { name: 'api', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: 'api', exact: true })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/origins=api/);

  await page.goBack();
  await expect(page).not.toHaveURL(/origins=/);
  await expect(archived).toHaveText(/Archived only/);
  await page.goBack();
  await expect(page).toHaveURL(/archived=false(&|$)/);
  await expect(archived).toHaveText(/Not archived/);
  await page.goBack();
  await expect(page).not.toHaveURL(/archived=/);
  await expect(archived).toHaveText(/All sessions/);
  await page.goForward();
  await expect(archived).toHaveText(/Not archived/);
  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(/origins=api/);
  await expect(page.getByRole('button', { name: /^Origin: api/ })).toBeVisible();
});

test('a saved view reopens with its filters', async ({ page, request }) => {
  const orgId = await firstOrg(request);
  await page.goto(`/orgs/${orgId}/sessions?archived=false&origins=api`);
  await expect(page.getByRole('button', { name: /^Origin: api/ })).toBeVisible();
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name: 'Save current view…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the current view' });
  await dialog.getByLabel('Name').fill('API, live');
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog).toBeHidden();

  // Clear the filters, then reopen the view.
  await page.goto(`/orgs/${orgId}/sessions`);
  await expect(page.getByRole('combobox', { name: 'Archived' })).toHaveText(/All sessions/);
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name: 'API, live' }).click();
  await expect(page).toHaveURL(/archived=false/);
  await expect(page).toHaveURL(/origins=api/);
  await expect(page.getByRole('combobox', { name: 'Archived' })).toHaveText(/Not archived/);
  await expect(page.getByRole('button', { name: /^Origin: api/ })).toBeVisible();

  // Kept in the browser: still there after a reload.
  await page.reload();
  await page.getByRole('button', { name: 'Views' }).click();
  await expect(page.getByRole('menuitem', { name: 'API, live' })).toBeVisible();
});

test('focus is never dropped to the body: the skip link, the palette and the IP access list review', async ({
  page,
}) => {
  await page.goto('/settings/ip-access-list');
  await expect(page.getByRole('heading', { name: 'IP access list', level: 1 })).toBeVisible();

  // The skip link moves focus into the content: the next Tab goes on from there, not from the header.
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  // The palette: its results are reachable by Tab; Escape returns focus to what opened it.
  const goTo = page.getByRole('button', { name: /Go to/ });
  await goTo.focus();
  await page.keyboard.press('Enter');
  const search = page.getByRole('textbox', { name: 'Search screens, organizations, sessions and notes' });
  await expect(search).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('listbox', { name: 'Results' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(goTo).toBeFocused();
  // Opened with Ctrl+K from the content: focus goes back there.
  await page.locator('main').focus();
  await page.keyboard.press('Control+k');
  await expect(search).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('main')).toBeFocused();

  // The review takes focus, and Back gives it to the button that opened it.
  await page
    .getByRole('button', { name: /^Remove range \d+ \((?!127\.|::1)/ })
    .first()
    .click();
  const review = page.getByRole('button', { name: 'Review changes' });
  await review.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Review the change', level: 2 })).toBeFocused();
  await page.getByRole('button', { name: 'Back to editing' }).focus();
  await page.keyboard.press('Enter');
  await expect(review).toBeFocused();
  await page.getByRole('button', { name: 'Discard edits' }).click();
  await expect(page.getByText(/ranges · no changes/)).toBeFocused();
});
