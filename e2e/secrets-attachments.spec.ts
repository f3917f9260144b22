/**
 * Secrets and attachments, as an admin uses them: create a secret and see it listed without its value (in the
 * page and in every answer the page read), a duplicate key refused on the key field, then delete it; attach a
 * file to a new session (an oversized one refused before sending) and download it from the session's page,
 * byte for byte.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, firstOrgId, test } from './fixtures';

/** Unique to this run, so reruns on the same data dir do not collide. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test('create a secret, see it listed without its value, a duplicate refused on the key field, then delete it', async ({
  page,
  request,
}) => {
  const orgId = await firstOrgId(request);
  const key = `E2E_TOKEN_${RUN}`;
  const value = `e2e-secret-value-${RUN}-${randomBytes(6).toString('hex')}`;
  const bodies: string[] = [];
  page.on('response', async (res) => {
    if (!res.url().includes('/api/')) return;
    bodies.push(await res.text().catch(() => ''));
  });

  await page.goto(`/orgs/${orgId}/secrets`);
  await expect(page.getByRole('heading', { name: 'Secrets', level: 1 })).toBeVisible();
  const table = page.getByRole('grid', { name: 'Secrets' }).or(page.getByRole('table', { name: 'Secrets' }));
  await expect(table).toBeVisible();

  await page.getByRole('button', { name: 'New secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'New secret' });
  // Validated before sending: an empty key and value are refused on their fields.
  await dialog.getByRole('button', { name: 'Create secret' }).click();
  await expect(dialog.getByText('key must not be empty')).toBeVisible();
  await dialog.getByLabel('Key').fill(key);
  const valueField = dialog.getByLabel('Value');
  await expect(valueField).toHaveAttribute('type', 'password');
  await expect(valueField).toHaveAttribute('autocomplete', /off|new-password/);
  await valueField.fill(value);
  await dialog.getByLabel('Note').fill('made by the e2e run');
  await dialog.getByRole('button', { name: 'Create secret' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: key });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Key-value');
  await expect(row).toContainText('made by the e2e run');
  await expect(row).toContainText('Sandbox Admin');
  await expect(page.getByText(value)).toHaveCount(0);
  expect(await page.content()).not.toContain(value);

  // The same key again: refused (409) on the key field, the dialog kept open.
  await page.getByRole('button', { name: 'New secret' }).click();
  await expect(dialog.getByLabel('Value')).toHaveValue('');
  await dialog.getByLabel('Key').fill(key);
  await dialog.getByLabel('Value').fill('another value');
  await dialog.getByRole('button', { name: 'Create secret' }).click();
  await expect(dialog.getByLabel('Key')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(/already exists/)).toBeVisible();
  await expect(dialog.getByLabel('Key')).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Nothing the page read holds the value; neither does the API's list.
  expect(bodies.length).toBeGreaterThan(1);
  for (const body of bodies) expect(body).not.toContain(value);
  const listed = await request.get(`/api/v3/organizations/${orgId}/secrets?first=200`);
  expect(await listed.text()).not.toContain(value);
  expect(await listed.text()).toContain(key);

  await row.getByRole('button', { name: `Delete secret ${key}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete secret' }).click();
  await expect(page.getByRole('row').filter({ hasText: key })).toHaveCount(0);
});

test('attach a file to a new session (uploaded on create, not when chosen) and download it from the session page, byte for byte', async ({
  page,
  request,
}) => {
  const orgId = await firstOrgId(request);
  const name = `e2e-notes-${RUN}.bin`;
  const bytes = randomBytes(256 * 1024 + 7);

  await page.goto(`/orgs/${orgId}/sessions/new`);
  await expect(page.getByRole('heading', { name: 'New session' })).toBeVisible();
  await page.getByLabel('Prompt').fill('Read the attached notes and summarize them.');
  const picker = page.getByLabel('Choose files for attachments');

  // Over the limit: refused before anything is sent.
  let uploads = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/attachments')) uploads += 1;
  });
  await picker.setInputFiles({
    name: 'too-big.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
  });
  await expect(
    page.getByText(/too-big\.bin is 10\.0 MiB \(10,485,761 bytes\); files are at most 10 MiB/),
  ).toBeVisible();
  expect(uploads).toBe(0);
  await page.getByRole('button', { name: 'Remove too-big.bin' }).click();

  // Chosen, not sent: a form abandoned now leaves nothing stored. The file uploads when the session is created.
  await picker.setInputFiles({ name, mimeType: 'application/octet-stream', buffer: bytes });
  const files = page.getByRole('list', { name: 'Attachments: files' });
  await expect(files.getByRole('listitem').filter({ hasText: name })).toContainText(
    'Not uploaded yet: it is uploaded when you create the session.',
  );
  await page.waitForTimeout(300);
  expect(uploads).toBe(0);
  await page.getByRole('button', { name: 'Create session' }).click();

  await expect(page).toHaveURL(/\/sessions\/session-[0-9a-f]+$/);
  expect(uploads).toBe(1);
  const attachments = page.getByRole('list', { name: 'Attachments' });
  await expect(attachments.getByRole('listitem')).toHaveCount(1);
  await expect(attachments).toContainText(name);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    attachments.getByRole('link', { name: `Download ${name}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(name);
  const saved = await readFile((await download.path())!);
  expect(saved.equals(bytes)).toBe(true);
});
