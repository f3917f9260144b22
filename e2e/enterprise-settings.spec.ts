/**
 * Enterprise settings as an admin uses them: set an organization's ACU limit in place on the Limits screen;
 * put two organizations in a new group and see the picker refuse one of them for a second group; start a
 * session with a tag outside the organization's allowed list and see the form refuse it (the picker offers
 * none, and the sandbox's 422 lands on the tags field); create, rename and delete an organization behind a
 * typed confirmation that counts what goes with it. Each journey works on organizations it creates itself
 * and puts back what it changed of shared state (the group configuration).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const ORGS = '/api/v3/enterprise/organizations';

interface Org {
  org_id: string;
  name: string;
  max_cycle_acu_limit?: number | null;
}

async function createOrg(request: APIRequestContext, name: string): Promise<Org> {
  const res = await request.post(ORGS, { data: { name } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Org;
}

async function deleteOrg(request: APIRequestContext, orgId: string): Promise<void> {
  const res = await request.delete(`${ORGS}/${orgId}`);
  expect([200, 404]).toContain(res.status());
}

async function getOrg(request: APIRequestContext, orgId: string) {
  return request.get(`${ORGS}/${orgId}`);
}

/** The section of one group on the Limits screen (named by its group name). */
const groupSection = (page: Page, name: string) => page.getByRole('region', { name: `Group ${name}` });

test('sets an organization ACU limit in place, and refuses a negative one', async ({ page, request }) => {
  const org = await createOrg(request, `E2E Limits ${RUN}`);
  try {
    await page.goto('/settings/limits');
    await expect(page.getByRole('heading', { name: 'Limits', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'ACU limits' });
    const row = table.getByRole('row').filter({ hasText: org.name });
    await expect(row).toContainText('No limit');

    await row.getByRole('button', { name: `Edit the ACU limit of ${org.name}` }).click();
    const box = row.getByRole('spinbutton', { name: `ACU limit per cycle of ${org.name}` });
    await box.fill('-5');
    await box.press('Enter');
    await expect(row.getByRole('alert')).toContainText('0 or more');
    expect(((await (await getOrg(request, org.org_id)).json()) as Org).max_cycle_acu_limit).toBeNull();

    await box.fill('12345');
    await box.press('Enter');
    await expect(row.getByTestId('acu-limit')).toHaveText('12,345');
    expect(((await (await getOrg(request, org.org_id)).json()) as Org).max_cycle_acu_limit).toBe(12345);

    // Clearing the box removes the limit.
    await row.getByRole('button', { name: `Edit the ACU limit of ${org.name}` }).click();
    await row.getByRole('spinbutton').fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(row.getByTestId('acu-limit')).toHaveText('No limit');
    expect(((await (await getOrg(request, org.org_id)).json()) as Org).max_cycle_acu_limit).toBeNull();
  } finally {
    await deleteOrg(request, org.org_id);
  }
});

test('keeps an organization out of a second group', async ({ page, request }) => {
  const saved = await (await request.get('/api/v3/enterprise/org-group-limits')).json();
  const a = await createOrg(request, `E2E Group A ${RUN}`);
  const b = await createOrg(request, `E2E Group B ${RUN}`);
  const pool = `E2E pool ${RUN}`;
  const second = `E2E second ${RUN}`;
  try {
    await page.goto('/settings/limits');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByRole('textbox', { name: 'Group name' }).last().fill(pool);
    const poolSection = groupSection(page, pool);
    await poolSection.getByRole('checkbox', { name: a.name }).check();
    await poolSection.getByRole('checkbox', { name: b.name }).check();
    await expect(poolSection).toContainText('(2 chosen)');

    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByRole('textbox', { name: 'Group name' }).last().fill(second);
    const secondSection = groupSection(page, second);
    const refused = secondSection.getByRole('checkbox', { name: a.name });
    await expect(refused).toBeDisabled();
    await expect(secondSection.getByText(`already in group “${pool}”`).first()).toBeVisible();
    await refused.click({ force: true });
    await expect(refused).not.toBeChecked();
    await expect(secondSection).toContainText('(0 chosen)');

    await page.getByRole('button', { name: 'Save group limits' }).click();
    await expect(page.getByText('Org group limits saved', { exact: true })).toBeVisible();
    const config = (await (await request.get('/api/v3/enterprise/org-group-limits')).json()) as {
      groups: Record<string, { org_ids: string[] }>;
    };
    expect(config.groups[pool]?.org_ids).toEqual([a.org_id, b.org_id]);
    expect(config.groups[second]?.org_ids).toEqual([]);
  } finally {
    const res = await request.put('/api/v3/enterprise/org-group-limits', { data: saved });
    expect(res.status(), await res.text()).toBe(200);
    await deleteOrg(request, a.org_id);
    await deleteOrg(request, b.org_id);
  }
});

test('refuses a session tag outside the allowed list', async ({ page, request }) => {
  const org = await createOrg(request, `E2E Tags ${RUN}`);
  const tags = `${ORGS}/${org.org_id}/tags`;
  try {
    expect((await request.put(tags, { data: { tags: ['e2e-allowed', 'e2e-other'] } })).status()).toBe(200);
    await page.goto(`/orgs/${org.org_id}/sessions/new`);
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Check the nightly build');
    const picker = page.getByRole('combobox', { name: 'Tags' });
    await expect(picker).toBeEnabled();

    // The picker offers only allowed tags: one outside the list cannot be added.
    await picker.click();
    const search = page.getByRole('combobox', { name: 'Search allowed tags' });
    await search.fill('not-allowed');
    await expect(page.getByText('No allowed tag matches')).toBeVisible();
    await search.fill('e2e-other');
    await search.press('Enter');
    await expect(page.getByRole('list', { name: 'tags chosen' })).toContainText('e2e-other');

    // Meanwhile the tag stops being allowed: the API refuses it, and the refusal lands on the tags field.
    expect((await request.put(tags, { data: { tags: ['e2e-allowed'] } })).status()).toBe(200);
    await page.getByRole('button', { name: 'Create session' }).click();
    await expect(page.getByText('tag "e2e-other" is not an allowed tag')).toBeVisible();
    await expect(picker).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/sessions\/new$/);
    const list = (await (await request.get(`/api/v3/organizations/${org.org_id}/sessions`)).json()) as {
      items: unknown[];
    };
    expect(list.items).toHaveLength(0);
  } finally {
    await deleteOrg(request, org.org_id);
  }
});

