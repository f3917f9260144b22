/**
 * Keeps the credential on the server whatever the encoding: the one redaction for everything the console
 * answers or stores. It finds the secret in text written plainly, with any of its characters `\u`-escaped
 * (JSON), `\x`- or percent-encoded or written as an HTML character reference (`&#95;`, `&#x5f;`, `&lowbar;`),
 * an escape's backslash doubled once or more (as JSON writes a literal backslash), as base64 or base64url at
 * any alignment inside a longer base64 text, or as hex, and replaces each copy with `[redacted]` (in a proxied
 * body, streamed, with a mask of the copy's own length). On decoded values (`redactValue`, `redactJson`: the
 * console's own answers of every status, the history as stored, the doctor's reports) it also decodes each
 * string (escapes and references, then base64 or hex runs, and gzip or zlib data inside those) and drops a
 * value that still hides a copy. Used on proxied bodies and headers, every `/console` answer, the history
 * before it is stored, the doctor's reports and log lines.
 */
import { gunzipSync, inflateSync } from 'node:zlib';

export const REDACTED = '[redacted]';

export interface Redactor {
  /** True when the text holds a copy of the secret in any known encoding. */
  test(text: string): boolean;
  redact(text: string): string;
  /**
   * A decoded value (a parsed JSON document) with every string (keys too) redacted: copies are replaced, and a
   * string that hides one in a form only decoding shows (nested escapes, base64 of a compressed text, …)
   * becomes `[redacted]` whole. Unchanged values come back as they were.
   */
  redactValue<T>(value: T): T;
  /** A JSON text redacted value by value (then as text); any other text as text. */
  redactJson(text: string): string;
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

/** Backslashes an escape may carry: JSON doubles one for a literal backslash, JSON inside JSON doubles again. */
const MAX_BACKSLASHES = 8;
const BACKSLASHES = `\\\\{1,${MAX_BACKSLASHES}}`;
/** Leading zeros a numeric character reference may carry and still be found (bounds a streamed copy's span). */
const MAX_ZEROS = 4;

/** The HTML named character references of the ASCII characters a secret is written with (case matters). */
const NAMED_REFERENCES: Record<string, readonly string[]> = {
  _: ['lowbar', 'UnderBar'],
  '.': ['period'],
  '/': ['sol'],
  '+': ['plus'],
  '=': ['equals'],
  ':': ['colon'],
  '#': ['num'],
  '!': ['excl'],
  '?': ['quest'],
  '%': ['percnt'],
  $: ['dollar'],
  '@': ['commat'],
  '*': ['ast', 'midast'],
  '(': ['lpar'],
  ')': ['rpar'],
  ',': ['comma'],
  ';': ['semi'],
  '^': ['Hat'],
  '`': ['grave', 'DiacriticalGrave'],
  '|': ['verbar', 'vert', 'VerticalLine'],
  '{': ['lcub', 'lbrace'],
  '}': ['rcub', 'rbrace'],
  '[': ['lsqb', 'lbrack'],
  ']': ['rsqb', 'rbrack'],
  '\\': ['bsol'],
  '&': ['amp', 'AMP'],
  '<': ['lt', 'LT'],
  '>': ['gt', 'GT'],
  '"': ['quot', 'QUOT'],
  "'": ['apos'],
};

/**
 * The ways one character of a secret can be written: `literal` (the character itself, as the caller matches
 * it), percent-encoded (its UTF-8 bytes), `\u`-escaped (its UTF-16 units) or `\x`-escaped, each escape with one
 * backslash or several, or as an HTML character reference (decimal, hex or named); hex digits in any case.
 */
function charAlternatives(ch: string, literal: string): string[] {
  const point = ch.codePointAt(0)!;
  const units = Array.from({ length: ch.length }, (_, i) => ch.charCodeAt(i));
  const utf8 = Buffer.from(ch, 'utf8');
  const alts = [
    literal,
    [...utf8].map((b) => `%${anyCaseHex(hex(b, 2))}`).join(''),
    units.map((u) => `${BACKSLASHES}u${anyCaseHex(hex(u, 4))}`).join(''),
    `&#0{0,${MAX_ZEROS}}${point};?`,
    `&#[xX]0{0,${MAX_ZEROS}}${anyCaseHex(point.toString(16))};?`,
    ...(NAMED_REFERENCES[ch] ?? []).map((name) => `&${name};`),
  ];
  if (units.length === 1 && units[0]! < 0x100) alts.push(`${BACKSLASHES}x${anyCaseHex(hex(units[0]!, 2))}`);
  return alts;
}

/** The most characters one written form of `ch` spans (see charAlternatives). */
function charSpan(ch: string): number {
  const point = ch.codePointAt(0)!;
  const names = NAMED_REFERENCES[ch] ?? [];
  return Math.max(
    Buffer.byteLength(ch, 'utf8') * 3,
    ch.length * (MAX_BACKSLASHES + 5),
    3 + MAX_ZEROS + String(point).length,
    4 + MAX_ZEROS + point.toString(16).length,
    ...names.map((n) => n.length + 2),
  );
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
    return {
      test: () => false,
      redact: (t) => t,
      redactValue: (v) => v,
      redactJson: (t) => t,
      scanBody: () => passThrough,
      window: 0,
    };
  }
  const patterns: string[] = [];
  /** The copies written without any escape: the secret, its base64 fragments, its hex. */
  const literals: string[] = [];
  for (const secret of list) {
    patterns.push([...secret].map((ch) => `(?:${charAlternatives(ch, escapeRe(ch)).join('|')})`).join(''));
    const bytes = Buffer.from(secret, 'utf8');
    const plain = [secret, ...base64Fragments(bytes), bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
    literals.push(...plain);
    patterns.push(...plain.slice(1).map(escapeRe));
  }
  // Longest first, so a plain copy is replaced whole before a shorter encoded fragment could match in it.
  patterns.sort((a, b) => b.length - a.length);
  const re = new RegExp(patterns.join('|'), 'g');
  const quick = new RegExp(patterns.join('|'));
  // Without a backslash, a percent sign or an ampersand, a copy can only be written plainly, as base64 or as
  // hex: a plain substring search tells; the regex runs only over text that could hold escapes.
  const test = (text: string) =>
    text.includes('\\') || text.includes('%') || text.includes('&')
      ? quick.test(text)
      : literals.some((l) => text.includes(l));
  const redact = (text: string) => (test(text) ? text.replace(re, REDACTED) : text);
  /** A string redacted; `[redacted]` whole when a copy is left that only decoding shows. */
  const redactString = (text: string): string => {
    const out = redact(text);
    return decodings(out).some(test) ? REDACTED : out;
  };
  const redactValue = <T>(value: T): T => walk(value, redactString) as T;
  const redactJson = (text: string): string => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return redact(text);
    }
    const clean = redactValue(parsed);
    // Then as text too: a copy JSON itself escapes (`\\u0063…` for a literal `\u0063…`) is found there.
    return redact(clean === parsed ? text : JSON.stringify(clean));
  };
  const body = bodyMatcher(list);
  return { test, redact, redactValue, redactJson, scanBody: () => createBodyScanner(body), window: body.window };
}

