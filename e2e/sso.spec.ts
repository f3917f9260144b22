/**
 * Issue 31 in the browser: people sign in through a real OpenID Connect provider (oidc-provider on loopback,
 * started here; its development login form takes any login), get the console roles of the policy file, and
 * every change they make appears in Console activity under their name. A console of its own, started by this
 * spec with OIDC settings and a policy (discovery is lazy, so it starts whatever the provider's state).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startTestProvider, type TestProvider } from '../src/server/oidc/test-provider';

const ROOT = join(import.meta.dirname, '..');
const BASE = Number(process.env.E2E_PORT ?? 4173);
const PORT = BASE + 2;
const IDP_PORT = BASE + 3;
const ORIGIN = `http://localhost:${PORT}`;
const TOKEN = 'e2e-sso-access-token-not-a-secret';

test.use({ storageState: { cookies: [], origins: [] }, baseURL: ORIGIN });
test.describe.configure({ mode: 'serial' });

let child: ChildProcess | undefined;
let provider: TestProvider | undefined;
let orgA = '';
let orgB = '';
let output = '';

const api = async (path: string) => {
  const res = await fetch(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dir = join(ROOT, 'reports', `e2e-sso-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const policyFile = join(dir, 'policy.json');
  const policy = (org: string) =>
    JSON.stringify({
      roles: {
        operator: {
          permissions: ['ViewOrgSessions', 'ManageOrgSessions', 'ManageGitIntegrations'],
          organizations: [org],
        },
      },
      grants: [
        { group: 'console-admins', role: 'admin' },
        { group: 'help-desk', role: 'viewer' },
        { email: 'dana@example.com', role: 'operator' },
        { token: true, role: 'viewer' },
      ],
    });
  writeFileSync(policyFile, policy('org-not-known-yet'));
  provider = await startTestProvider({
    port: IDP_PORT,
    clients: [
      {
        client_id: 'console-e2e',
        client_secret: 'console-e2e-secret-0123456789',
        redirect_uris: [`${ORIGIN}/console/oidc/callback`],
      },
    ],
  });
  child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['src/cli/main.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dir,
      SANDBOX_PORT: '',
      SANDBOX_TICK_MS: '1000',
      CONSOLE_AUTH: 'on',
      CONSOLE_ACCESS_TOKEN: TOKEN,
      AGENT_PLATFORM_API_KEY: '',
      AGENT_PLATFORM_BASE_URL: '',
      TLS_CERT_FILE: '',
      TLS_KEY_FILE: '',
      CONSOLE_PUBLIC_URL: ORIGIN,
      CONSOLE_OIDC_ISSUER: provider.issuer,
      CONSOLE_OIDC_CLIENT_ID: 'console-e2e',
      CONSOLE_OIDC_CLIENT_SECRET: 'console-e2e-secret-0123456789',
      CONSOLE_OIDC_PROVIDER_NAME: 'Test IdP',
      CONSOLE_POLICY_FILE: policyFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the console exited:\n${output}`);
    const up = await fetch(`${ORIGIN}/console/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    if (i > 300) throw new Error(`the console did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  // The token is a viewer: it reads the organizations; the operator's role is then limited to the first.
  const orgs = (await api('/api/v3/enterprise/organizations?first=2')).body.items as Array<{ org_id: string }>;
  orgA = orgs[0]!.org_id;
  orgB = orgs[1]!.org_id;
  writeFileSync(policyFile, policy(orgA));
  // The file is watched (polled every 2 s): reloaded without a restart.
  for (let i = 0; !output.includes('CONSOLE_POLICY_FILE reloaded'); i++) {
    if (i > 50) throw new Error(`the policy was not reloaded:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  await provider?.close();
});

/** Signs in through the provider's login form, as a person would. */
async function signIn(page: Page, login: string) {
  await page.goto('/console/sign-in');
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: /sign-in/i }).click();
  await expect(page).toHaveURL(`${ORIGIN}/`);
}

/** A console write made by the signed-in browser (its cookie), as the screens make them. */
async function toggleGitPermission(page: Page, org: string) {
  const headers = { origin: ORIGIN };
  const set = await page.request.get(`/console/git-permissions/orgs/${org}`, { headers });
  if (!set.ok()) return { status: set.status(), body: (await set.json()) as Record<string, unknown> };
  const { items, version } = (await set.json()) as {
    items: Array<{ git_permission_id: string; read_only: boolean }>;
    version: string;
  };
  const res = await page.request.patch(
    `/console/git-permissions/orgs/${org}/permissions/${items[0]!.git_permission_id}`,
    {
      headers,
      data: { read_only: !items[0]!.read_only, base_version: version },
    },
  );
  return { status: res.status(), body: (await res.json()) as Record<string, unknown> };
}

test('the viewer reads but cannot write: disabled with the reason, and the server refuses naming the policy', async ({
  page,
}) => {
  await signIn(page, 'hugo');
  await expect(page.getByTestId('signed-in-as')).toContainText('Hugo Helpdesk');
  await expect(page.getByTestId('signed-in-as')).toContainText('viewer');
  await page.goto(`/orgs/${orgA}/git-permissions`);
  await expect(page.getByRole('button', { name: 'Bulk edit' })).toBeDisabled();
  const refused = await toggleGitPermission(page, orgA);
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({
    type: 'urn:agent-platform-console:policy-refused',
    permission: 'ManageGitIntegrations',
    organization: orgA,
  });
  expect(String(refused.body.detail)).toContain("console's policy");
});

test('the operator changes git permissions in their organization and is refused in another', async ({ page }) => {
  await signIn(page, 'dana');
  expect((await toggleGitPermission(page, orgA)).status).toBe(200);
  const other = await page.request.patch(`/console/git-permissions/orgs/${orgB}/permissions/gp-x`, {
    headers: { origin: ORIGIN },
    data: { read_only: true, base_version: 'v' },
  });
  expect(other.status()).toBe(403);
  expect(await other.json()).toMatchObject({ permission: 'ManageGitIntegrations', organization: orgB });
});

test('the admin does everything, and Console activity shows each change under the right person', async ({ page }) => {
  await signIn(page, 'ana');
  expect((await toggleGitPermission(page, orgA)).status).toBe(200);
  await page.goto('/activity');
  await expect(page.getByRole('heading', { name: 'Console activity' })).toBeVisible();
  const table = page
    .getByRole('grid', { name: 'Console activity' })
    .or(page.getByRole('table', { name: 'Console activity' }));
  await expect(table).toContainText('Ana Admin');
  await expect(table).toContainText('Dana Reyes');
  await expect(table).toContainText('console.gitPermissions.update');
  // Filters live in the URL.
  await page.goto('/activity?person=dana&outcome=refused');
  await expect(table).toContainText('Dana Reyes');
  await expect(table).not.toContainText('Ana Admin');
  // The git-permission history names the person from the same source.
  await page.goto(`/orgs/${orgA}/git-permissions/history`);
  await expect(page.getByRole('main')).toContainText('Ana Admin');
  // Sign out ends the session and offers the provider's logout.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('link', { name: 'Also sign out of Test IdP' })).toBeVisible();
});
