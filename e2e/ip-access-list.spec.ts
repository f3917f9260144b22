/**
 * IP access list journeys: edit the list (a range with host bits set is normalized, one is removed), review
 * the change, apply it, and restore the previous list from the history; then try to apply a list without the
 * console's own address (loopback, with the embedded sandbox) and see it refused.
 *
 * The e2e server is shared by every spec of a run: whatever happens here, the list is put back to what it was
 * (always admitting loopback) afterwards, so no other spec is locked out.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';

interface ConsoleList {
  ip_ranges: string[];
  version: string;
}

async function currentList(request: APIRequestContext): Promise<ConsoleList> {
  const res = await request.get('/console/ip-access-list');
  expect(res.status()).toBe(200);
  return (await res.json()) as ConsoleList;
}

let original: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  original = (await currentList(request)).ip_ranges;
  expect(original).toEqual(expect.arrayContaining(['127.0.0.0/8', '::1/128']));
});

test.afterAll(async ({ request }) => {
  const now = await currentList(request);
  if (JSON.stringify(now.ip_ranges) === JSON.stringify(original)) return;
  const res = await request.put('/console/ip-access-list', {
    data: { base_version: now.version, ip_ranges: original },
  });
  expect(res.status()).toBe(200);
});

test('edits the list: a range normalized, one removed, reviewed, applied, then restored from history', async ({
  page,
  request,
}) => {
  await page.goto('/settings/ip-access-list');
  await expect(page.getByRole('heading', { name: 'IP access list', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Range 1', exact: true })).toHaveValue(original[0]!);

  // Add a range with host bits set: leaving the row normalizes it, with a note.
  await page.getByRole('button', { name: 'Add a range' }).click();
  const added = page.getByRole('textbox', { name: `Range ${original.length + 1}`, exact: true });
  await expect(added).toBeFocused();
  await added.fill('10.0.0.5/8');
  await added.press('Tab');
  await expect(added).toHaveValue('10.0.0.0/8');
  await expect(page.getByText('Normalized from 10.0.0.5/8')).toBeVisible();

  // A malformed entry is refused as typed, and blocks the review until it is fixed.
  await page.getByRole('button', { name: 'Add a range' }).click();
  const bad = page.getByRole('textbox', { name: `Range ${original.length + 2}`, exact: true });
  await bad.fill('10.0.0.0/33');
  await expect(bad).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('the prefix length of an IPv4 range is 0 to 32')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Review changes' })).toBeDisabled();
  await page.getByRole('button', { name: /^Remove range \d+ \(10\.0\.0\.0\/33\)$/ }).click();

  // Remove one.
  await page.getByRole('button', { name: /^Remove range \d+ \(203\.0\.113\.0\/24\)$/ }).click();
  await expect(page.getByText('1 added, 1 removed since loaded')).toBeVisible();

  // Review: what is added and removed.
  await page.getByRole('button', { name: 'Review changes' }).click();
  const review = page.getByRole('table', { name: 'Changes to apply' });
  await expect(review.getByRole('row').filter({ hasText: 'Added' })).toContainText('10.0.0.0/8');
  await expect(review.getByRole('row').filter({ hasText: 'Removed' })).toContainText('203.0.113.0/24');
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByText(/^Applied: the list holds/)).toBeVisible();

  const applied = await currentList(request);
  expect(applied.ip_ranges).toContain('10.0.0.0/8');
  expect(applied.ip_ranges).not.toContain('203.0.113.0/24');
  // The editor starts again from the applied list.
  await expect(page.getByText(/no changes/)).toBeVisible();

  // History: the revision with its diff; restore the list before it.
  const revisions = (await (await request.get('/console/ip-access-list/revisions?first=1')).json()) as {
    items: Array<{ revision_id: number }>;
  };
  const revisionId = revisions.items[0]!.revision_id;
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('heading', { name: 'IP access list history' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: `#${revisionId}` });
  await expect(row).toContainText('+ 10.0.0.0/8');
  await expect(row).toContainText('− 203.0.113.0/24');
  await row.getByRole('button', { name: `Restore the list before revision ${revisionId}` }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('table', { name: 'Changes the restore makes' })).toContainText('203.0.113.0/24');
  await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(page.getByText(`Restored the list before revision #${revisionId}`, { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  expect((await currentList(request)).ip_ranges).toEqual(original);
  // The restore says which list it brought back: the one before the change, not "from #N".
  await expect(page.getByRole('row').filter({ hasText: `Restored the list before #${revisionId}` })).toBeVisible();
});

test('refuses a list without the console’s own address, explaining the lockout', async ({ page, request }) => {
  const before = await currentList(request);
  await page.goto('/settings/ip-access-list');
  await page.getByRole('button', { name: /^Remove range \d+ \(127\.0\.0\.0\/8\)$/ }).click();
  await page.getByRole('button', { name: /^Remove range \d+ \(::1\/128\)$/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This list does not admit' })).toContainText('127.0.0.1, ::1');
  await page.getByRole('button', { name: 'Review changes' }).click();

  // Apply anyway waits for the enterprise's name, typed exactly, and says so in words.
  const applyAnyway = page.getByRole('button', { name: 'Apply anyway' });
  await expect(applyAnyway).toBeDisabled();
  await expect(applyAnyway).toHaveAccessibleDescription(/enabled once the enterprise’s name is typed/);
  const override = page.getByRole('textbox', { name: /type the enterprise’s name/ });
  await override.fill('acme corp');
  await expect(applyAnyway).toBeDisabled();
  await expect(page.getByText(/matches the enterprise’s name exactly/)).toBeVisible();

  // The console server refuses it too (for any client): nothing is applied without the name.
  const refused = await request.put('/console/ip-access-list', {
    data: {
      base_version: before.version,
      base: before.ip_ranges,
      ip_ranges: before.ip_ranges.filter((r) => r !== '127.0.0.0/8' && r !== '::1/128'),
    },
  });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { detail: string }).detail).toMatch(
    /does not admit 2 addresses the console reaches the API from/,
  );
  expect((await currentList(request)).ip_ranges).toEqual(before.ip_ranges);
});

test('adds ranges: merged into the list (nothing removed, nothing twice) and said what it added', async ({
  page,
  request,
}) => {
  const before = await currentList(request);
  await page.goto('/settings/ip-access-list');
  await page.getByRole('button', { name: 'Add ranges…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add ranges to the IP access list' });
  const listed = before.ip_ranges.find((r) => r.startsWith('127.'))!;
  await dialog.getByRole('textbox', { name: /Ranges to add/ }).fill(`198.18.0.9/15, ${listed}\n198.18.0.0/15`);
  await expect(dialog.getByText(/^New:/).locator('..')).toContainText('198.18.0.0/15');
  await expect(dialog.getByText(/Already listed, not added again/).locator('..')).toContainText(listed);
  await dialog.getByRole('button', { name: 'Add 1 range' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: /^Added 1 range: 198\.18\.0\.0\/15/ })).toBeVisible();

  const after = await currentList(request);
  expect(after.ip_ranges).toEqual([...before.ip_ranges, '198.18.0.0/15']);
});