/** Every string of a decoded value (keys too) through `f`; the same value back when nothing changed. */
function walk(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = walk(item, f);
      if (next !== item) (out ??= value.slice())[i] = next;
    });
    return out ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const k = f(key);
      const next = walk(item, f);
      if (k !== key || next !== item) changed = true;
      out[k] = next;
    }
    return changed ? out : value;
  }
  return value;
}

/** Strings longer than this are searched as they are and unescaped, but not decoded as base64 or hex. */
const DECODE_MAX_CHARS = 1 << 20;
/** The most bytes a compressed string is inflated to. */
const INFLATE_MAX_BYTES = 4 << 20;
const NAMED_TO_CHAR = new Map(Object.entries(NAMED_REFERENCES).flatMap(([ch, names]) => names.map((n) => [n, ch])));

const fromCodePoint = (code: number, whole: string) =>
  Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;

/** One round of unescaping: `\uXXXX`, `\xNN` (any backslashes), character references, percent-encoding. */
function unescapeOnce(text: string): string {
  let out = text;
  if (out.includes('\\')) {
    out = out
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  if (out.includes('&')) {
    out = out.replace(
      /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,8})|([A-Za-z]{2,16}));?/g,
      (whole, d?: string, h?: string, n?: string) =>
        d !== undefined
          ? fromCodePoint(Number(d), whole)
          : h !== undefined
            ? fromCodePoint(parseInt(h, 16), whole)
            : (NAMED_TO_CHAR.get(n!) ?? whole),
    );
  }
  if (out.includes('%')) {
    out = out.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
      const text = bytes.toString('utf8');
      return text.includes('\uFFFD') ? bytes.toString('latin1') : text;
    });
  }
  return out;
}

/**
 * Bytes inflated when they begin as gzip or zlib data do (a magic number, a header checksum); none otherwise.
 * Raw deflate and Brotli carry no header, and trying every run costs a decompressor each: they are not tried.
 */
function inflations(bytes: Buffer): Buffer[] {
  const opts = { maxOutputLength: INFLATE_MAX_BYTES };
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const zlib = bytes.length > 2 && (bytes[0]! & 0x0f) === 8 && ((bytes[0]! << 8) | bytes[1]!) % 31 === 0;
  if (!gzip && !zlib) return [];
  try {
    return [gzip ? gunzipSync(bytes, opts) : inflateSync(bytes, opts)];
  } catch {
    return [];
  }
}

