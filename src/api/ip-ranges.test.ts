/** IP addresses and CIDR ranges: parsing, the errors that name the bad entry, normalization and containment. */
import { describe, expect, it } from 'vitest';
import {
  hasHostBits,
  ipListAllows,
  ipRangeContains,
  isIpRange,
  normalizeIpRange,
  parseIpAddress,
  parseIpRange,
} from './ip-ranges';

describe('parseIpRange', () => {
  it('accepts IPv4 and IPv6 addresses and CIDR ranges', () => {
    for (const ok of [
      '10.0.0.0/8',
      '0.0.0.0/0',
      '255.255.255.255',
      '198.51.100.17/32',
      ' 192.168.1.0/24 ',
      '::1',
      '::1/128',
      '::/0',
      '2001:db8::/32',
      '2001:DB8:0:0:0:0:0:1',
      'fe80::1:2:3:4',
      '::ffff:127.0.0.1',
      '64:ff9b::192.0.2.33/120',
    ]) {
      expect(isIpRange(ok), ok).toBe(true);
    }
  });

  it('refuses malformed addresses and prefix lengths, naming the entry', () => {
    for (const bad of [
      '10.0.0.0/33',
      '::1/129',
      '300.1.1.1',
      '1.2.3',
      '1.2.3.4.5',
      '010.0.0.1',
      '10.0.0.0/',
      '10.0.0.0/-1',
      '10.0.0.0/8/8',
      '10.0.0.0/ 8',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      'fe80::1%eth0',
      'gggg::1',
      'example.com',
      '',
      ' ',
    ]) {
      const r = parseIpRange(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok && bad.trim() !== '') expect(r.error).toContain(`"${bad.trim()}"`);
    }
    const prefix = parseIpRange('10.0.0.0/33');
    expect(!prefix.ok && prefix.error).toMatch(/prefix length of an IPv4 range is 0 to 32/);
    const prefix6 = parseIpRange('::1/129');
    expect(!prefix6.ok && prefix6.error).toMatch(/0 to 128/);
  });

  it('reads an address alone as its full-length range', () => {
    expect(parseIpRange('1.2.3.4')).toEqual({ ok: true, value: { version: 4, bytes: [1, 2, 3, 4], prefix: 32 } });
    expect(parseIpAddress('::')?.bytes).toEqual(new Array(16).fill(0));
  });
});

describe('normalizeIpRange', () => {
  it('clears host bits, writes the prefix and formats IPv6 per RFC 5952', () => {
    expect(normalizeIpRange('10.0.0.5/8')).toBe('10.0.0.0/8');
    expect(normalizeIpRange('192.168.1.77/26')).toBe('192.168.1.64/26');
    expect(normalizeIpRange('1.2.3.4')).toBe('1.2.3.4/32');
    expect(normalizeIpRange('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1/128');
    expect(normalizeIpRange('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1/128');
    expect(normalizeIpRange('2001:db8:aaaa::1/32')).toBe('2001:db8::/32');
    expect(normalizeIpRange('::/0')).toBe('::/0');
    expect(normalizeIpRange('not an ip')).toBeNull();
    expect(hasHostBits('10.0.0.5/8')).toBe(true);
    expect(hasHostBits('10.0.0.0/8')).toBe(false);
  });
});

describe('ipRangeContains', () => {
  it('matches addresses inside a range of the same family', () => {
    expect(ipRangeContains('10.0.0.0/8', '10.255.1.2')).toBe(true);
    expect(ipRangeContains('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(ipRangeContains('192.168.1.64/26', '192.168.1.127')).toBe(true);
    expect(ipRangeContains('192.168.1.64/26', '192.168.1.128')).toBe(false);
    expect(ipRangeContains('0.0.0.0/0', '8.8.8.8')).toBe(true);
    expect(ipRangeContains('198.51.100.17', '198.51.100.17')).toBe(true);
    expect(ipRangeContains('2001:db8::/32', '2001:db8:ffff::1')).toBe(true);
    expect(ipRangeContains('2001:db8::/32', '2001:db9::1')).toBe(false);
    expect(ipRangeContains('::1/128', '::1')).toBe(true);
    expect(ipRangeContains('::/0', '127.0.0.1')).toBe(false);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(ipRangeContains('127.0.0.0/8', '::ffff:127.0.0.1')).toBe(true);
    expect(ipRangeContains('127.0.0.1/32', '::ffff:127.0.0.1')).toBe(true);
    expect(ipRangeContains('::ffff:10.0.0.0/104', '10.1.2.3')).toBe(true);
    expect(ipListAllows(['10.0.0.0/8', '::1/128'], '::1')).toBe(true);
    expect(ipListAllows(['10.0.0.0/8', '::1/128'], '::ffff:192.0.2.1')).toBe(false);
    expect(ipRangeContains('not-a-range', '1.1.1.1')).toBe(false);
    expect(ipRangeContains('1.1.1.1', 'garbage')).toBe(false);
  });
});
