/**
 * Shared fixtures: every test fails on a browser console error or an uncaught page error, unless the test
 * declares the errors it expects (e.g. a deliberate 401) with `allowConsoleErrors`.
 *
 * Access control is on in the e2e run (as with `npm start`): each worker signs in once with the run's access
 * token and every page starts with that session (`storageState`); the `request` fixture, for API calls made
 * by the tests themselves, sends the token as `Authorization: Bearer` instead. Pages never send that header.
 */
import { test as base, expect, type APIRequestContext, type BrowserContextOptions } from '@playwright/test';

/** The access token of the e2e run (set in playwright.config.ts). */
export const E2E_ACCESS_TOKEN = process.env.E2E_ACCESS_TOKEN ?? 'e2e-console-access-token-not-a-secret';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

export const test = base.extend<{ allowConsoleErrors: RegExp[]; consoleGuard: void }, { signedInState: StorageState }>({
  signedInState: [
    async ({ playwright }, provide, workerInfo) => {
      const ctx = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      const res = await ctx.post('/console/sign-in', { form: { token: E2E_ACCESS_TOKEN }, maxRedirects: 0 });
      if (res.status() !== 303) throw new Error(`Signing in to the console answered ${res.status()}`);
      const state = await ctx.storageState();
      await ctx.dispose();
      await provide(state);
    },
    { scope: 'worker' },
  ],
  // (`provide`, not `use`: the React hooks lint rule would take these for hooks.)
  storageState: async ({ signedInState }, provide) => {
    await provide(signedInState);
  },
  request: async ({ playwright, baseURL }, provide) => {
    const ctx = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${E2E_ACCESS_TOKEN}` },
    });
    await provide(ctx);
    await ctx.dispose();
  },
  allowConsoleErrors: [[], { option: true }],
  consoleGuard: [
    async ({ page, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const text = msg.text();
        // The browser logs every non-2xx fetch as a console error; those are asserted by the tests themselves.
        if (/Failed to load resource: the server responded with a status of/.test(text)) return;
        if (allowConsoleErrors.some((re) => re.test(text))) return;
        errors.push(text);
      });
      page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
      await use();
      expect(errors, 'browser console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** The first organization of the seed, as the overview lists it. */
export async function firstOrgId(request: APIRequestContext): Promise<string> {
  const res = await request.get('/api/v3/enterprise/organizations?first=1');
  const body = (await res.json()) as { items: Array<{ org_id: string }> };
  return body.items[0]!.org_id;
}
