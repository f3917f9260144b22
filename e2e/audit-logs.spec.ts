/**
 * The audit-log explorer as an admin uses it: scroll through thousands of entries, filter and sort with the
 * view kept in the URL across a reload, and export a time range whose file holds exactly its entries.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const table = (page: Page) => page.getByRole('table', { name: 'Audit-log entries' });

/** The number of loaded entries the list reports ("Loaded 1,400 of 24,012"). */
async function loaded(page: Page): Promise<{ loaded: number; total: number | null }> {
  const text = (await page.getByText(/^Loaded [\d,.\s]+/).textContent()) ?? '';
  const [a, b] = [...text.matchAll(/[\d][\d,.\s]*/g)].map((m) => Number(m[0].replace(/\D/g, '')));
  return { loaded: a ?? 0, total: b ?? null };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value (the browser runs in this machine's time zone, as this process does). */
function localInput(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

test('scrolls through 5,000 entries, loading pages as it goes, with only the visible rows in the DOM', async ({
  page,
}) => {
  await page.goto('/audit-logs');
  await expect(page.getByRole('heading', { name: 'Audit logs' })).toBeVisible();
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
  const list = table(page);
  for (let guard = 0; guard < 60; guard++) {
    const before = (await loaded(page)).loaded;
    if (before >= 5_000) break;
    await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(async () => (await loaded(page)).loaded).toBeGreaterThan(before);
  }
  const { loaded: count, total } = await loaded(page);
  expect(count).toBeGreaterThanOrEqual(5_000);
  expect(total).toBeGreaterThanOrEqual(20_000);
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  // The rows near entry 5,000 are rendered, and only a screenful of rows is in the DOM.
  // The virtualizer renders after the scroll event, so wait for it rather than read at once.
  await expect
    .poll(async () => Number(await list.locator('[role="row"][aria-rowindex]').last().getAttribute('aria-rowindex')))
    .toBeGreaterThanOrEqual(5_000);
  expect(await list.getByRole('row').count()).toBeLessThan(120);
});

test('filters by action, changes the order, and shows the same view after a reload', async ({ page }) => {
  await page.goto('/audit-logs');
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
  await page.getByLabel('Action').click();
  await page.getByRole('option', { name: 'create_secret', exact: true }).click();
  await expect(page).toHaveURL(/action=create_secret/);
  await page.getByRole('button', { name: 'Oldest first' }).click();
  await expect(page).toHaveURL(/order=asc/);
  await expect(page.getByRole('button', { name: 'Oldest first' })).toHaveAttribute('aria-pressed', 'true');

  const rows = table(page).getByRole('row');
  await expect(rows.nth(1)).toContainText('create_secret');
  const actionCells = table(page).locator('[role="row"][aria-rowindex] [role="cell"]:nth-child(2)');
  await expect.poll(async () => (await actionCells.allTextContents()).every((t) => t === 'create_secret')).toBe(true);
  const times = async () =>
    table(page).locator('[role="row"][aria-rowindex] [role="cell"]:first-child').allTextContents();
  const firstTimes = (await times()).slice(0, 8);
  // Oldest first: times never decrease down the list.
  const seconds = await table(page)
    .locator('[role="row"][aria-rowindex] [role="cell"]:first-child')
    .evaluateAll((cells) => cells.map((c) => Date.parse((c.getAttribute('title') ?? '').replace(' (UTC)', ''))));
  expect(seconds.slice(0, 8)).toEqual([...seconds.slice(0, 8)].sort((a, b) => a - b));
  const { total } = await loaded(page);

  await page.reload();
  await expect(page.getByLabel('Action')).toHaveText('create_secret');
  await expect(page.getByRole('button', { name: 'Oldest first' })).toHaveAttribute('aria-pressed', 'true');
  await expect(table(page).getByRole('row').nth(1)).toContainText('create_secret');
  await expect.poll(async () => (await times()).slice(0, 8)).toEqual(firstTimes);
  expect((await loaded(page)).total).toBe(total);
});

test('exports a custom time range to CSV and JSON Lines with exactly the entries in range', async ({
  page,
  request,
}) => {
  await page.goto('/audit-logs');
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
  const now = Math.floor(Date.now() / 1000);
  await page.getByRole('button', { name: 'Custom range' }).click();
  await page.getByLabel('From (local time)').fill(localInput(now - 45 * 86_400));
  await page.getByLabel('To (local time)').fill(localInput(now - 30 * 86_400));
  await expect(page.getByText(/^UTC \d{4}-\d{2}-\d{2}T/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Apply range' }).click();
  await expect(page).toHaveURL(/range=custom/);
  const url = new URL(page.url());
  const after = Number(url.searchParams.get('time_after'));
  const before = Number(url.searchParams.get('time_before'));
  expect(before - after).toBe(15 * 86_400);

  // The number of entries in range, as the API counts it.
  const res = await request.get(`/api/v3/enterprise/audit-logs?first=1&time_after=${after}&time_before=${before}`);
  const inRange = ((await res.json()) as { total: number }).total;
  expect(inRange).toBeGreaterThan(200);
  await expect.poll(async () => (await loaded(page)).total).toBe(inRange);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(/^audit-logs_.*\.csv$/);
  const csvLines = (await readFile((await csv.path())!, 'utf8')).split('\r\n').filter((l) => l.length > 0);
  expect(csvLines[0]).toMatch(/^created_at_utc,created_at,action,/);
  expect(csvLines.length - 1).toBe(inRange);
  await expect(page.getByText(`Exported ${inRange.toLocaleString('en-US')} entries`)).toBeVisible();

  const jsonlDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON Lines' }).click();
  const jsonl = await jsonlDownload;
  const records = (await readFile((await jsonl.path())!, 'utf8'))
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { created_at: number; audit_log_id: string });
  expect(records).toHaveLength(inRange);
  expect(new Set(records.map((r) => r.audit_log_id)).size).toBe(inRange);
  expect(records.every((r) => r.created_at >= after && r.created_at < before)).toBe(true);
});
