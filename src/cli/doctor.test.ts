/**
 * `npm run doctor` as a child process: a clear verdict and a non-zero exit status when the credential does not
 * work at all (unreachable base URL, wrong credential, plain HTTP off loopback), and the credential never printed.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SCREENS } from '../api/console/doctor';

const root = resolve(import.meta.dirname, '../..');

function runCli(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/doctor.ts'), ...args], {
      cwd: root,
      // Only what the doctor needs: no credential from the developer's environment.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const WRONG_KEY = 'cog_wrong_0123456789abcdef';

describe('npm run doctor', () => {
  let upstream: Server;
  const methods: string[] = [];
  let closedPort: number;
  let unreachable: Awaited<ReturnType<typeof runCli>>;
  let wrong: Awaited<ReturnType<typeof runCli>>;
  let plainHttp: Awaited<ReturnType<typeof runCli>>;
  let onSandboxPort: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    // An upstream that knows no credential: every request is refused as the sandbox refuses an unknown one.
    upstream = createServer((req, res) => {
      methods.push(req.method ?? '');
      res.writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' });
      res.end(
        JSON.stringify({
          type: 'about:blank',
          status: 401,
          title: 'Unauthorized',
          detail: 'Unknown, revoked or expired credential',
        }),
      );
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    // A port nothing listens on.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));

    const { port } = upstream.address() as AddressInfo;
    // The runs at once: each child starts tsx, which is the slow part.
    [unreachable, wrong, plainHttp, onSandboxPort] = await Promise.all([
      runCli({ AGENT_PLATFORM_BASE_URL: `http://127.0.0.1:${closedPort}`, AGENT_PLATFORM_API_KEY: WRONG_KEY }, [
        '--json',
      ]),
      runCli({ AGENT_PLATFORM_BASE_URL: `http://127.0.0.1:${port}/`, AGENT_PLATFORM_API_KEY: WRONG_KEY }),
      runCli({ AGENT_PLATFORM_BASE_URL: 'http://api.example.invalid', AGENT_PLATFORM_API_KEY: WRONG_KEY }),
      // No upstream configured, SANDBOX_PORT names a port something serves: that is what is checked.
      runCli({ SANDBOX_PORT: String(port) }, ['--json']),
    ]);
  }, 180_000);
  afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

  it('an unreachable base URL: exit 1, the reach section says why (--json)', () => {
    expect(unreachable.code, unreachable.stderr).toBe(1);
    const report = JSON.parse(unreachable.stdout);
    expect(report.credential_works).toBe(false);
    expect(report.reach.verdict.level).toBe('fail');
    expect(report.reach.problem).toMatch(/connection was refused/);
    expect(report.verdict.line).toMatch(/cannot be reached/);
    expect(report.operations.items.every((i: { outcome: string }) => i.outcome === 'skipped')).toBe(true);
    expect(unreachable.stdout + unreachable.stderr).not.toContain(WRONG_KEY);
  });

  it('--json carries the per-screen section: every screen of the console, with why it was not checked', () => {
    const report = JSON.parse(unreachable.stdout) as {
      screens: Array<{ section: string; label: string; operation: string; works: string; why: string }> | null;
    };
    expect(report.screens).not.toBeNull();
    expect(report.screens!.map((s) => `${s.section}: ${s.label}`)).toEqual(
      CONSOLE_SCREENS.map((s) => `${s.section}: ${s.label}`),
    );
    for (const s of report.screens!) {
      expect(s).toMatchObject({ works: 'unknown', why: 'not tried: the upstream cannot be reached' });
    }
  });

  it('a wrong credential: exit 1, a clear verdict per section, the credential never printed, nothing written', () => {
    expect(wrong.code, wrong.stderr).toBe(1);
    expect(wrong.stdout).toMatch(/^\[FAIL\] The credential does not work: The upstream does not know this credential/m);
    expect(wrong.stdout).toMatch(/1\. Reach {2}\[ok\]/);
    expect(wrong.stdout).toMatch(/2\. Identity {2}\[FAIL\] The credential does not work \(401, unknown\)/);
    expect(wrong.stdout).toMatch(/401 reason\s+unknown/);
    expect(wrong.stdout).toMatch(/3\. What this credential may do {2}\[skip\]/);
    expect(wrong.stdout).toMatch(/5\. Rate limiting/);
    // The per-screen section is printed (the screens table needs no browser module).
    expect(wrong.stdout).toMatch(/Screens of the console {2}\[FAIL\] None of the \d+ screens will work/);
    // The reason wraps within its column (the output fits 100 characters): its words in order, column by column.
    const roles = wrong.stdout.split('\n').findIndex((l) => l.includes('Enterprise: Roles'));
    expect(wrong.stdout.split('\n')[roles]).toMatch(/Enterprise: Roles\s+ViewAccountMembership\s+unknown\s+not tried:/);
    const why = wrong.stdout
      .split('\n')
      .slice(roles, roles + 3)
      .map((l) => l.slice(l.indexOf('not tried:') === -1 ? l.search(/\S/) : l.indexOf('not tried:')))
      .join(' ');
    expect(why).toContain('not tried: the credential was refused');
    expect(wrong.stdout).toContain('cog_… (a service-user credential; never shown)');
    expect(wrong.stdout + wrong.stderr).not.toContain(WRONG_KEY);
    expect(methods.length).toBeGreaterThan(0);
    expect(new Set(methods)).toEqual(new Set(['GET']));
  });

  it('piped, every line fits 100 characters: long cells wrap, table rules are as wide as their column', () => {
    const lines = wrong.stdout.split('\n');
    expect(lines.filter((l) => l.length > 100)).toEqual([]);
    expect(lines.filter((l) => l.includes('─')).length).toBeGreaterThan(3);
  });

  it('SANDBOX_PORT: the sandbox serving it is checked, not a fresh one on another port', () => {
    expect(onSandboxPort.stderr).not.toMatch(/Checking the sandbox/); // --json: nothing but the report
    const report = JSON.parse(onSandboxPort.stdout);
    const { port } = upstream.address() as AddressInfo;
    expect(report.target).toMatchObject({ base_url: `http://127.0.0.1:${port}`, mode: 'sandbox' });
  });

  it('plain HTTP off loopback: refused before the credential is sent, exit 1', () => {
    expect(plainHttp.code, plainHttp.stderr).toBe(1);
    expect(plainHttp.stdout).toMatch(
      /plain HTTP to api\.example\.invalid: the credential would cross the network in clear/,
    );
  });
});
