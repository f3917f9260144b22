/** CONSOLE_EGRESS_IPS and CONSOLE_ENTERPRISE_NAME: read, validated with a clear line, and what they protect. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { enterpriseNameOf, protectedAddressesOf, SANDBOX_ENTERPRISE_NAME } from './index';

const load = (env: Record<string, string>) => loadConfig(env, { dotEnv: {} });

describe('CONSOLE_EGRESS_IPS', () => {
  it('reads comma-separated addresses, canonical and once each', () => {
    const c = load({ CONSOLE_EGRESS_IPS: ' 203.0.113.7, 2001:DB8::1 ,203.0.113.7,' });
    expect(c.consoleEgressIps).toEqual(['203.0.113.7', '2001:db8::1']);
    expect(load({}).consoleEgressIps).toEqual([]);
  });

  it('refuses anything that is not an address, naming it', () => {
    for (const bad of ['10.0.0.0/8', '300.1.1.1', 'console.example.com']) {
      expect(() => load({ CONSOLE_EGRESS_IPS: `203.0.113.7,${bad}` })).toThrow(ConfigError);
      try {
        load({ CONSOLE_EGRESS_IPS: bad });
      } catch (err) {
        expect((err as Error).message).toContain(`CONSOLE_EGRESS_IPS must be comma-separated IPv4 or IPv6 addresses`);
        expect((err as Error).message).toContain(`"${bad}"`);
      }
    }
  });

  it('protects the configured addresses, plus loopback with the sandbox', () => {
    expect(protectedAddressesOf({ mode: 'sandbox', consoleEgressIps: ['203.0.113.7'] })).toEqual([
      '203.0.113.7',
      '127.0.0.1',
      '::1',
    ]);
    expect(protectedAddressesOf({ mode: 'upstream', consoleEgressIps: ['203.0.113.7'] })).toEqual(['203.0.113.7']);
  });
});

describe('CONSOLE_ENTERPRISE_NAME', () => {
  it('is the override name; the sandbox has its own; a real API without it has none', () => {
    expect(load({ CONSOLE_ENTERPRISE_NAME: 'Globex Inc.' }).enterpriseName).toBe('Globex Inc.');
    expect(enterpriseNameOf({ mode: 'upstream', enterpriseName: 'Globex Inc.' })).toBe('Globex Inc.');
    expect(enterpriseNameOf({ mode: 'sandbox' })).toBe(SANDBOX_ENTERPRISE_NAME);
    expect(enterpriseNameOf({ mode: 'upstream' })).toBeNull();
    expect(() => load({ CONSOLE_ENTERPRISE_NAME: 'x'.repeat(201) })).toThrow(/at most 200/);
  });
});
