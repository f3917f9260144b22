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

/** The first session of an organization (its title, or its id when it has none: what the list shows). */
async function firstSession(request: APIRequestContext, orgId: string) {
  const res = await request.get(`/api/v3/organizations/${orgId}/sessions?first=1`);
  const session = ((await res.json()) as { items: Array<{ title: string | null; session_id: string }> }).items[0]!;
  return session.title ?? session.session_id;
}

/**
 * Waits until the console server renders `path` with `text` in its HTML (its renderer's thread starts with the
 * server, and a page asked before it is ready gets the painted shell only), and answers that HTML.
 */
async function renderedHtml(request: APIRequestContext, path: string, text: string): Promise<string> {
  let html = '';
  await expect
    .poll(
      async () => {
        html = await (await request.get(path)).text();
        return html.includes(text);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return html;
}

/** The first organization's sessions list, once the server renders it with its first session (see renderedHtml). */
async function renderedSessions(request: APIRequestContext) {
  const org = await firstOrg(request);
  const title = await firstSession(request, org.org_id);
  const path = `/orgs/${org.org_id}/sessions`;
  const html = await renderedHtml(request, path, title);
  return { org, title, path, html };
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
      await page.goto('/audit-logs', { waitUntil: 'load' });
      const shell = page.locator('[data-shell="static"]');
      await expect(
        shell.getByRole('navigation', { name: 'Enterprise' }).getByRole('link', { name: 'Audit logs' }),
      ).toBeVisible();
      await expect(shell.locator('header')).toBeVisible();
      await expect(shell.getByRole('status', { name: 'Loading the page' })).toBeVisible();
      await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      await page.screenshot({ path: info.outputPath(`shell-before-js-${scheme}.png`) });

      // An organization's sessions: the screen itself, rendered on the server, with its first session.
      const path = `/orgs/${org.org_id}/sessions`;
      const title = await firstSession(request, org.org_id);
      await renderedHtml(request, path, title);
      // (On a loaded machine a render can miss its time, and the page keeps the painted shell: load it again.)
      await expect(async () => {
        await page.goto(path, { waitUntil: 'load' });
        await expect(shell.locator('main h1', { hasText: 'Sessions' })).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 30_000 });
      await expect(shell.locator('main').getByText(title).first()).toBeVisible();
      // Its screen is a picture until the app runs: what waits for the screen's roles waits for the live one.
      await expect(shell.locator('main')).toHaveAttribute('aria-hidden', 'true');
      await expect(page.getByRole('heading', { name: 'Sessions', level: 1 })).toHaveCount(0);
      await expect(
        shell.getByRole('navigation', { name: 'Enterprise' }).getByRole('link', { name: 'Audit logs' }),
      ).toBeVisible();
      await expect(shell.getByRole('status', { name: 'Loading the page' })).toHaveCount(0);
      // One shell: the painted one gave way to the rendered one.
      await expect(page.locator('#first-paint')).toHaveCount(1);
      await expect(page.locator('aside[aria-label="Main navigation"]')).toHaveCount(1);
      await page.screenshot({ path: info.outputPath(`rendered-before-js-${scheme}.png`) });
      await page.unroute('**/assets/*.js');

      // With the scripts: the app's shell replaces the painted one, in the same theme, without a shift.
      for (const [to, ready] of [
        ['/audit-logs', 'Audit logs'],
        ['/', org.name],
        [path, title],
      ] as const) {
        await page.addInitScript(COUNT_SHIFTS);
        await page.goto(to);
        await expect(page.locator('main').getByText(ready).filter({ visible: true }).first()).toBeVisible();
        await expect(page.locator('#first-paint')).toHaveCount(0);
        // The app's own controls, live (the rendered picture was inert).
        await expect(page.locator('[inert]')).toHaveCount(0);
        expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift), to).toBeLessThanOrEqual(
          0.02,
        );
      }
      await page.screenshot({ path: info.outputPath(`shell-after-js-${scheme}.png`) });
    });
  }
});

