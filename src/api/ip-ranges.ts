/**
 * IP addresses and CIDR ranges of the IP access list, for the browser and the sandbox alike (pure TS, no Node).
 *
 * An entry is an IPv4 or IPv6 address (`203.0.113.7`, `2001:db8::1`) or a CIDR range (`10.0.0.0/8`,
 * `2001:db8::/32`). IPv4 is four decimal octets 0–255 without leading zeros (`010.0.0.1` is refused: some
 * parsers read it as octal); IPv6 is RFC 4291 text, with `::` and an embedded IPv4 tail, without a zone (`%eth0`).
 * The prefix length is 0–32 (IPv4) or 0–128 (IPv6), digits only. An address alone is the range of that one address.
 *
 * The API stores entries as given (trimmed) after validation; `normalizeRange` gives the canonical form
 * (host bits cleared, RFC 5952 IPv6, prefix always written: `10.0.0.5/8` → `10.0.0.0/8`), which the console can
 * show or offer, and which the API uses to tell duplicates apart when appending.
 */

export type IpVersion = 4 | 6;

export interface IpAddress {
  version: IpVersion;
  /** 4 bytes (IPv4) or 16 (IPv6). */
  bytes: readonly number[];
}

export interface IpRange extends IpAddress {
  prefix: number;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Longest entry accepted (the longest IPv6 text with a prefix is 49 characters). */
export const IP_RANGE_MAX_LENGTH = 64;

const bitsOf = (v: IpVersion) => (v === 4 ? 32 : 128);

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIpv6(text: string): number[] | null {
  if (!/^[0-9A-Fa-f:.]+$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(p)) return null;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  let words: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    words = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    if (head.length !== 8) return null;
    words = head;
  }
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** Parses one address (no prefix). */
export function parseIpAddress(text: string): IpAddress | null {
  const t = text.trim();
  if (t.includes(':')) {
    const bytes = parseIpv6(t);
    return bytes ? { version: 6, bytes } : null;
  }
  const bytes = parseIpv4(t);
  return bytes ? { version: 4, bytes } : null;
}

/** Parses an address or CIDR range; the error says what is wrong, in words an admin can act on. */
export function parseIpRange(text: string): ParseResult<IpRange> {
  const t = text.trim();
  if (t === '') return { ok: false, error: 'an entry must not be empty' };
  if (t.length > IP_RANGE_MAX_LENGTH) {
    return { ok: false, error: `an entry is at most ${IP_RANGE_MAX_LENGTH} characters` };
  }
  const slash = t.indexOf('/');
  const addressText = slash === -1 ? t : t.slice(0, slash);
  const address = parseIpAddress(addressText);
  if (!address) {
    return {
      ok: false,
      error: `"${t}" is not a valid IP address or CIDR range: "${addressText}" is neither an IPv4 nor an IPv6 address`,
    };
  }
  const bits = bitsOf(address.version);
  if (slash === -1) return { ok: true, value: { ...address, prefix: bits } };
  const prefixText = t.slice(slash + 1);
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= bits)) {
    return {
      ok: false,
      error: `"${t}" is not a valid CIDR range: the prefix length of an IPv${address.version} range is 0 to ${bits}`,
    };
  }
  return { ok: true, value: { ...address, prefix } };
}

/** True when `text` is a valid entry. */
export function isIpRange(text: string): boolean {
  return parseIpRange(text).ok;
}

function maskBytes(bytes: readonly number[], prefix: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return keep === 0 ? 0 : b & ((0xff << (8 - keep)) & 0xff);
  });
}

function formatIpv6(bytes: readonly number[]): string {
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  // RFC 5952: the longest run (2 or more) of zero words becomes `::`, the first one on a tie.
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  if (bestStart === -1) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLen))}`;
}

/** An address as text: dotted IPv4, RFC 5952 IPv6. */
export function formatIpAddress(address: IpAddress): string {
  return address.version === 4 ? address.bytes.join('.') : formatIpv6(address.bytes);
}

/** The canonical form of a valid entry: host bits cleared, prefix written (`10.0.0.5/8` → `10.0.0.0/8`). */
export function normalizeIpRange(text: string): string | null {
  const r = parseIpRange(text);
  if (!r.ok) return null;
  const { version, prefix } = r.value;
  return `${formatIpAddress({ version, bytes: maskBytes(r.value.bytes, prefix) })}/${prefix}`;
}

/** True when a range has bits set past its prefix (`10.0.0.5/8`): valid, but probably not what was meant. */
export function hasHostBits(text: string): boolean {
  const r = parseIpRange(text);
  if (!r.ok) return false;
  return maskBytes(r.value.bytes, r.value.prefix).some((b, i) => b !== r.value.bytes[i]);
}

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) as the IPv4 address it stands for; others unchanged. */
export function unmapIpv4(address: IpAddress): IpAddress {
  if (address.version !== 6) return address;
  const b = address.bytes;
  const mapped = b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  return mapped ? { version: 4, bytes: b.slice(12) } : address;
}

/**
 * True when `address` lies in `range` (both as text; invalid input: false). IPv4-mapped IPv6 addresses count as
 * their IPv4 address, so a server listening on `::` sees `::ffff:127.0.0.1` inside `127.0.0.0/8`; an IPv6 range
 * shorter than /96 covers no IPv4 address.
 */
export function ipRangeContains(range: string, address: string): boolean {
  const r = parseIpRange(range);
  const a = parseIpAddress(address);
  if (!r.ok || !a) return false;
  // Compared as IPv6: an IPv4 address or range is its IPv4-mapped form (::ffff:a.b.c.d, prefix + 96).
  const prefix = r.value.version === 4 ? r.value.prefix + 96 : r.value.prefix;
  // An IPv6 range shorter than /96 (say ::/0) is IPv6 only: it does not cover IPv4 through the mapped block.
  if (unmapIpv4(a).version === 4 && prefix < 96) return false;
  const range16 = maskBytes(asIpv6(r.value), prefix);
  return maskBytes(asIpv6(a), prefix).every((b, i) => b === range16[i]);
}

function asIpv6(address: IpAddress): readonly number[] {
  return address.version === 6 ? address.bytes : [...new Array<number>(10).fill(0), 0xff, 0xff, ...address.bytes];
}

/** True when any entry of `ranges` contains `address`. */
export function ipListAllows(ranges: readonly string[], address: string): boolean {
  return ranges.some((r) => ipRangeContains(r, address));
}
