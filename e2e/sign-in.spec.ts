/**
 * Issue 10 in the browser: the one-time link `npm start` prints opens the console (once); without a session
 * the console shows its sign-in page; signing out ends the session on the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { E2E_ACCESS_TOKEN, expect, test } from './fixtures';

// These tests start without the worker's session.
test.use({ storageState: { cookies: [], origins: [] } });

const ROOT = join(import.meta.dirname, '..');

test.describe('the one-time link printed by npm start', () => {
  let child: ChildProcess | undefined;
  let link: string;
  let output = '';

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // A console of its own: any free port, its own data, no access token (the link is the only way in). The
    // entry point of `npm start` without its build step: dist/ is built for this run already, and a rebuild
    // (when a source changed meanwhile) would pull the assets from under the pages of the other workers.
    child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['src/cli/main.ts'], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: join(ROOT, 'reports', `e2e-sign-in-${process.pid}-${Date.now()}`),
        SANDBOX_PORT: '',
        SANDBOX_TICK_MS: '1000',
        CONSOLE_AUTH: 'on',
        CONSOLE_ACCESS_TOKEN: '',
        AGENT_PLATFORM_API_KEY: '',
        AGENT_PLATFORM_BASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    link = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no sign-in link printed:\n${output}`)), 150_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const m = /https?:\/\/\S+\/console\/sign-in\?once=[A-Za-z0-9_-]{43}/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      };
      child!.stdout!.on('data', read);
      child!.stderr!.on('data', read);
      child!.on('exit', (code) => reject(new Error(`the console exited (${code}):\n${output}`)));
    });
  });

  test.afterAll(async () => {
    if (!child?.pid || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    // tsx and the node process it started: the process group of the child this test spawned.
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  });

  test('opens the console once; the same link again is refused', async ({ page }) => {
    expect(output).toContain('sign in by opening this one-time link');
    await page.goto(link);
    await expect(page).toHaveURL(new URL('/', link).href);
    await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Enterprise' })).toBeVisible();
    // Link-only access control: the shell offers to sign out.
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    await page.goto(link);
    await expect(page.getByRole('alert')).toContainText('already been used or is not valid');
    await expect(page.getByRole('heading', { name: 'Agent Platform Console' })).toBeVisible();
    // No token is configured on that console: the page offers no token form.
    await expect(page.getByLabel('Access token')).toHaveCount(0);
  });
});

test('without a session, opening the console shows the sign-in page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Agent Platform Console' })).toBeVisible();
  await expect(page.getByLabel('Access token')).toBeVisible();
  // A deep link too; and the API answers 401 without the session.
  await page.goto('/orgs/org-x/sessions');
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  expect((await page.request.get('/api/v3/enterprise/organizations')).status()).toBe(401);
});

test('a wrong token is refused without a hint; the right one opens the console', async ({ page }) => {
  await page.goto('/console/sign-in');
  // The page asks for a name too (required there; shown in the history beside each change).
  await page.getByLabel('Your name').fill('Ada Sign-in');
  await page.getByLabel('Access token').fill('not-the-token-at-all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Sign-in failed: the access token was not accepted.');
  // The name typed is kept; only the token is typed again.
  await expect(page.getByLabel('Your name')).toHaveValue('Ada Sign-in');
  await page.getByLabel('Access token').fill(E2E_ACCESS_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();
});

test('signing out returns to the sign-in page and ends the session on the server', async ({ page, context }) => {
  await page.goto('/');
  await page.getByLabel('Your name').fill('Ada Sign-in');
  await page.getByLabel('Access token').fill(E2E_ACCESS_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();
  const session = (await context.cookies()).find((c) => c.name === 'console_session')!;
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await expect(page.getByLabel('Access token')).toBeVisible();
  expect((await page.request.get('/api/v3/enterprise/organizations')).status()).toBe(401);
  // The old cookie, replayed, is refused too: the session is gone from the server, not just the browser.
  const replay = await page.request.get('/api/v3/enterprise/organizations', {
    headers: { cookie: `console_session=${session.value}` },
  });
  expect(replay.status()).toBe(401);
});

test('when the session ends while the console is open, the app goes to the sign-in page', async ({ page, context }) => {
  await page.goto('/');
  await page.getByLabel('Your name').fill('Ada Sign-in');
  await page.getByLabel('Access token').fill(E2E_ACCESS_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('table', { name: 'Organizations' })).toBeVisible();
  await context.clearCookies();
  // The next API call answers the console's own 401: the app navigates to sign-in (no credential banner).
  // A background read may get there first; otherwise opening an organization makes the call.
  await page
    .getByRole('table', { name: 'Organizations' })
    .getByRole('link', { name: 'Platform Engineering' })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await expect(page.getByLabel('Access token')).toBeVisible();
});