/** Runs of base64 or base64url characters long enough to hide a copy (hex runs are among them). */
const ENCODED_RUN = /[A-Za-z0-9+/_-]{12,}={0,2}/g;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
/** Runs of one string decoded at most (a value is dropped whole when one hides a copy). */
const MAX_RUNS = 64;

/**
 * What a string may decode to, to be searched for a copy the text itself does not show: its escapes and
 * references undone (repeatedly), and each base64 or hex run in it as text, inflated when it is compressed,
 * and unescaped in turn.
 */
function decodings(text: string): string[] {
  const out: string[] = [];
  let current = text;
  for (let round = 0; round < 4; round++) {
    const next = unescapeOnce(current);
    if (next === current) break;
    out.push(next);
    current = next;
  }
  if (text.length > DECODE_MAX_CHARS) return out;
  const runs = new Set([...(current.match(ENCODED_RUN) ?? []), ...(text.match(ENCODED_RUN) ?? [])]);
  let seen = 0;
  for (const run of runs) {
    if (++seen > MAX_RUNS) break;
    const forms = [Buffer.from(run, 'base64')];
    if (HEX.test(run)) forms.push(Buffer.from(run, 'hex'));
    for (const bytes of forms) {
      for (const decoded of [bytes, ...inflations(bytes)]) {
        const asText = decoded.toString('utf8');
        out.push(asText);
        if (/[\\%&]/.test(asText)) out.push(unescapeOnce(asText));
      }
    }
  }
  return out;
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
  /**
   * Code units, UTF-8 bytes and code points of the secrets' characters: an escape or a numeric character
   * reference decoding to one may belong to a copy.
   */
  escaped: Set<number>;
  /** The named character references of the secrets' characters (`lowbar`, …). */
  named: Set<string>;
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
  const named = new Set<string>();
  const patterns: string[] = [];
  let window = 0;
  for (const secret of secrets) {
    const bytes = Buffer.from(secret, 'utf8');
    let longest = 0;
    const chars = [...secret].map((ch) => {
      const utf8 = Buffer.from(ch, 'utf8');
      for (let i = 0; i < ch.length; i++) escaped.add(ch.charCodeAt(i));
      utf8.forEach((b) => escaped.add(b));
      escaped.add(ch.codePointAt(0)!);
      for (const name of NAMED_REFERENCES[ch] ?? []) named.add(name);
      longest += charSpan(ch);
      return `(?:${charAlternatives(ch, latin1(utf8)).join('|')})`;
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
    named,
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

/** The value of the decimal digits at `at` (at most 8), or -1. */
function decimalAt(buf: Buffer, at: number): number {
  let v = -1;
  for (let i = at; i < at + 8 && i < buf.length; i++) {
    const c = buf[i]!;
    if (c < 0x30 || c > 0x39) break;
    v = (v < 0 ? 0 : v * 10) + (c - 0x30);
  }
  return v;
}

/** The value of the hex digits at `at` (at most 8), or -1. */
function hexRunAt(buf: Buffer, at: number): number {
  let v = -1;
  for (let i = at; i < at + 8 && i < buf.length; i++) {
    const d = hexAt(buf, i, 1);
    if (d < 0) break;
    v = (v < 0 ? 0 : v * 16) + d;
  }
  return v;
}

/** Whether the character reference at `at` (an `&`) is one of a secret's characters. */
function referencesSecretChar(m: BodyMatcher, buf: Buffer, at: number): boolean {
  if (buf[at + 1] === 0x23) {
    const x = buf[at + 2] === 0x78 || buf[at + 2] === 0x58;
    const code = x ? hexRunAt(buf, at + 3) : decimalAt(buf, at + 2);
    return code !== -1 && m.escaped.has(code);
  }
  if (m.named.size === 0) return false;
  // A name of letters then `;`, looked for over a few bytes only (an `&` in a URL is followed by anything).
  for (let i = at + 1; i < at + 18 && i < buf.length; i++) {
    const c = buf[i]! | 0x20;
    if (c >= 0x61 && c <= 0x7a) continue;
    return buf[i] === 0x3b && i > at + 1 && m.named.has(buf.toString('latin1', at + 1, i));
  }
  return false;
}

/**
 * Whether the bytes may hold a copy: a literal one (see mayHoldLiteral), or an escape (`\uXXXX`, `\xXX`,
 * `%XX`) or a character reference (`&#95;`, `&#x5f;`, `&lowbar;`) of a character of the secret (a copy with
 * any character escaped has one). JSON escapes of other characters (`\n`, `\"`, `\u00e9`) do not count.
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
  for (let i = buf.indexOf(0x26); i !== -1; i = buf.indexOf(0x26, i + 1)) {
    if (referencesSecretChar(m, buf, i)) return true;
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
