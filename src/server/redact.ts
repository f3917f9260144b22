/**
 * Keeps the credential on the server whatever the encoding: finds it in text written plainly, with any of its
 * characters `\u`-escaped (JSON), `\x`- or percent-encoded, as base64 or base64url at any alignment inside a
 * longer base64 text, or as hex, and replaces each copy with `[redacted]` (in a proxied body, streamed, with a
 * mask of the copy's own length). Used on proxied bodies and headers, the console endpoints' problem bodies,
 * stored errors and log lines.
 */
export const REDACTED = '[redacted]';

export interface Redactor {
  /** True when the text holds a copy of the secret in any known encoding. */
  test(text: string): boolean;
  redact(text: string): string;
  /** A scanner for one body, fed chunk by chunk as it streams (see BodyScanner). */
  scanBody(): BodyScanner;
  /** The most bytes one copy can span in a body (every character `\u`-escaped): a streamed body is held back by less. */
  readonly window: number;
}

/**
 * Masks the copies in a streamed body without changing its length (so a Content-Length stays true): each copy
 * is overwritten with `[redacted]` and asterisks, or asterisks alone when shorter. Bytes that could begin a copy
 * completed by the next chunk are held back (fewer than `window`), until that chunk or the end of the body.
 */
export interface BodyScanner {
  /** The bytes of `chunk` (after those held back before) that can be sent now; all of them when `last`. */
  push(chunk: Buffer, last?: boolean): Buffer;
  /** The bytes still held back, at the end of the body. */
  end(): Buffer;
  /** Copies masked so far. */
  readonly masked: number;
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
    const passThrough: BodyScanner = { push: (chunk) => chunk, end: () => EMPTY, masked: 0 };
    return { test: () => false, redact: (t) => t, scanBody: () => passThrough, window: 0 };
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
  // substring search tells; the regex runs only over text that could hold escapes.
  const test = (text: string) =>
    text.includes('\\') || text.includes('%') ? quick.test(text) : literals.some((l) => text.includes(l));
  const redact = (text: string) => (test(text) ? text.replace(re, REDACTED) : text);
  const body = bodyMatcher(list);
  return { test, redact, scanBody: () => createBodyScanner(body), window: body.window };
}

const EMPTY = Buffer.alloc(0);

/** What a body is searched with: the same copies as in text, as bytes (read as latin1, one char per byte). */
interface BodyMatcher {
  /** The copies written without any escape (the secret as UTF-8, its base64 fragments, its hex). */
  literals: Buffer[];
  /** Hashes of every 4-byte run of every literal copy, one bit each (see mayHoldLiteral). */
  grams: Uint32Array;
  /** Sampling step: the shortest literal copy spans a whole 4-byte run at one sampled position at least. */
  step: number;
  /** Code units and UTF-8 bytes of the secrets' characters: an escape decoding to one may belong to a copy. */
  escaped: Set<number>;
  /** Every copy, over a latin1 reading of the bytes. */
  re: RegExp;
  window: number;
}

const GRAM = 4;
const GRAM_BITS = 20;
/** The bit of the 4 bytes at `at` in a 2^20-bit table. */
const gramBit = (buf: Buffer, at: number) =>
  Math.imul(buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16) | (buf[at + 3]! << 24), 0x9e3779b1) >>>
  (32 - GRAM_BITS);

const hex = (code: number, width: number) => code.toString(16).padStart(width, '0');
const latin1 = (bytes: Buffer) => escapeRe(bytes.toString('latin1'));

function bodyMatcher(secrets: string[]): BodyMatcher {
  const literals: Buffer[] = [];
  const escaped = new Set<number>();
  const patterns: string[] = [];
  let window = 0;
  for (const secret of secrets) {
    const bytes = Buffer.from(secret, 'utf8');
    let longest = 0;
    const chars = [...secret].map((ch) => {
      const utf8 = Buffer.from(ch, 'utf8');
      const units = Array.from({ length: ch.length }, (_, i) => ch.charCodeAt(i));
      units.forEach((u) => escaped.add(u));
      utf8.forEach((b) => escaped.add(b));
      const alts = [
        latin1(utf8),
        [...utf8].map((b) => `%${anyCaseHex(hex(b, 2))}`).join(''),
        units.map((u) => `\\\\u${anyCaseHex(hex(u, 4))}`).join(''),
      ];
      if (units.length === 1 && units[0]! < 0x100) alts.push(`\\\\x${anyCaseHex(hex(units[0]!, 2))}`);
      longest += Math.max(utf8.length * 3, units.length * 6);
      return `(?:${alts.join('|')})`;
    });
    patterns.push(chars.join(''));
    const plain = [bytes, ...base64Fragments(bytes).map((f) => Buffer.from(f)), ...hexCopies(bytes)];
    literals.push(...plain);
    patterns.push(...plain.slice(1).map(latin1));
    window = Math.max(window, longest, ...plain.map((b) => b.length));
  }
  patterns.sort((a, b) => b.length - a.length);
  const grams = new Uint32Array(1 << (GRAM_BITS - 5));
  for (const l of literals) {
    for (let at = 0; at + GRAM <= l.length; at++) {
      const bit = gramBit(l, at);
      grams[bit >>> 5]! |= 1 << (bit & 31);
    }
  }
  const shortest = Math.min(...literals.map((l) => l.length));
  return {
    literals,
    grams,
    step: shortest - GRAM + 1,
    escaped,
    re: new RegExp(patterns.join('|'), 'g'),
    window,
  };
}

