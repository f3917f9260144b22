/**
 * Shared fixtures: every test fails on a browser console error or an uncaught page error, unless the test
 * declares the errors it expects (e.g. a deliberate 401) with `allowConsoleErrors`.
 */
import { test as base, expect, type APIRequestContext } from '@playwright/test';

export const test = base.extend<{ allowConsoleErrors: RegExp[]; consoleGuard: void }>({
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
