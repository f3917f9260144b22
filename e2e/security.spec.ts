/**
 * Issue 7 in the browser: the console survives its upstream going away and recovers by itself, a page from
 * another origin cannot use the console's API, and the built bundle holds no credential.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsoleServer } from '../src/server/app';
import { startSandbox, type RunningSandbox } from '../src/sandbox';
import { createStaticHandler } from '../src/server/static';
import { startFakeUpstream } from '../src/test/fake-upstream';
import { testConfig } from '../src/test/harness';
import { expect, test } from './fixtures';

const DIST = join(import.meta.dirname, '..', 'dist');

test('the built bundle holds no credential', () => {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
  for (const file of walk(DIST)) {
    expect(readFileSync(file, 'utf8'), file).not.toMatch(/cog_[A-Za-z0-9_]{6,}/);
  }
});

test.describe('when the upstream goes away', () => {
  let sandbox: RunningSandbox;
  let server: ReturnType<typeof createConsoleServer>;
  let url: string;
  let sandboxPort: number;
  const dbPath = join(mkdtempSync(join(tmpdir(), 'e2e-upstream-')), 'sandbox.db');

  test.beforeAll(async () => {
    sandbox = await startSandbox({ dbPath });
    sandboxPort = sandbox.port;
    server = createConsoleServer({
      config: testConfig({ mode: 'upstream', upstreamTimeoutMs: 2000 }),
      upstream: { baseUrl: sandbox.url, apiKey: 'cog_sandbox_admin' },
      serveApp: createStaticHandler(DIST),
    });
    url = `http://localhost:${(await server.listen()).port}`;
  });
  test.afterAll(async () => {
    await server.close();
    await sandbox.stop();
  });

  test('shows the state, then recovers when it is back', async ({ page }) => {
    await page.goto(url);
    await expect(
      page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: 'Payments Core' }),
    ).toBeVisible();

    await sandbox.stop();
    // Opening a screen that needs the API now fails with a clear state, never a blank page.
    await page.getByRole('table', { name: 'Organizations' }).getByRole('link', { name: 'Payments Core' }).click();
    await expect(page.getByText('The Agent Platform API cannot be reached right now')).toBeVisible({ timeout: 20_000 });
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: /unavailable|could not be reached/ })
        .first(),
    ).toBeVisible();

    // The upstream comes back on the same port with the same store.
    sandbox = await startSandbox({ dbPath, port: sandboxPort });
    await expect(page.getByRole('heading', { name: 'Payments Core' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('The Agent Platform API cannot be reached right now')).toHaveCount(0);
  });
});

test.describe('a page from another origin', () => {
  let up: Awaited<ReturnType<typeof startFakeUpstream>>;
  let server: ReturnType<typeof createConsoleServer>;
  let evil: Server;
  let consoleUrl: string;
  let evilUrl: string;

  test.beforeAll(async () => {
    up = await startFakeUpstream();
    server = createConsoleServer({
      config: testConfig({ mode: 'upstream' }),
      upstream: { baseUrl: up.url, apiKey: 'cog_secret_e2e' },
    });
    consoleUrl = `http://localhost:${(await server.listen()).port}`;
    evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><pre id="out"></pre><script>
        const out = document.getElementById('out');
        const log = (s) => { out.textContent += s + '\\n'; };
        const target = ${JSON.stringify(consoleUrl)};
        (async () => {
          for (const [name, init] of [
            ['cors-get', {}],
            ['json-post', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"x"}' }],
            ['text-post', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"prompt":"x"}' }],
            ['nocors-get', { mode: 'no-cors' }],
          ]) {
            try {
              const r = await fetch(target + '/api/v3/organizations/org-1/sessions', init);
              log(name + ' ' + r.type + ' ' + r.status + ' ' + (r.type === 'opaque' ? '' : await r.text()));
            } catch (e) { log(name + ' blocked'); }
          }
          log('done');
        })();
      </script>`);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
  });
  test.afterAll(async () => {
    await server.close();
    await up.close();
    await new Promise((r) => evil.close(r));
  });

  test.use({ allowConsoleErrors: [/CORS|Access-Control|blocked|net::ERR_FAILED/i] });

  test("cannot use the console's API: nothing reaches the upstream, nothing is readable", async ({ page }) => {
    await page.goto(evilUrl);
    await expect(page.locator('#out')).toContainText('done');
    const out = await page.locator('#out').textContent();
    expect(out).toContain('cors-get blocked');
    expect(out).toContain('json-post blocked');
    expect(out).not.toMatch(/basic 200|cors 200/);
    expect(up.received).toHaveLength(0);
  });
});
