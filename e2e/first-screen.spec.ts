/**
 * The first screen as a user meets it: the shell painted from the HTML before the app's scripts run (in the
 * chosen theme from the first paint), then taken over by the app without a layout shift, with every answer the
 * HTML preloaded used by the app rather than asked for again. Screenshots of both states, light and dark, are
 * attached to the test's results.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Layout shifts (CLS) from the start of the page, summed in the page as the browser reports them. */
const COUNT_SHIFTS = `window.__shift = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
}).observe({ type: 'layout-shift', buffered: true });`;

async function firstOrg(request: APIRequestContext) {
  const res = await request.get('/api/v3/enterprise/organizations?first=1');
  return ((await res.json()) as { items: Array<{ org_id: string; name: string }> }).items[0]!;
}

/** The same-origin URLs the page's HTML preloads as fetches. */
async function preloads(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="fetch"]')].map((l) => {
      const u = new URL(l.href);
      return u.pathname + u.search;
    }),
  );
}

test.describe('before the scripts', () => {
  // The app's scripts are refused on purpose below; the browser logs each refusal.
  test.use({ allowConsoleErrors: [/net::ERR_FAILED/] });
  for (const scheme of ['light', 'dark'] as const) {
    test(`paints the shell from the HTML before the app's scripts run (${scheme})`, async ({ page, request }, info) => {
      const org = await firstOrg(request);
      await page.emulateMedia({ colorScheme: scheme });
      // The app's scripts never arrive: what shows is the HTML and its stylesheet (and the inline theme script).
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(`/orgs/${org.org_id}/sessions`, { waitUntil: 'load' });
      const shell = page.locator('[data-shell="static"]');
      await expect(
        shell.getByRole('navigation', { name: 'Enterprise' }).getByRole('link', { name: 'Audit logs' }),
      ).toBeVisible();
      await expect(shell.locator('header')).toBeVisible();
      await expect(shell.getByRole('status', { name: 'Loading the page' })).toBeVisible();
      await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      await page.screenshot({ path: info.outputPath(`shell-before-js-${scheme}.png`) });
      await page.unroute('**/assets/*.js');

      // With the scripts: the app's shell replaces the painted one, in the same theme, without a shift.
      await page.addInitScript(COUNT_SHIFTS);
      await page.goto('/');
      await expect(page.getByRole('link', { name: org.name }).first()).toBeVisible();
      await expect(page.locator('#first-paint')).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThanOrEqual(0.02);
      await page.screenshot({ path: info.outputPath(`shell-after-js-${scheme}.png`) });
    });
  }
});

test('answers preloaded with the HTML are used by the app, not asked for again', async ({ page, request }) => {
  const org = await firstOrg(request);
  const sessions = await request.get(`/api/v3/organizations/${org.org_id}/sessions?first=1`);
  const session = ((await sessions.json()) as { items: Array<{ title: string | null; session_id: string }> }).items[0]!;
  for (const [path, ready] of [
    ['/', org.name],
    [`/orgs/${org.org_id}/sessions`, session.title ?? session.session_id],
  ] as const) {
    const asked = new Map<string, number>();
    const count = (url: string) => {
      const u = new URL(url);
      if (u.pathname.startsWith('/api/') || u.pathname.startsWith('/console/'))
        asked.set(u.pathname + u.search, (asked.get(u.pathname + u.search) ?? 0) + 1);
    };
    page.on('request', (r) => count(r.url()));
    await page.addInitScript(COUNT_SHIFTS);
    await page.goto(path);
    // (Visible: a screen may also carry a phone layout of the same list, hidden at this width.)
    await expect(page.locator('main').getByText(ready).filter({ visible: true }).first()).toBeVisible();
    const hinted = await preloads(page);
    expect(hinted).toContain('/console/config');
    expect(hinted).toContain('/api/v3/self');
    // Each was requested once: by the preload, its answer then handed to the app's own fetch.
    for (const url of hinted) expect(asked.get(url), url).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThanOrEqual(0.02);
    page.removeAllListeners('request');
  }
});
