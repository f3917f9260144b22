/**
 * Keeps the credential on the server whatever the encoding: finds it in text written plainly, with any of its
 * characters `\u`-escaped (JSON), `\x`- or percent-encoded, as base64 or base64url at any alignment inside a
 * longer base64 text, or as hex, and replaces each copy with `[redacted]`. Used on proxied bodies and headers,
 * the console endpoints' problem bodies, stored errors and log lines.
 */
export const REDACTED = '[redacted]';

export interface Redactor {
  /** True when the text holds a copy of the secret in any known encoding. */
  test(text: string): boolean;
  redact(text: string): string;
  /** Redacts a body, decoding it as UTF-8 only when it holds a copy (bytes are returned as they are otherwise). */
  redactBuffer(body: Buffer): Buffer;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

const anyCaseHex = (hex: string) => hex.replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);

/** One character, literal or escaped as JSON (`\u0063`), JS (`\x63`) or in a URL (`%63`), in any hex case. */
function charPattern(ch: string): string {
  const code = ch.charCodeAt(0);
  const hex2 = anyCaseHex(code.toString(16).padStart(2, '0'));
  const hex4 = anyCaseHex(code.toString(16).padStart(4, '0'));
  const alts = [escapeRe(ch)];
  if (code < 0x100) alts.push(`%${hex2}`, `\\\\x${hex2}`);
  alts.push(`\\\\u${hex4}`);
  return `(?:${alts.join('|')})`;
}

/**
 * The parts of base64 texts that can only come from the secret: for each of the three byte alignments the
 * secret may have inside a longer encoded text, the characters fully determined by its bytes.
 */
function base64Fragments(secret: Buffer): string[] {
  const out = new Set<string>();
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift), secret]);
    const encoded = padded.toString('base64').replace(/=+$/, '');
    // Leading characters mix in the unknown bytes before the secret; trailing ones the bytes after it.
    const start = Math.ceil((shift * 8) / 6);
    const end = Math.floor(((shift + secret.length) * 8) / 6);
    const fragment = encoded.slice(start, end);
    if (fragment.length >= 8) {
      out.add(fragment);
      out.add(fragment.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...out];
}

export function createRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  if (list.length === 0) {
    return { test: () => false, redact: (t) => t, redactBuffer: (b) => b };
  }
  const patterns: string[] = [];
  /** The copies written without any escape: the secret, its base64 fragments, its hex. */
  const literals: string[] = [];
  for (const secret of list) {
    patterns.push([...secret].map(charPattern).join(''));
    const bytes = Buffer.from(secret, 'utf8');
    const plain = [secret, ...base64Fragments(bytes), bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
    literals.push(...plain);
    patterns.push(...plain.slice(1).map(escapeRe));
  }
  // Longest first, so a plain copy is replaced whole before a shorter encoded fragment could match in it.
  patterns.sort((a, b) => b.length - a.length);
  const re = new RegExp(patterns.join('|'), 'g');
  const quick = new RegExp(patterns.join('|'));
  // Without a backslash or a percent sign, a copy can only be written plainly, as base64 or as hex: a plain
  // substring search (fast, done on bytes) tells; the regex runs only over text that could hold escapes.
  const literalBytes = literals.map((l) => Buffer.from(l, 'utf8'));
  const test = (text: string) =>
    text.includes('\\') || text.includes('%') ? quick.test(text) : literals.some((l) => text.includes(l));
  const redact = (text: string) => (test(text) ? text.replace(re, REDACTED) : text);
  return {
    test,
    redact,
    redactBuffer(body) {
      const mayEscape = body.includes(0x5c) || body.includes(0x25);
      if (!mayEscape && !literalBytes.some((l) => body.includes(l))) return body;
      const text = body.toString('utf8');
      if (!quick.test(text)) return body;
      return Buffer.from(text.replace(re, REDACTED), 'utf8');
    },
  };
}
