/** Git connections: reached from the navigation, every connection the API lists, sortable by name. */
import { expect, test } from './fixtures';

test('lists the enterprise git connections and sorts them by name', async ({ page, request }) => {
  const api = (await (await request.get('/api/v3/enterprise/git-providers/connections?first=200')).json()) as {
    items: Array<{ name: string | null; host: string }>;
  };
  await page.goto('/');
  await page.getByRole('link', { name: 'Git connections' }).click();
  await expect(page.getByRole('heading', { name: 'Git connections' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Git connections' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(api.items.length + 1);
  for (const c of api.items) await expect(table.getByText(c.name ?? c.host, { exact: true })).toBeVisible();

  await table.getByRole('button', { name: /^Name/ }).click();
  const names = await rows.evaluateAll((els) =>
    els.slice(1).map((el) => el.querySelectorAll('[role=cell]')[0]?.textContent ?? ''),
  );
  expect(names).toEqual([...names].sort());
  expect(names.length).toBeGreaterThan(1);
});
