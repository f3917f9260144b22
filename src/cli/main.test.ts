/**
 * The server's entry point refuses a bad configuration with one clear line per problem and exit code 1, warns
 * when access control is off or the network is crossed in clear, and mints one-time sign-in links.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../test/fake-upstream';
import { rawRequest, testConfig } from '../test/harness';
import { createConsoleServer } from '../server/app';

const root = join(import.meta.dirname, '..', '..');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function start(env: Record<string, string>, args: string[] = []) {
  // An empty working directory: no developer's .env can change the outcome.
  return spawnSync(process.execPath, ['--import', tsx, join(root, 'src/cli/main.ts'), ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'console-config-')),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('npm start with a bad configuration', () => {
  it('names the missing AGENT_PLATFORM_BASE_URL and exits 1, without echoing the credential', () => {
    const r = start({ AGENT_PLATFORM_API_KEY: 'cog_only_the_key_123' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/AGENT_PLATFORM_BASE_URL is missing/);
    expect(r.stderr + r.stdout).not.toContain('cog_only_the_key_123');
  });

  it('names the missing AGENT_PLATFORM_API_KEY', () => {
    const r = start({ AGENT_PLATFORM_BASE_URL: 'https://api.example.com' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/AGENT_PLATFORM_API_KEY is missing/);
  });

  it('refuses a non-loopback HOST without CONSOLE_ACCESS_TOKEN', () => {
    const r = start({ HOST: '0.0.0.0' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/CONSOLE_ACCESS_TOKEN/);
  });
});

/** Starts `npm start`'s entry point until its output matches `until` (or it exits), then stops it. */
function startUntil(env: Record<string, string>, until: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'console-start-'));
    const child = spawn(process.execPath, ['--import', tsx, join(root, 'src/cli/main.ts')], {
      cwd: dataDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: '0',
        SANDBOX_PORT: '0',
        DATA_DIR: dataDir,
        ...env,
      },
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      if (until.test(out)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

describe('npm start and access control', () => {
  it('refuses CONSOLE_AUTH=off on a non-loopback HOST', () => {
    const r = start({ CONSOLE_AUTH: 'off', HOST: '0.0.0.0', CONSOLE_ACCESS_TOKEN: 'a-long-enough-token-1234' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/CONSOLE_AUTH=off is allowed on a loopback HOST only/);
    expect(r.stderr + r.stdout).not.toContain('a-long-enough-token-1234');
  });

  it('warns at start when CONSOLE_AUTH=off', async () => {
    const out = await startUntil({ CONSOLE_AUTH: 'off' }, /Warning: CONSOLE_AUTH=off/);
    expect(out).toMatch(/Warning: CONSOLE_AUTH=off: access control is off/);
  });

  it('warns that the token and cookie cross the network in clear off loopback without TLS', async () => {
    const out = await startUntil(
      { HOST: '0.0.0.0', CONSOLE_ACCESS_TOKEN: 'a-long-enough-token-1234' },
      /cross the network in clear/,
    );
    expect(out).toMatch(
      /HOST=0\.0\.0\.0 serves plain HTTP: .*cross the network in clear unless a TLS proxy is in front/,
    );
    expect(out).not.toContain('a-long-enough-token-1234');
  });

  it('mints a one-time sign-in link for the console running on the same DATA_DIR (--sign-in-link)', async () => {
    const up = await startFakeUpstream();
    const dataDir = mkdtempSync(join(tmpdir(), 'console-link-'));
    const server = createConsoleServer({
      config: testConfig({ consoleAuth: 'on', dataDir }),
      upstream: { baseUrl: up.url, apiKey: 'cog_main_test_credential' },
    });
    try {
      const { port } = await server.listen();
      const r = start({ DATA_DIR: dataDir, PORT: String(port) }, ['--sign-in-link']);
      expect(r.status).toBe(0);
      const link = /http:\/\/localhost:(\d+)(\/console\/sign-in\?once=[A-Za-z0-9_-]{43})/.exec(r.stdout);
      expect(link?.[1]).toBe(String(port));
      const first = await rawRequest(port, 'GET', link![2]!);
      expect(first.status).toBe(303);
      expect(first.headers['set-cookie']?.[0]).toMatch(/^console_session=/);
      expect((await rawRequest(port, 'GET', link![2]!)).status).toBe(401);
    } finally {
      await server.close();
      await up.close();
    }
  });

  it('binds the link to a person with --as: the session it opens is theirs', async () => {
    const up = await startFakeUpstream();
    const dataDir = mkdtempSync(join(tmpdir(), 'console-link-as-'));
    const server = createConsoleServer({
      config: testConfig({ consoleAuth: 'on', dataDir }),
      upstream: { baseUrl: up.url, apiKey: 'cog_main_test_credential' },
    });
    try {
      const { port } = await server.listen();
      const r = start({ DATA_DIR: dataDir, PORT: String(port) }, ['--sign-in-link', '--as', '  Dana Reyes ']);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('It signs in as Dana Reyes');
      const link = /\/console\/sign-in\?once=[A-Za-z0-9_-]{43}/.exec(r.stdout)![0];
      const opened = await rawRequest(port, 'GET', link);
      expect(opened.status).toBe(303);
      const cookie = opened.headers['set-cookie']![0]!.split(';')[0]!;
      const session = await rawRequest(port, 'GET', '/console/session', { cookie });
      expect(JSON.parse(session.text)).toMatchObject({ method: 'link', name: 'Dana Reyes' });

      // --as=… works too; a name over 80 characters, or none, is refused before any link is minted.
      const eq = start({ DATA_DIR: dataDir, PORT: String(port) }, ['--sign-in-link', '--as=Sam Okafor']);
      expect(eq.status).toBe(0);
      expect(eq.stdout).toContain('It signs in as Sam Okafor');
      const long = start({ DATA_DIR: dataDir, PORT: String(port) }, ['--sign-in-link', '--as', 'x'.repeat(81)]);
      expect(long.status).toBe(1);
      expect(long.stderr).toContain('--as: At most 80 characters');
      expect(long.stdout).not.toMatch(/once=/);
      const missing = start({ DATA_DIR: dataDir, PORT: String(port) }, ['--sign-in-link', '--as']);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('--as needs a name');
    } finally {
      await server.close();
      await up.close();
    }
    // Four processes in a row (each starts tsx): more than the default 20 s on a busy machine.
  }, 60_000);
});

/** `npm start`'s entry point, running until `stop()`; `output()` is what it printed so far. */
function startRunning(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', tsx, join(root, 'src/cli/main.ts'), ...args], {
    cwd: env.DATA_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SANDBOX_PORT: '0', ...env },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return {
    output: () => out,
    async until(pattern: RegExp): Promise<RegExpExecArray> {
      const deadline = Date.now() + 100_000;
      while (Date.now() < deadline) {
        const m = pattern.exec(out);
        if (m) return m;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`Not printed within 100 s: ${pattern}\n${out}`);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('npm start in the terminal', () => {
  it('--sign-in-link prints the running console its own address without PORT set again; LOG_REQUESTS=errors logs errors only; the IP list reset prints each entry', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'console-address-'));
    // On a fresh clone the app is not built yet: the console builds it first (Playwright's console then finds it built).
    const running = startRunning({ DATA_DIR: dataDir, PORT: '0', LOG_REQUESTS: 'errors' }, ['--build-if-needed']);
    try {
      const port = (await running.until(/Agent Platform Console: http:\/\/localhost:(\d+)/))[1]!;
      expect(running.output()).toContain('request log: errors only');
      const r = start({ DATA_DIR: dataDir }, ['--sign-in-link']);
      expect(r.status, r.stderr).toBe(0);
      const link = /http:\/\/localhost:(\d+)(\/console\/sign-in\?once=\S+)/.exec(r.stdout);
      expect(link?.[1]).toBe(port);
      expect((await rawRequest(Number(port), 'GET', link![2]!)).status).toBe(303);
      // A 200 is not logged, a 401 is.
      expect((await rawRequest(Number(port), 'GET', '/console/livez')).status).toBe(200);
      expect((await rawRequest(Number(port), 'GET', '/console/no-such-endpoint')).status).toBe(401);
      await running.until(/GET \/console\/no-such-endpoint 401/);
      expect(running.output()).not.toMatch(/GET \/console\/livez 200/);
    } finally {
      await running.stop();
    }
    // Stopped, it has forgotten its address; the reset of the IP list prints what it removed.
    expect(existsSync(join(dataDir, 'console-address.json'))).toBe(false);
    const r = start({ DATA_DIR: dataDir }, ['--reset-ip-access-list']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: \d+ entries removed:\n/);
    expect(r.stdout).toMatch(/^ {2}127\.0\.0\.0\/8$/m);
    expect(r.stdout).toMatch(/^ {2}::1\/128$/m);
    expect(r.stdout).toContain('Requests from any address are accepted.');
    // Three processes in a row (each starts tsx), and a build on a fresh clone: more than the default 20 s.
  }, 180_000);
});
