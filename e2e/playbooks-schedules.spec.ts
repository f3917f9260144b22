/**
 * Playbooks and schedules, as an admin uses them: a schedule whose cron field explains itself, created to run
 * once a few seconds ahead, whose session then appears on its page (the sandbox's clock is wall
 * time; its scheduler checks every SANDBOX_TICK_MS, so the run comes at its time); and a playbook written with a
 * preview, then used to start a session from its page.
 */
import type { Page } from '@playwright/test';
import { expect, firstOrgId, test } from './fixtures';

/** A token unique to this run, so that reruns on the same data dir do not collide. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Chooses an option of one of the console's selects (a Radix select: a combobox button and a listbox). */
async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

test.describe('schedules', () => {
  test('a schedule for a minute ahead starts its session, which appears on its page', async ({ page, request }) => {
    test.setTimeout(120_000);
    const orgId = await firstOrgId(request);
    const name = `E2E once ${RUN}`;
    const prompt = `Check the nightly build logs (${RUN}).`;
    await page.goto(`/orgs/${orgId}/schedules/new`);
    await expect(page.getByRole('heading', { name: 'New schedule' })).toBeVisible();
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Prompt').fill(prompt);

    // The cron field explains itself as it is typed: why it is refused, then in words with its next runs.
    const frequency = page.getByRole('textbox', { name: 'Frequency' });
    await frequency.fill('61 * * * *');
    await expect(page.getByText(/minute value 61 is out of range 0–59/)).toBeVisible();
    await frequency.fill('0 9 * * 1-5');
    await expect(page.getByTestId('frequency-words')).toHaveText('Every weekday at 09:00 UTC');
    const runs = page.getByRole('table', { name: 'The next five runs' });
    await expect(runs.getByRole('row')).toHaveCount(6);
    await expect(runs.getByRole('row').nth(1)).toContainText('09:00:00Z');

    // Once, about 15 s ahead (the date-time field takes seconds, in the browser’s local time).
    await choose(page, 'Runs', 'Once, at a set time');
    const at = await page.evaluate(() => {
      const d = new Date(Date.now() + 15_000);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    });
    await page.getByLabel('Run at').fill(at);
    await page.getByRole('button', { name: 'Create schedule' }).click();

    await expect(page.getByRole('heading', { name })).toBeVisible();
    const sessions = page.getByRole('region', { name: 'Sessions this schedule started' });
    await expect(sessions.getByText('No runs yet')).toBeVisible();
    await expect(page.getByText('Enabled', { exact: true }).first()).toBeVisible();

    // Notify reads as the form offers it, not as the API's word.
    await expect(page.getByText('When a run fails', { exact: true })).toBeVisible();

    // The page reads the schedule again every few seconds: the run's session appears, named by its title (the
    // sandbox's is the schedule's name) with its id, and the schedule is done.
    const link = sessions.getByRole('link', { name: new RegExp(`^${name} session-`) });
    await expect(link).toBeVisible({ timeout: 50_000 });
    await expect(page.getByText('Ran once')).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/sessions/session-`));
    await expect(page.getByText(prompt).first()).toBeVisible();

    // The schedule in the table: its state, and in the sessions list the session, started by automation.
    await page.goto(`/orgs/${orgId}/schedules`);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByText('Ran once')).toBeVisible();
    await expect(row.getByRole('switch', { name: `Enabled: ${name}` })).not.toBeChecked();
  });

  test('a schedule created disabled reads disabled as soon as the form is done (created, then disabled)', async ({
    page,
    request,
  }) => {
    const orgId = await firstOrgId(request);
    const name = `E2E disabled ${RUN}`;
    await page.goto(`/orgs/${orgId}/schedules/new`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Prompt').fill('Tidy the stale branches.');
    await page.getByRole('textbox', { name: 'Frequency' }).fill('0 6 * * 1');
    await page.getByRole('switch', { name: 'Enabled' }).click();
    await expect(page.getByRole('switch', { name: 'Enabled' })).toHaveAttribute('aria-checked', 'false');

    // The vendor's create has no enabled: the console creates without it, then disables with an update.
    const created = page.waitForRequest((r) => r.method() === 'POST' && /\/schedules$/.test(new URL(r.url()).pathname));
    const disabled = page.waitForRequest((r) => r.method() === 'PATCH' && /\/schedules\/sched-/.test(r.url()));
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const createBody = (await created).postDataJSON() as Record<string, unknown>;
    expect(createBody).toMatchObject({ name, frequency: '0 6 * * 1' });
    expect(createBody).not.toHaveProperty('enabled');
    expect((await disabled).postDataJSON()).toEqual({ enabled: false });

    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(page.getByText('Disabled', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('switch', { name: `Enabled: ${name}` })).not.toBeChecked();
    const id = page.url().split('/').at(-1)!;
    const read = await request.get(`/api/v3/organizations/${orgId}/schedules/${id}`);
    expect(((await read.json()) as { enabled: boolean }).enabled).toBe(false);
  });

  test('enable and disable inline, from the table', async ({ page, request }) => {
    const orgId = await firstOrgId(request);
    const name = `E2E toggle ${RUN}`;
    const res = await request.post(`/api/v3/organizations/${orgId}/schedules`, {
      data: { name, prompt: 'Toggle me.', frequency: '0 6 * * 1' },
    });
    expect(res.status()).toBe(200);
    await page.goto(`/orgs/${orgId}/schedules`);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByText('Every Monday at 06:00 UTC')).toBeVisible();
    const toggle = row.getByRole('switch', { name: `Enabled: ${name}` });
    await expect(toggle).toBeChecked();
    await toggle.click();
    await expect(toggle).not.toBeChecked();
    await expect(row.getByText('Disabled')).toBeVisible();
    const id = ((await res.json()) as { scheduled_session_id: string }).scheduled_session_id;
    const after = await request.get(`/api/v3/organizations/${orgId}/schedules/${id}`);
    expect(((await after.json()) as { enabled: boolean; next_run_at: string | null }).enabled).toBe(false);
  });
});

test.describe('playbooks', () => {
  test('create a playbook with a preview, then start a session with it', async ({ page, request }) => {
    const orgId = await firstOrgId(request);
    const title = `E2E triage ${RUN}`;
    await page.goto(`/orgs/${orgId}/playbooks/new`);
    await expect(page.getByRole('heading', { name: 'New organization playbook' })).toBeVisible();
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Macro').fill('bad macro');
    await page.getByLabel('Title').click();
    await expect(page.getByText(/macro starts with !/)).toBeVisible();
    await page.getByLabel('Macro').fill(`!e2e-${RUN}`);
    await page.getByRole('textbox', { name: 'Body' }).fill('## Procedure\n\n1. Read the issue\n2. Label it\n');
    const preview = page.getByRole('region', { name: 'Body preview' });
    if (!(await preview.isVisible())) await page.getByRole('button', { name: 'Preview body' }).click();
    await expect(preview.getByRole('heading', { name: 'Procedure' })).toBeVisible();
    await expect(preview.getByRole('listitem')).toHaveCount(2);
    // It scrolls when long: reachable by keyboard (axe: scrollable-region-focusable).
    await preview.focus();
    await expect(preview).toBeFocused();
    await page.getByRole('button', { name: 'Create playbook' }).click();

    // Its page renders the body as Markdown.
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    const body = page.getByRole('region', { name: 'Playbook body' });
    await expect(body.getByRole('heading', { name: 'Procedure' })).toBeVisible();
    const playbookId = /playbooks\/(playbook-[^/?]+)/.exec(page.url())![1]!;

    // The list finds it by search.
    await page.getByRole('link', { name: 'All playbooks' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill(RUN);
    await expect(page.getByRole('link', { name: title, exact: true })).toBeVisible();
    await page.getByRole('link', { name: title, exact: true }).click();

    // Start a session with it: the create-session form opens with it chosen.
    await page.getByRole('link', { name: 'Start a session with this playbook' }).click();
    await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/sessions/new\\?playbook=${playbookId}`));
    await expect(page.getByRole('combobox', { name: 'Playbook' })).toContainText(title);
    await page.getByLabel('Prompt').fill(`Triage the open issues (${RUN}).`);
    await page.getByRole('button', { name: 'Create session' }).click();
    await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/sessions/session-`));
    await expect(page.getByText(playbookId)).toBeVisible();
    const sessionId = /sessions\/(session-[^/?]+)/.exec(page.url())![1]!;
    const session = await request.get(`/api/v3/organizations/${orgId}/sessions/${sessionId}`);
    expect(((await session.json()) as { playbook_id: string }).playbook_id).toBe(playbookId);
  });

  test('delete a playbook behind a confirmation', async ({ page, request }) => {
    const orgId = await firstOrgId(request);
    const created = await request.post(`/api/v3/organizations/${orgId}/playbooks`, {
      data: { title: `E2E doomed ${RUN}`, body: 'Nothing to see.' },
    });
    const { playbook_id } = (await created.json()) as { playbook_id: string };
    await page.goto(`/orgs/${orgId}/playbooks/${playbook_id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await expect(dialog).toContainText(`Delete “E2E doomed ${RUN}”?`);
    await dialog.getByRole('button', { name: 'Delete playbook' }).click();
    await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/playbooks$`));
    expect((await request.get(`/api/v3/organizations/${orgId}/playbooks/${playbook_id}`)).status()).toBe(404);
  });
});
