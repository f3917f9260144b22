/** Configuration: both or neither credential settings, one clear line per problem. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const load = (env: Record<string, string>) => loadConfig(env, { dotEnv: {} });

describe('loadConfig', () => {
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
