/**
 * The foundation journey: open the console on the embedded sandbox, see the organizations, switch
 * organization (the URL changes), reload a deep link, and see the 401 banner when the credential is wrong.
 */
import { join } from 'node:path';
import { createConsoleServer } from '../src/server/app';
import { startSandbox, type RunningSandbox } from '../src/sandbox';
import { createStaticHandler } from '../src/server/static';
import { testConfig } from '../src/test/harness';
import { expect, test } from './fixtures';

test('shows the enterprise organizations on the overview', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Organizations' });
  await expect(table.getByRole('link', { name: 'Platform Engineering' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Payments Core' })).toBeVisible();
  await expect(page.getByText(/Loaded \d+ of \d+/)).toBeVisible();
  await expect(page.getByText('Sandbox', { exact: true })).toBeVisible();
});

test('switching organization changes the URL, and a deep link survives a reload', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: 'Platform Engineering' }).click();
  await expect(page).toHaveURL(/\/orgs\/org-[0-9a-f]+$/);
  await expect(page.getByRole('heading', { name: 'Platform Engineering' })).toBeVisible();
  const first = new URL(page.url()).pathname;

  await page.getByRole('button', { name: 'Switch organization' }).click();
  await page.getByRole('textbox', { name: 'Search organizations' }).fill('payments');
  await page.getByRole('option', { name: /Payments Core/ }).click();
  await expect(page.getByRole('heading', { name: 'Payments Core' })).toBeVisible();
  const second = new URL(page.url()).pathname;
  expect(second).toMatch(/^\/orgs\/org-[0-9a-f]+$/);
  expect(second).not.toBe(first);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payments Core' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Switch organization' })).toHaveText(/Payments Core/);
});

test('the organization switcher works with the keyboard alone and names the last organization on enterprise pages', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: 'Platform Engineering' }).click();
  await expect(page.getByRole('heading', { name: 'Platform Engineering' })).toBeVisible();
  const switcher = page.getByRole('button', { name: 'Switch organization' });
  await switcher.focus();
  await page.keyboard.press('ArrowDown');
  const search = page.getByRole('textbox', { name: 'Search organizations' });
  await expect(search).toBeFocused();
  await page.keyboard.type('pay');
  // The active option follows the arrow keys (aria-activedescendant), Enter chooses it.
  const activeId = await search.getAttribute('aria-activedescendant');
  await expect(page.locator(`[id="${activeId}"]`)).toContainText('Payments Core');
  await page.keyboard.press('Enter');
  // A page change moves focus to the new page's heading and names the page in the tab's title.
  await expect(page.getByRole('heading', { name: 'Payments Core', level: 1 })).toBeFocused();
  await expect(page).toHaveTitle('Payments Core · Agent Platform Console');

  // Escape closes the menu and returns focus to the button.
  await switcher.focus();
  await page.keyboard.press('ArrowDown');
  await expect(search).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Escape');
  await expect(search).toBeHidden();
  await expect(switcher).toBeFocused();

  // An enterprise page: the switcher names the organization the links below it lead to.
  await page.goto('/audit-logs');
  await expect(switcher).toHaveText(/Payments Core/);
});

test('an unknown organization or page shows a not-found view, not a crash', async ({ page }) => {
  await page.goto('/orgs/org-doesnotexist');
  await expect(page.getByRole('heading', { name: 'Organization not found' })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the overview' }).click();
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();
});

test('the theme toggle switches to dark and the choice survives a reload', async ({ page }) => {
  await page.goto('/');
  const html = page.locator('html');
  await page.getByRole('button', { name: /theme/ }).click(); // system → light
  await page.getByRole('button', { name: /theme/ }).click(); // light → dark
  await expect(html).toHaveClass(/dark/);
  await page.reload();
  await expect(html).toHaveClass(/dark/);
});

test.describe('with a wrong credential', () => {
  let sandbox: RunningSandbox;
  let server: ReturnType<typeof createConsoleServer>;
  let url: string;

  test.beforeAll(async () => {
    sandbox = await startSandbox({ dbPath: ':memory:' });
    server = createConsoleServer({
      config: testConfig({ mode: 'upstream' }),
      upstream: { baseUrl: sandbox.url, apiKey: 'cog_wrong_credential' },
      serveApp: createStaticHandler(join(import.meta.dirname, '..', 'dist')),
    });
    const { port } = await server.listen();
    url = `http://localhost:${port}`;
  });
  test.afterAll(async () => {
    await server.close();
    await sandbox.stop();
  });

  test('shows a banner that tells how to configure the credential', async ({ page }) => {
    await page.goto(url);
    const banner = page.getByRole('alert').filter({ hasText: 'refused the console' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('AGENT_PLATFORM_API_KEY');
    await expect(banner).toContainText('AGENT_PLATFORM_BASE_URL');
    await expect(page.getByText('[object Object]')).toHaveCount(0);
  });
});