const hexCopies = (bytes: Buffer) => [
  Buffer.from(bytes.toString('hex')),
  Buffer.from(bytes.toString('hex').toUpperCase()),
];

/** The value of `width` hex digits at `at`, or -1. */
function hexAt(buf: Buffer, at: number, width: number): number {
  if (at + width > buf.length) return -1;
  let v = 0;
  for (let i = at; i < at + width; i++) {
    const c = buf[i]!;
    const d =
      c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/**
 * Whether the bytes may hold a literal copy, in one pass that reads a 4-byte run every `step` bytes: a copy
 * (at least `step + 3` bytes long) holds a whole run at one sampled position at least, and every run of every
 * copy has its bit set. A body without a copy is cleared with a few hundred table reads; a set bit (a copy,
 * or a run it shares with ordinary text) sends it to the exact byte search.
 */
function mayHoldLiteral(m: BodyMatcher, buf: Buffer): boolean {
  const { grams, step } = m;
  const last = buf.length - GRAM;
  for (let at = 0; at <= last; at += step) {
    const bit = gramBit(buf, at);
    if ((grams[bit >>> 5]! & (1 << (bit & 31))) !== 0) return m.literals.some((l) => buf.includes(l));
  }
  return false;
}

/**
 * Whether the bytes may hold a copy: a literal one (see mayHoldLiteral), or an escape (`\uXXXX`, `\xXX`,
 * `%XX`) of a character of the secret (a copy with any character escaped has one). JSON escapes of other
 * characters (`\n`, `\"`, `\u00e9`) do not count.
 */
function mayHoldCopy(m: BodyMatcher, buf: Buffer): boolean {
  if (mayHoldLiteral(m, buf)) return true;
  for (let i = buf.indexOf(0x5c); i !== -1; i = buf.indexOf(0x5c, i + 1)) {
    const kind = buf[i + 1];
    const code = kind === 0x75 ? hexAt(buf, i + 2, 4) : kind === 0x78 ? hexAt(buf, i + 2, 2) : -1;
    if (code !== -1 && m.escaped.has(code)) return true;
  }
  for (let i = buf.indexOf(0x25); i !== -1; i = buf.indexOf(0x25, i + 1)) {
    const code = hexAt(buf, i + 1, 2);
    if (code !== -1 && m.escaped.has(code)) return true;
  }
  return false;
}

const maskOf = (length: number) =>
  length >= REDACTED.length ? REDACTED + '*'.repeat(length - REDACTED.length) : '*'.repeat(length);

/** A class, not closures: one is made per proxied answer. */
class Scanner implements BodyScanner {
  /** Bytes held back from the previous chunk: they could begin a copy the next chunk completes. */
  private held: Buffer = EMPTY;
  masked = 0;

  constructor(private readonly m: BodyMatcher) {}

  push(chunk: Buffer, last = false): Buffer {
    const { m } = this;
    let work = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    // A copy that starts before `cut` ends within `work` (no copy is longer than the window).
    let cut = last ? work.length : work.length - (m.window - 1);
    if (cut <= 0) {
      this.held = work;
      return EMPTY;
    }
    if (mayHoldCopy(m, work)) {
      work = Buffer.from(work);
      const text = work.toString('latin1');
      m.re.lastIndex = 0;
      for (let hit = m.re.exec(text); hit !== null && hit.index < cut; hit = m.re.exec(text)) {
        work.write(maskOf(hit[0].length), hit.index, 'latin1');
        this.masked++;
        cut = Math.max(cut, hit.index + hit[0].length);
      }
    }
    // A copy of the held bytes: they outlive the chunk they came in.
    this.held = cut === work.length ? EMPTY : Buffer.from(work.subarray(cut));
    return cut === work.length ? work : work.subarray(0, cut);
  }

  end(): Buffer {
    return this.held.length === 0 ? EMPTY : this.push(EMPTY, true);
  }
}

function createBodyScanner(m: BodyMatcher): BodyScanner {
  return new Scanner(m);
}
