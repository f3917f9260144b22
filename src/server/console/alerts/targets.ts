/**
 * Where a webhook may go. A webhook URL is typed by an admin but fetched by the console server, from inside the
 * network: without a check it would let anyone who can sign in probe loopback services, cloud metadata and
 * private hosts. So every address the host resolves to (IPv4 and IPv6) is checked, and the request connects to
 * the checked address itself (no second lookup an attacker's DNS could answer differently). Loopback, private,
 * link-local, shared, multicast and reserved ranges are refused unless CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS
 * names the range or the host. Redirects are never followed (see webhooks.ts).
 *
 * The URL itself is a secret (Slack's and many others' carry their token in the path): `displayOf` keeps only
 * the scheme and host, for answers and the delivery log.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ipRangeContains, parseIpAddress, unmapIpv4, formatIpAddress } from '../../../api/ip-ranges';

/** Ranges a webhook may not reach unless allowed (IANA special-purpose registries). */
const BLOCKED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
];
const BLOCKED_V6 = [
  '::/128',
  '::1/128',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
];

/** True when `address` lies in a loopback, private or otherwise non-public range. */
export function isPrivateAddress(address: string): boolean {
  const parsed = parseIpAddress(address);
  if (!parsed) return true;
  const a = unmapIpv4(parsed);
  const text = formatIpAddress(a);
  if (a.version === 4) return BLOCKED_V4.some((r) => ipRangeContains(r, text));
  // IPv4-compatible (::a.b.c.d, deprecated) addresses: judged as the IPv4 address they carry.
  if (a.bytes.slice(0, 12).every((b) => b === 0)) {
    const v4 = a.bytes.slice(12).join('.');
    if (v4 !== '0.0.0.0' && v4 !== '0.0.0.1') return BLOCKED_V4.some((r) => ipRangeContains(r, v4));
  }
  return BLOCKED_V6.some((r) => ipRangeContains(r, text));
}

export interface TargetPolicy {
  /** CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS: ranges and host names (lower case). */
  allow: readonly string[];
}

function allowedByPolicy(policy: TargetPolicy, host: string, address: string): boolean {
  return policy.allow.some((entry) => {
    if (parseIpAddress(entry.split('/')[0]!)) {
      const range = entry.includes('/') ? entry : entry.includes(':') ? `${entry}/128` : `${entry}/32`;
      return ipRangeContains(range, address);
    }
    return entry === host;
  });
}

/** The URL's scheme and host (and port), never its path, query or credentials. */
export function displayOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return '(unreadable address)';
  }
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

export interface VettedTarget {
  url: URL;
  /** The checked address the request connects to. */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host and checks every address it has; answers the first allowed one to connect to, or
 * throws TargetRefused saying why (in words an admin can act on; the URL's path never appears).
 */
export async function vetTarget(raw: string, policy: TargetPolicy, signal?: AbortSignal): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('The URL cannot be read as an address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetRefused('The URL must start with http:// or https://');
  }
  if (url.username || url.password) {
    throw new TargetRefused('The URL must not carry a user name or password; put a token in its path instead');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      const found = lookup(host, { all: true, verbatim: true });
      const aborted = new Promise<never>((_, reject) => {
        const t = setTimeout(() => reject(new Error('timeout')), 5_000);
        t.unref();
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
      addresses = await Promise.race([found, aborted]);
    } catch {
      throw new TargetRefused(`The host ${host} cannot be resolved`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`The host ${host} has no address`);
  // Every address must pass: a name with one public and one private address could be made to use either.
  for (const a of addresses) {
    if (isPrivateAddress(a.address) && !allowedByPolicy(policy, host, a.address)) {
      throw new TargetRefused(
        `${host} resolves to ${a.address}, a loopback or private address: webhooks may not reach the console's own network unless CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS allows it`,
      );
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