test.describe('on a phone', () => {
  test.use({ allowConsoleErrors: [/net::ERR_FAILED/], viewport: { width: 390, height: 800 } });
  test('keeps the painted shell (the server renders the wide layout), then the app lays the screen out', async ({
    page,
    request,
  }) => {
    const { title, path } = await renderedSessions(request);
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(path, { waitUntil: 'load' });
    await expect(page.locator('#first-paint')).toHaveCount(1);
    await expect(page.getByRole('status', { name: 'Loading the page' })).toBeVisible();
    await expect(page.getByText(title)).toHaveCount(0);
    await page.unroute('**/assets/*.js');
    await page.addInitScript(COUNT_SHIFTS);
    await page.goto(path);
    await expect(page.locator('main').getByText(title).filter({ visible: true }).first()).toBeVisible();
    await expect(page.locator('#first-paint')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThanOrEqual(0.02);
  });
});

test('the first screen rendered on the server is what the app shows, and never carries the credential', async ({
  page,
  request,
}) => {
  const { title, path, html } = await renderedSessions(request);
  for (const secret of ['cog_sandbox_admin', process.env.E2E_ACCESS_TOKEN!]) {
    expect(html).not.toContain(secret);
    expect(html).not.toContain(Buffer.from(secret).toString('base64').slice(0, 20));
  }
  // Without a session the page is not served at all (the sign-in page answers), so nothing is rendered for it.
  const anonymous = await page.context().request.fetch(path, { headers: { cookie: '' }, maxRedirects: 0 });
  expect(await anonymous.text()).not.toContain(title);
  // The rendered rows are the app's rows: the same titles, in the same order, once the app has taken over.
  const rendered = [...html.matchAll(/<a [^>]*href="\/orgs\/[^"/]+\/sessions\/session-[^"]+"[^>]*>([^<]+)<\/a>/g)]
    .map((m) => m[1]!)
    .slice(0, 5);
  expect(rendered.length).toBeGreaterThan(0);
  await page.goto(path);
  await expect(page.locator('#first-paint')).toHaveCount(0);
  const rows = page.getByRole('row').getByRole('link').filter({ hasNotText: /^#/ });
  await expect(rows.first()).toBeVisible();
  expect((await rows.allInnerTexts()).slice(0, rendered.length)).toEqual(
    rendered.map((t) =>
      t
        .replace(/&amp;/g, '&')
        .replace(/&#x27;/g, "'")
        .replace(/&quot;/g, '"'),
    ),
  );
});

test('answers preloaded or embedded with the HTML are used by the app, not asked for again', async ({
  page,
  request,
}) => {
  const org = await firstOrg(request);
  const title = await firstSession(request, org.org_id);
  for (const [path, ready, own] of [
    ['/', org.name, ['/api/v3/enterprise/organizations?first=100']],
    [
      `/orgs/${org.org_id}/sessions`,
      title,
      [`/api/v3/enterprise/organizations/${org.org_id}`, `/api/v3/organizations/${org.org_id}/sessions?first=100`],
    ],
  ] as const) {
    await renderedHtml(request, path, ready);
    const asked = new Map<string, number>();
    const count = (url: string) => {
      const u = new URL(url);
      if (u.pathname.startsWith('/api/') || u.pathname.startsWith('/console/'))
        asked.set(u.pathname + u.search, (asked.get(u.pathname + u.search) ?? 0) + 1);
    };
    page.on('request', (r) => count(r.url()));
    await page.addInitScript(COUNT_SHIFTS);
    const response = await page.goto(path);
    // (Visible: a screen may also carry a phone layout of the same list, hidden at this width.)
    await expect(page.locator('main').getByText(ready).filter({ visible: true }).first()).toBeVisible();
    await expect(page.locator('#first-paint')).toHaveCount(0);
    const hinted = await preloads(page);
    expect(hinted).toContain('/api/v3/self');
    // Each was requested once: by the preload, its answer then handed to the app's own fetch.
    for (const url of hinted) expect(asked.get(url), url).toBe(1);
    // With the screen rendered on the server, its own answers came in the page, and so did what the server knows
    // itself (its config, who is signed in): the app asked for none of them. (On a loaded machine a render can
    // miss its time: the page then preloads the screen's answers instead, each asked for once.)
    const embedded = (await response!.text()).includes('id="first-answers"');
    for (const url of embedded ? [...own, '/console/config', '/console/session'] : own) {
      expect(hinted.includes(url), url).toBe(!embedded);
      expect(asked.get(url) ?? 0, url).toBe(embedded ? 0 : 1);
    }
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThanOrEqual(0.02);
    page.removeAllListeners('request');
  }
});
