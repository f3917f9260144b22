/**
 * Usage and capacity, as an admin uses them: open the usage dashboard, pick the last 30 days, export the daily
 * CSV and check it against the API (the answer the page drew, and every complete day read again); see the queue
 * indicator in the header and follow it to the capacity screen, filtering hypervisors through the URL; switch
 * an organization's usage range on its overview and see the API's figures for that range.
 */
import { readFile } from 'node:fs/promises';
import type { Page, Response } from '@playwright/test';
import { billingDayLabel, billingDayStart, DAY_SECONDS } from '../src/api/billing-day';
import { parseCsvRecords } from '../src/lib/csv';
import { expect, firstOrgId, test } from './fixtures';

interface Consumption {
  total_acus: number;
  consumption_by_date: Array<{ date: number; acus: number }>;
}

/** Chooses an option of one of the console's selects (a Radix select: a combobox button and a listbox). */
async function choose(page: Page, label: string | RegExp, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const cents = (x: number) => Math.round(x * 100);
const rangeOf = (res: Response) => {
  const url = new URL(res.url());
  return { after: Number(url.searchParams.get('time_after')), before: Number(url.searchParams.get('time_before')) };
};

test.describe('usage', () => {
  test('pick the last 30 days, export the daily CSV and check its total against the API', async ({ page, request }) => {
    await page.goto('/usage?range=7d');
    await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
    const daily = page.getByRole('region', { name: 'Compute units per day' });
    await expect(daily.getByRole('img', { name: /^Compute units per day\./ })).toBeVisible();

    // The 30-day answer the page asks for and draws.
    const answered = page.waitForResponse(
      (r) => {
        if (!/\/api\/v3\/enterprise\/consumption\/daily\?/.test(r.url()) || r.status() !== 200) return false;
        const { after, before } = rangeOf(r);
        return before - after === 30 * DAY_SECONDS;
      },
      { timeout: 20_000 },
    );
    await choose(page, 'Range', 'Last 30 days');
    await expect(page).not.toHaveURL(/range=/); // the default preset stays out of the URL
    const response = await answered;
    const drawn = (await response.json()) as Consumption;
    const { after, before } = rangeOf(response);
    // Whole billing days, 08:00 UTC to 08:00 UTC, ending with today's.
    expect(after).toBe(billingDayStart(after));
    expect(new Date(after * 1000).toISOString()).toMatch(/T08:00:00\.000Z$/);
    expect(before).toBe(billingDayStart(Date.now() / 1000) + DAY_SECONDS);
    await expect(page.getByTestId('usage-range').first()).toContainText('–');

    // The summary (the chart's text alternative) states the total drawn.
    await expect(daily.locator('figcaption')).toContainText('over 30 billing days');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      daily.getByRole('button', { name: 'Export Compute units per day as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(
      `acus-per-day-${billingDayLabel(after)}_${billingDayLabel(before - 1)}.csv`,
    );
    const records = parseCsvRecords(await readFile((await download.path())!, 'utf8'), { unguard: true });
    const [header, ...rows] = records;
    expect(header![0]).toBe('Billing day (starts 08:00 UTC)');
    expect(header!.at(-1)).toBe('Total (ACUs)');
    expect(rows).toHaveLength(30);
    expect(rows.map((r) => r[0])).toEqual(drawn.consumption_by_date.map((d) => billingDayLabel(d.date)));
    // Each day's products add up to its total, and the totals to the API's.
    for (const r of rows) {
      const parts = r.slice(1, -1).reduce((n, x) => n + cents(Number(x)), 0);
      expect(parts, r[0]).toBe(cents(Number(r.at(-1))));
    }
    const csvTotal = rows.reduce((n, r) => n + cents(Number(r.at(-1))), 0);
    expect(csvTotal).toBe(cents(drawn.total_acus));
    expect(csvTotal).toBeGreaterThan(0);

    // Read again from the API: every complete day is the same (only today's is still filling up).
    const again = (await (
      await request.get(`/api/v3/enterprise/consumption/daily?time_after=${after}&time_before=${before}`)
    ).json()) as Consumption;
    const today = billingDayStart(Date.now() / 1000);
    rows.forEach((r, i) => {
      const day = again.consumption_by_date[i]!;
      expect(billingDayLabel(day.date)).toBe(r[0]);
      if (day.date < today) expect(cents(day.acus), r[0]).toBe(cents(Number(r.at(-1))));
      else expect(cents(day.acus)).toBeGreaterThanOrEqual(cents(Number(r.at(-1))));
    });

    // The table view shows the same days.
    await daily.getByRole('tab', { name: 'Table' }).click();
    await expect(daily.getByRole('table', { name: 'Compute units per day' })).toBeVisible();
    await expect(daily.getByText('30 rows')).toBeVisible();
  });

  test('see the queue indicator, then the hypervisors filtered through the URL', async ({ page, request }) => {
    await page.goto('/');
    const indicator = page.getByTestId('queue-indicator');
    await expect(indicator).toBeVisible({ timeout: 20_000 });
    await expect(indicator).toHaveAccessibleName(/^Session queue: \d+ queued, (normal|elevated|high)\. Open capacity$/);
    const status = await indicator.getAttribute('data-status');
    expect(['normal', 'elevated', 'high']).toContain(status);

    await indicator.click();
    await expect(page).toHaveURL(/\/capacity$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Capacity' })).toBeVisible();
    await expect(page.getByTestId('queue-state')).toContainText(/\d+/);

    const table = page.getByRole('table', { name: 'Hypervisors' });
    const available = (await (await request.get('/api/v3/enterprise/hypervisors?first=200')).json()) as {
      items: Array<{ status: string }>;
    };
    await expect(page.getByText(`Loaded ${available.items.length} of`)).toBeVisible();
    await expect(table.getByText('Available').first()).toBeVisible();
    await expect(table.getByText('Terminated')).toHaveCount(0);

    await choose(page, 'Status', 'All statuses');
    await expect(page).toHaveURL(/status=all/);
    const all = (await (await request.get('/api/v3/enterprise/hypervisors?status=all&first=200')).json()) as {
      items: Array<{ status: string }>;
    };
    await expect(page.getByText(`Loaded ${all.items.length} of`)).toBeVisible();
    await expect(table.getByText('Terminated').first()).toBeVisible();
    await expect(table.getByRole('meter').first()).toHaveAttribute('aria-valuenow', /\d/);

    // The filter is in the URL: a reload keeps it; back returns to the default.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('All statuses');
    await page.goBack();
    await expect(page).toHaveURL(/\/capacity$/);
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('Available');
  });

  test("switch an organization's usage range on its overview", async ({ page, request }) => {
    const orgId = await firstOrgId(request);
    await page.goto(`/orgs/${orgId}`);
    const panel = page.getByTestId('org-usage-panel');
    await expect(panel.getByRole('heading', { name: 'Usage' })).toBeVisible();
    await expect(panel.getByTestId('org-usage-sessions_count')).toHaveText(/^\d[\d,]*$/, { timeout: 20_000 });

    const answered = page.waitForResponse(
      (r) => {
        if (!r.url().includes(`/api/v3/organizations/${orgId}/metrics/usage?`) || r.status() !== 200) return false;
        const { after, before } = rangeOf(r);
        return before - after === 7 * DAY_SECONDS;
      },
      { timeout: 20_000 },
    );
    await choose(page, 'Usage range', 'Last 7 days');
    const response = await answered;
    const drawn = (await response.json()) as Record<string, number>;
    const { after, before } = rangeOf(response);
    expect(before).toBe(billingDayStart(Date.now() / 1000) + DAY_SECONDS);
    expect(before - after).toBe(7 * DAY_SECONDS);

    // The panel shows the API's answer for that range…
    const keys = ['sessions_count', 'searches_count', 'prs_created_count', 'prs_merged_count'];
    for (const key of keys) {
      await expect(panel.getByTestId(`org-usage-${key}`)).toHaveText(drawn[key]!.toLocaleString('en-US'));
    }
    // …which the API answers again (sessions and pull requests only grow: schedules start sessions, running ones
    // open pull requests).
    const again = (await (
      await request.get(`/api/v3/organizations/${orgId}/metrics/usage?time_after=${after}&time_before=${before}`)
    ).json()) as Record<string, number>;
    expect(again.sessions_count).toBeGreaterThanOrEqual(drawn.sessions_count!);
    expect(again.searches_count).toBe(drawn.searches_count);
    expect(again.prs_created_count).toBeGreaterThanOrEqual(drawn.prs_created_count!);
    // And the organization's dashboard is one link away.
    await panel.getByRole('link', { name: /Compute units, active users/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Organization usage' })).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'Compute units per day' })
        .getByRole('img', { name: /^Compute units per day\./ }),
    ).toBeVisible();
  });

  test('consumption per person, capacity over time and stale access', async ({ page }) => {
    // One consumption read per member and service user (hundreds in the seed), on three screens.
    test.slow();
    await page.goto('/usage/people');
    await expect(page.getByRole('heading', { level: 1, name: 'Consumption per person' })).toBeVisible();
    // Every member and service user is read; the summary sets their sum beside the enterprise's own total.
    await expect(page.getByTestId('people-summary')).toContainText('the enterprise as a whole', { timeout: 60_000 });
    const table = page.getByRole('table', { name: 'Consumption per person' });
    await expect(table.getByText('CI Bot')).toBeVisible();
    await expect(page.getByTestId('people-windows')).toContainText('Compared with:');

    // The console server samples the queue and the hypervisors shortly after it starts.
    await page.goto('/capacity');
    const trends = page.getByRole('region', { name: 'Over time' });
    await expect(async () => {
      await page.reload();
      await expect(trends.getByTestId('capacity-trends')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 45_000 });
    await expect(trends.getByRole('img', { name: /^Queued sessions\. Queued sessions from/ })).toBeVisible();

    await page.goto('/access-review');
    await expect(page.getByRole('heading', { level: 1, name: 'Stale access' })).toBeVisible();
    await expect(page.getByTestId('access-review-count')).toContainText('to review', { timeout: 60_000 });
    const remove = page.getByRole('button', { name: /^Remove 0 selected$/ });
    await expect(remove).toBeDisabled();
    await expect(page.getByText('Select at least one row first.')).toBeVisible();
    const first = page
      .getByRole('table', { name: 'Stale access' })
      .getByRole('checkbox', { name: /^Select (?!all\b)/ })
      .first();
    const who = ((await first.getAttribute('aria-label')) ?? '').replace(/^Select /, '');
    await first.check();
    await page.getByRole('button', { name: 'Remove 1 selected' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByTestId('access-review-confirm-list').getByRole('listitem')).toHaveCount(1);
    await expect(dialog.getByTestId('access-review-confirm-list')).toContainText(who);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
