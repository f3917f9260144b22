/** Configuration: both or neither credential settings, access control and HTTPS, one clear line per problem. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const load = (env: Record<string, string>) => loadConfig(env, { dotEnv: {} });

describe('loadConfig', () => {
  it('takes DATABASE_URL for the PostgreSQL store, and refuses another URL without repeating its password', () => {
    expect(load({}).databaseUrl).toBeUndefined();
    const url = 'postgres://console:s3cret-pw@db.internal:5432/console';
    expect(load({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(load({ DATABASE_URL: 'postgresql://db.internal/console' }).databaseUrl).toBe(
      'postgresql://db.internal/console',
    );
    for (const bad of ['mysql://console:s3cret-pw@db/console', 'not a url s3cret-pw']) {
      try {
        load({ DATABASE_URL: bad });
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as Error).message).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
        expect((err as Error).message).not.toContain('s3cret-pw');
      }
    }
  });

  it('uses the sandbox when neither credential setting is present, with documented defaults', () => {
    const c = load({});
    expect(c).toMatchObject({ mode: 'sandbox', host: '127.0.0.1', port: 8080, apiKey: undefined });
    expect(c.dataDir).toMatch(/data$/);
  });

  it('uses the upstream when both are set', () => {
    const c = load({ AGENT_PLATFORM_API_KEY: 'cog_abc', AGENT_PLATFORM_BASE_URL: 'https://api.example.com/' });
    expect(c).toMatchObject({ mode: 'upstream', apiKey: 'cog_abc', baseUrl: 'https://api.example.com' });
  });

  it.each([
    [{ AGENT_PLATFORM_API_KEY: 'cog_abc' }, /AGENT_PLATFORM_BASE_URL is missing/],
    [{ AGENT_PLATFORM_BASE_URL: 'https://api.example.com' }, /AGENT_PLATFORM_API_KEY is missing/],
    [{ AGENT_PLATFORM_API_KEY: 'sk_abc', AGENT_PLATFORM_BASE_URL: 'https://x' }, /start.*cog_/],
    [{ AGENT_PLATFORM_API_KEY: 'cog_a', AGENT_PLATFORM_BASE_URL: 'ftp://x' }, /http\(s\) URL/],
    [{ PORT: 'eighty' }, /PORT must be an integer/],
    [{ SANDBOX_PORT: '70000' }, /SANDBOX_PORT must be an integer from 0 to 65535/],
    [{ HOST: '0.0.0.0' }, /CONSOLE_ACCESS_TOKEN/],
  ])('refuses %o', (env, message) => {
    expect(() => load(env as Record<string, string>)).toThrow(ConfigError);
    try {
      load(env as Record<string, string>);
    } catch (e) {
      expect((e as ConfigError).problems.join('\n')).toMatch(message);
      // The credential itself is never echoed.
      expect((e as Error).message).not.toMatch(/cog_abc|cog_a\b/);
    }
  });

  it('refuses a plain-HTTP base URL off loopback in one line naming the variable; accepts it on loopback', () => {
    for (const url of ['http://api.example.com', 'http://10.0.0.5:8080/', 'http://[2001:db8::1]']) {
      try {
        load({ AGENT_PLATFORM_API_KEY: 'cog_abc', AGENT_PLATFORM_BASE_URL: url });
        expect.unreachable(url);
      } catch (e) {
        expect(e, url).toBeInstanceOf(ConfigError);
        const problems = (e as ConfigError).problems;
        expect(problems, url).toHaveLength(1);
        expect(problems[0]).toMatch(/^AGENT_PLATFORM_BASE_URL must use https:\/\/ for .*in clear/);
        expect(problems[0]).not.toContain('\n');
        expect((e as Error).message).not.toContain('cog_abc');
      }
    }
    for (const url of [
      'http://127.0.0.1:4010',
      'http://127.8.9.10',
      'http://localhost:8080/',
      'http://LOCALHOST',
      'http://[::1]:4010',
      'https://api.example.com',
    ]) {
      expect(load({ AGENT_PLATFORM_API_KEY: 'cog_abc', AGENT_PLATFORM_BASE_URL: url }).mode, url).toBe('upstream');
    }
  });

  it('reports every problem at once, one line each', () => {
    try {
      load({ AGENT_PLATFORM_API_KEY: 'cog_x', PORT: 'x' });
      expect.unreachable();
    } catch (e) {
      expect((e as ConfigError).problems).toHaveLength(2);
    }
  });

  it('lets the environment override .env', () => {
    const c = loadConfig({ PORT: '9000' }, { dotEnv: { PORT: '7000', HOST: 'localhost' } });
    expect(c.port).toBe(9000);
    expect(c.host).toBe('localhost');
  });
});

describe('access control and HTTPS settings', () => {
  it('turns access control on by default, with the documented session lifetimes', () => {
    const c = load({});
    expect(c).toMatchObject({
      consoleAuth: 'on',
      accessToken: undefined,
      tlsCertFile: undefined,
      tlsKeyFile: undefined,
      sessionIdleMinutes: 120,
      sessionMaxHours: 12,
    });
  });

  it('accepts CONSOLE_AUTH=off (any case) on loopback hosts', () => {
    expect(load({ CONSOLE_AUTH: 'off' }).consoleAuth).toBe('off');
    expect(load({ CONSOLE_AUTH: 'OFF', HOST: 'localhost' }).consoleAuth).toBe('off');
    expect(load({ CONSOLE_AUTH: 'off', HOST: '::1' }).consoleAuth).toBe('off');
    expect(load({ CONSOLE_AUTH: 'on' }).consoleAuth).toBe('on');
  });

  it('reads the session lifetimes and the TLS files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-tls-config-'));
    writeFileSync(join(dir, 'cert.pem'), 'x');
    writeFileSync(join(dir, 'key.pem'), 'x');
    const c = load({
      CONSOLE_SESSION_IDLE_MINUTES: '15',
      CONSOLE_SESSION_MAX_HOURS: '2',
      TLS_CERT_FILE: join(dir, 'cert.pem'),
      TLS_KEY_FILE: join(dir, 'key.pem'),
    });
    expect(c).toMatchObject({
      sessionIdleMinutes: 15,
      sessionMaxHours: 2,
      tlsCertFile: join(dir, 'cert.pem'),
      tlsKeyFile: join(dir, 'key.pem'),
    });
  });

  it.each([
    [
      { CONSOLE_AUTH: 'off', HOST: '0.0.0.0', CONSOLE_ACCESS_TOKEN: 'a-long-enough-token-1234' },
      /CONSOLE_AUTH=off.*loopback/,
    ],
    [{ CONSOLE_AUTH: 'off', HOST: '192.168.1.10', CONSOLE_ACCESS_TOKEN: 'a-long-enough-token-1234' }, /loopback/],
    [{ CONSOLE_AUTH: 'maybe' }, /CONSOLE_AUTH must be "on" or "off"/],
    [{ CONSOLE_ACCESS_TOKEN: 'short-token' }, /at least 16 characters/],
    [{ HOST: '0.0.0.0', CONSOLE_AUTH: 'on' }, /set CONSOLE_ACCESS_TOKEN/],
    [{ TLS_CERT_FILE: '/etc/hostname' }, /TLS_KEY_FILE is missing/],
    [{ TLS_KEY_FILE: '/etc/hostname' }, /TLS_CERT_FILE is missing/],
    [
      { TLS_CERT_FILE: '/nonexistent/cert.pem', TLS_KEY_FILE: '/nonexistent/key.pem' },
      /TLS_CERT_FILE=.* does not exist/,
    ],
    [{ CONSOLE_SESSION_IDLE_MINUTES: '0' }, /CONSOLE_SESSION_IDLE_MINUTES must be an integer/],
    [{ CONSOLE_SESSION_MAX_HOURS: 'forever' }, /CONSOLE_SESSION_MAX_HOURS must be an integer/],
  ])('refuses %o', (env, message) => {
    try {
      load(env as Record<string, string>);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems.join('\n')).toMatch(message);
      // The token itself is never echoed.
      expect((e as Error).message).not.toMatch(/a-long-enough-token-1234|short-token/);
    }
  });

  it('takes the pool size and the bound on guarded changes, and refuses a pool they could starve', () => {
    const url = 'postgres://console@db.internal/console';
    expect(load({})).toMatchObject({
      databasePoolSize: 10,
      maxGuardedChanges: 4,
      guardedChangesQueue: 100,
      reconcileIntervalS: 15,
    });
    expect(
      load({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: '30',
        CONSOLE_MAX_GUARDED_CHANGES: '12',
        CONSOLE_GUARDED_CHANGES_QUEUE: '0',
      }),
    ).toMatchObject({ databasePoolSize: 30, maxGuardedChanges: 12, guardedChangesQueue: 0 });
    try {
      load({ DATABASE_URL: url, DATABASE_POOL_SIZE: '8', CONSOLE_MAX_GUARDED_CHANGES: '4' });
      expect.unreachable();
    } catch (e) {
      expect((e as ConfigError).problems).toEqual([
        expect.stringMatching(/DATABASE_POOL_SIZE=8 is too small.*at least 10/),
      ]);
    }
    // Without PostgreSQL there is no pool to starve.
    expect(load({ DATABASE_POOL_SIZE: '2', CONSOLE_MAX_GUARDED_CHANGES: '50' }).maxGuardedChanges).toBe(50);
    expect(() => load({ DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE must be an integer from 2/);
  });
});
