/** The server's entry point refuses a bad configuration with one clear line per problem and exit code 1. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function start(env: Record<string, string>) {
  // An empty working directory: no developer's .env can change the outcome.
  return spawnSync(process.execPath, ['--import', tsx, join(root, 'src/server/main.ts')], {
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