test('creates, renames and deletes an organization, counting what goes with it', async ({ page, request }) => {
  const name = `E2E Org ${RUN}`;
  const renamed = `E2E Renamed ${RUN}`;
  let orgId: string | undefined;
  try {
    await page.goto('/');
    await page.getByRole('button', { name: 'Create organization' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create organization' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('spinbutton', { name: 'ACU limit per billing cycle' }).fill('10');
    await dialog.getByRole('spinbutton', { name: 'ACU limit per session' }).fill('11');
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await expect(dialog.getByText(/cannot be above the ACU limit per billing cycle/)).toBeVisible();
    await dialog.getByRole('spinbutton', { name: 'ACU limit per session' }).fill('5');
    await dialog.getByRole('button', { name: 'Create organization' }).click();
    await expect(dialog).toBeHidden();
    const table = page.getByRole('table', { name: 'Organizations' });
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('10');
    orgId = (await row.locator('td').nth(1).textContent())!.trim();
    expect(orgId).toMatch(/^org-/);

    // Something lives in it: a session and a knowledge note.
    const session = await request.post(`/api/v3/organizations/${orgId}/sessions`, { data: { prompt: 'hello' } });
    expect(session.status(), await session.text()).toBe(200);
    const note = await request.post(`/api/v3/organizations/${orgId}/knowledge/notes`, {
      data: { name: 'Runbook', trigger_description: 'When deploying', body: 'Deploy on Tuesdays.' },
    });
    expect(note.status(), await note.text()).toBeLessThan(300);

    await row.getByRole('button', { name: `Rename ${name}` }).click();
    const rename = page.getByRole('dialog', { name: `Rename ${name}` });
    await rename.getByRole('textbox', { name: 'Name' }).fill(renamed);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(rename).toBeHidden();
    const renamedRow = table.getByRole('row').filter({ hasText: renamed });
    await expect(renamedRow).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(0);
    // The organization switcher lists it under its new name.
    await page.getByRole('button', { name: /Switch organization/ }).click();
    await expect(page.getByRole('option', { name: renamed })).toBeVisible();
    await page.keyboard.press('Escape');

    await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete ${renamed}?` });
    const counts = confirm.getByRole('list', { name: 'What is deleted with it' });
    await expect(counts).toContainText('1 session');
    await expect(counts).toContainText('1 knowledge note');
    await expect(counts).toContainText('0 git permissions');
    const button = confirm.getByRole('button', { name: 'Delete organization' });
    await expect(button).toBeDisabled();
    await confirm.getByRole('textbox', { name: /to confirm/ }).fill(renamed.slice(0, -1));
    await expect(button).toBeDisabled();
    await confirm.getByRole('textbox', { name: /to confirm/ }).fill(renamed);
    await button.click();
    await expect(confirm).toBeHidden();
    await expect(table.getByRole('row').filter({ hasText: renamed })).toHaveCount(0);
    expect((await getOrg(request, orgId)).status()).toBe(404);
    await page.getByRole('button', { name: /Switch organization/ }).click();
    await expect(page.getByRole('option', { name: renamed })).toHaveCount(0);
    await page.keyboard.press('Escape');
  } finally {
    if (orgId) await deleteOrg(request, orgId);
  }
});

test('keeps the history of an organization: who and what changed, a change made elsewhere, and restore', async ({
  page,
  request,
}) => {
  const name = `E2E History ${RUN}`;
  const renamed = `E2E History Renamed ${RUN}`;
  const outside = `E2E History Outside ${RUN}`;
  const org = await createOrg(request, name);
  try {
    await page.goto('/');
    // A name in use is an error on Name, naming the name, not a generic conflict with an id.
    await page.getByRole('button', { name: 'Create organization' }).click();
    const create = page.getByRole('dialog', { name: 'Create organization' });
    await create.getByRole('textbox', { name: 'Name' }).fill(name.toUpperCase());
    await create.getByRole('button', { name: 'Create organization' }).click();
    await expect(create.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    await expect(create.getByText(`An organization named “${name.toUpperCase()}” already exists`)).toBeVisible();
    await expect(create.getByText(org.org_id)).toHaveCount(0);
    await create.getByRole('button', { name: 'Cancel' }).click();

    const row = page.getByRole('table', { name: 'Organizations' }).getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: `Rename ${name}` }).click();
    const rename = page.getByRole('dialog', { name: `Rename ${name}` });
    await rename.getByRole('textbox', { name: 'Name' }).fill(renamed);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(rename).toBeHidden();

    // Renamed straight through the API: the history names it as a change made outside the console.
    expect((await request.patch(`${ORGS}/${org.org_id}`, { data: { name: outside } })).status()).toBe(200);
    await page.goto(`/orgs/${org.org_id}`);
    const history = page.getByRole('table', { name: 'History of this organization' });
    const gap = history.getByRole('row').filter({ hasText: 'Changed outside the console' });
    await expect(gap).toContainText(new RegExp(`${renamed}.*${outside}`));
    const change = history.getByRole('row').filter({ hasText: new RegExp(`Name: ${name}\\W+changed to ${renamed}`) });
    await expect(change).toContainText('Changed');

    await change.getByRole('button', { name: /as before entry/ }).click();
    const confirm = page.getByRole('alertdialog', { name: /^Restore / });
    await expect(confirm).toContainText(new RegExp(`${renamed}.*${name}`));
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await expect(confirm).toBeHidden();
    await expect.poll(async () => ((await (await getOrg(request, org.org_id)).json()) as Org).name).toBe(name);
    await expect(history.getByRole('row').filter({ hasText: /Restored from entry #\d+/ })).toBeVisible();
  } finally {
    await deleteOrg(request, org.org_id);
  }
});
