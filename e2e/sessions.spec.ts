/**
 * Sessions journeys: create a session and watch it settle live; resume a suspended session with a message;
 * archive and terminate; filter by origin through the URL and share the link. The sandbox runs with
 * SANDBOX_TICK_MS=150, so a new session settles in a few seconds.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function orgIds(request: APIRequestContext): Promise<string[]> {
  const res = await request.get('/api/v3/enterprise/organizations');
  return ((await res.json()) as { items: Array<{ org_id: string }> }).items.map((o) => o.org_id);
}

async function createViaApi(request: APIRequestContext, orgId: string, title: string): Promise<string> {
  const res = await request.post(`/api/v3/organizations/${orgId}/sessions`, {
    data: { prompt: `E2E: ${title}`, title },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { session_id: string }).session_id;
}

const liveStatus = (page: Page) => page.getByRole('group', { name: 'Live status' }).getByTestId('session-status');

test('create a session and watch its status reach a terminal state live, without reloading', async ({
  page,
  request,
}) => {
  const [orgId] = await orgIds(request);
  await page.goto(`/orgs/${orgId}/sessions`);
  await page.getByRole('link', { name: 'New session' }).click();
  await expect(page.getByRole('heading', { name: 'New session' })).toBeVisible();

  // Validated before sending: an empty prompt is refused on its field.
  await page.getByRole('button', { name: 'Create session' }).click();
  await expect(page.getByText('prompt must not be empty')).toBeVisible();

  const title = `Watch me ${Date.now()}`;
  await page.getByLabel('Prompt').fill('Upgrade the lint config and fix the warnings.');
  await page.getByLabel('Title').fill(title);
  await page.getByRole('combobox', { name: 'Agent mode' }).click();
  await page.getByRole('option', { name: 'fast', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Agent mode' })).toHaveText('fast');
  await page.getByRole('button', { name: 'Add secret' }).click();
  await page.getByLabel('Secret 1 key').fill('NPM_TOKEN');
  await page.getByLabel('Secret 1 value').fill('npm_secret_value');
  await expect(page.getByLabel('Secret 1 value')).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Create session' }).click();

  await expect(page).toHaveURL(/\/sessions\/session-[0-9a-f]+$/);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText('npm_secret_value')).toHaveCount(0);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole('combobox', { name: 'Refresh every' }).first().click();
  await page.getByRole('option', { name: '2 s', exact: true }).click();

  await expect(liveStatus(page)).toHaveText(/^(exit|error|suspended)$/, { timeout: 30_000 });
  const timeline = page.getByRole('list', { name: 'Status changes seen' }).getByRole('listitem');
  await expect.poll(() => timeline.count()).toBeGreaterThan(1);
  await expect(page.getByTestId('updated-ago')).toHaveText(/Updated \d+ s ago/);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test('a message to a suspended session resumes it', async ({ page, request }) => {
  const orgs = await orgIds(request);
  const orgId = orgs[2]!;
  const res = await request.get(`/api/v3/organizations/${orgId}/sessions?status=suspended&first=20`);
  const suspended = ((await res.json()) as { items: Array<{ session_id: string; status: string }> }).items;
  const target = suspended[Math.floor(Math.random() * suspended.length)]!;
  await page.goto(`/orgs/${orgId}/sessions/${target.session_id}`);
  await expect(liveStatus(page)).toHaveText('suspended');
  await expect(page.getByText('This session is suspended: sending a message resumes it.')).toBeVisible();

  const message = `Please continue ${Date.now()}`;
  await page.getByLabel('Message').fill(message);
  await page.getByRole('button', { name: 'Send and resume' }).click();
  await expect(liveStatus(page)).toHaveText(/^(resuming|running)$/);
  await expect(page.getByRole('list', { name: 'Thread' }).getByText(message)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Status changes seen' }).getByTestId('session-status').last()).toHaveText(
    /resuming|running/,
  );
});

test('archive a session, and terminate another with the archive option', async ({ page, request }) => {
  const orgs = await orgIds(request);
  const orgId = orgs[3]!;
  const toArchive = await createViaApi(request, orgId, `Archive me ${Date.now()}`);
  await page.goto(`/orgs/${orgId}/sessions/${toArchive}`);
  await page.getByRole('button', { name: 'Archive' }).click();
  await page
    .getByRole('alertdialog', { name: 'Archive this session?' })
    .getByRole('button', { name: 'Archive session' })
    .click();
  await expect(page.getByRole('button', { name: 'Archived' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Archived' })).toBeFocused();
  await expect(page.getByRole('group', { name: 'Live status' }).getByText('Archived')).toBeVisible();

  const toTerminate = await createViaApi(request, orgId, `Terminate me ${Date.now()}`);
  await page.goto(`/orgs/${orgId}/sessions/${toTerminate}`);
  await page.getByRole('button', { name: 'Terminate' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Terminate this session?' });
  await expect(dialog.getByLabel('Also archive the session')).toBeChecked();
  await dialog.getByRole('button', { name: 'Terminate session' }).click();
  await expect(dialog).toBeHidden();
  await expect(liveStatus(page)).toHaveText('exit');
  await expect(page.getByRole('button', { name: 'Terminated' })).toBeDisabled();
  await expect(page.getByRole('group', { name: 'Live status' }).getByText('Archived')).toBeVisible();

  const after = await request.get(`/api/v3/organizations/${orgId}/sessions/${toTerminate}`);
  expect(await after.json()).toMatchObject({ status: 'exit', is_archived: true });
});

test('bulk-archive three sessions from the list, with a confirmation that lists them and progress for each', async ({
  page,
  request,
}) => {
  const orgs = await orgIds(request);
  const orgId = orgs[4] ?? orgs[0]!;
  const stamp = Date.now();
  const titles = [1, 2, 3].map((i) => `Bulk ${stamp} #${i}`);
  const ids: string[] = [];
  for (const t of titles) ids.push(await createViaApi(request, orgId, t));

  await page.goto(`/orgs/${orgId}/sessions`);
  const table = page.getByRole('table', { name: 'Sessions' });
  for (const t of titles) await table.getByRole('checkbox', { name: `Select ${t}` }).check();
  const toolbar = page.getByRole('toolbar', { name: 'Selected sessions' });
  await expect(toolbar).toContainText('3 selected');
  await toolbar.getByRole('button', { name: 'Archive…' }).click();

  const dialog = page.getByRole('alertdialog', { name: /Archive 3 sessions/ });
  const items = dialog.getByRole('list', { name: 'Sessions in this action' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  for (const t of titles) await expect(items.filter({ hasText: t })).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Archive 3' }).click();
  for (const t of titles) await expect(items.filter({ hasText: t })).toContainText('archived');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(toolbar).toBeHidden();

  for (const id of ids) {
    const res = await request.get(`/api/v3/organizations/${orgId}/sessions/${id}`);
    expect(((await res.json()) as { is_archived: boolean }).is_archived).toBe(true);
  }
});

test('filter by origin through the URL and share the link', async ({ page, browser, request }) => {
  const [orgId] = await orgIds(request);
  await page.goto(`/orgs/${orgId}/sessions`);
  const table = page.getByRole('table', { name: 'Sessions' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();

  await page.getByRole('button', { name: /^Origin:/ }).click();
  // The box follows the URL: it shows checked once the navigation it started has landed.
  await page.getByRole('checkbox', { name: 'slack', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: 'slack', exact: true })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/[?&]origins=slack\b/);
  const originCells = table.getByRole('row').locator('[role="cell"]:nth-child(4)');
  await expect(originCells.first()).toHaveText('slack');
  for (const text of await originCells.allTextContents()) expect(text).toBe('slack');

  // The link alone reproduces the view, in a fresh browser.
  const shared = page.url();
  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto(shared);
  await expect(second.getByRole('button', { name: /^Origin: slack/ })).toBeVisible();
  const sharedCells = second
    .getByRole('table', { name: 'Sessions' })
    .getByRole('row')
    .locator('[role="cell"]:nth-child(4)');
  await expect(sharedCells.first()).toHaveText('slack');
  for (const text of await sharedCells.allTextContents()) expect(text).toBe('slack');
  await other.close();

  // A hand-written link with comma-joined origins works too.
  await page.goto(`/orgs/${orgId}/sessions?origins=api,cli`);
  await expect(page.getByRole('button', { name: /^Origin: api, cli/ })).toBeVisible();
  await expect(originCells.first()).toHaveText(/^(api|cli)$/);
  for (const text of await originCells.allTextContents()) expect(['api', 'cli']).toContain(text);
});

test('an unknown session shows a not-found view', async ({ page, request }) => {
  const [orgId] = await orgIds(request);
  await page.goto(`/orgs/${orgId}/sessions/session-doesnotexist`);
  await expect(page.getByRole('heading', { name: 'Session not found' })).toBeVisible();
});

test('the list paints without its menus, which load on first use; a session page does not shift as its thread loads', async ({
  page,
  request,
}) => {
  const [orgId] = await orgIds(request);
  const deferred: string[] = [];
  page.on('request', (r) => {
    if (/\/(control-menus|bulk-dialog)-[^/]*\.js$/.test(new URL(r.url()).pathname)) deferred.push(r.url());
  });
  await page.goto(`/orgs/${orgId}/sessions`);
  await expect(page.getByRole('table', { name: 'Sessions' }).getByRole('row').nth(1)).toBeVisible();
  expect(deferred).toEqual([]);
  await page.getByRole('button', { name: 'Views' }).click();
  await expect(page.getByRole('menuitem', { name: 'Save current view…' })).toBeVisible();
  expect(deferred).toHaveLength(1);

  const res = await request.get(`/api/v3/organizations/${orgId}/sessions?first=1&status=exit`);
  const sessionId = ((await res.json()) as { items: Array<{ session_id: string }> }).items[0]!.session_id;
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
        if (!e.hadRecentInput) w.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/orgs/${orgId}/sessions/${sessionId}`);
  await expect(page.getByRole('list', { name: 'Thread' }).getByRole('listitem').first()).toBeVisible();
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBeLessThanOrEqual(0.02);
});

test('names beside ids: create as a member picked by name; the session page names the organization and the member; at 390 px titles wrap whole', async ({
  page,
  request,
}) => {
  const orgId = (await orgIds(request))[0]!;
  const org = (await (await request.get(`/api/v3/enterprise/organizations/${orgId}`)).json()) as { name: string };
  await page.goto(`/orgs/${orgId}/sessions/new`);
  await page.getByLabel('Prompt').fill('Summarize the open incidents.');
  await page.getByLabel('Title').fill(`Summarize the open incidents of this week for the on-call review ${Date.now()}`);
  // A member by name or email, not a typed user-… id.
  await page.getByRole('combobox', { name: 'Create as user' }).click();
  await page.getByRole('combobox', { name: 'Search members by name or email' }).fill('@example.com');
  const option = page.getByRole('option').nth(1);
  const member = (await option.textContent())!;
  expect(member).toMatch(/^\S.* \(\S+@example\.com\)$/);
  await option.click();
  await expect(page.getByRole('combobox', { name: 'Create as user' })).toHaveText(member);
  await page.getByRole('button', { name: 'Create session' }).click();
  await expect(page).toHaveURL(/\/sessions\/session-[0-9a-f]+$/);

  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByText(org.name, { exact: true })).toBeVisible();
  await expect(details.getByText(orgId, { exact: true })).toBeVisible();
  await expect(details.getByText(member, { exact: true })).toBeVisible();

  // A phone: each card shows its whole title (none cut with an ellipsis).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/orgs/${orgId}/sessions`);
  const titles = page.getByRole('table', { name: 'Sessions' }).locator('a[href*="/sessions/session-"]');
  await expect(titles.first()).toBeVisible();
  const cut = await titles.evaluateAll(
    (links) => links.slice(0, 10).filter((a) => a.scrollWidth > a.clientWidth + 1).length,
  );
  expect(cut).toBe(0);
});
