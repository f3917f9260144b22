/** The body scanner the proxy streams answers through: every copy masked, whatever the chunking, nothing else touched. */
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { createRedactor } from './redact';

const SECRET = 'cog_stream_scanner_credential_7e6d5c4b';
const r = createRedactor([SECRET, 'console-access-token-0123']);

/** Feeds `body` in chunks cut at `cuts` and answers what the scanner lets through, joined. */
function streamed(body: Buffer, cuts: number[]): { out: Buffer; masked: number } {
  const scanner = r.scanBody();
  const parts: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, body.length]) {
    parts.push(scanner.push(body.subarray(from, cut), cut === body.length && cuts.length % 2 === 0));
    from = cut;
  }
  parts.push(scanner.end());
  return { out: Buffer.concat(parts), masked: scanner.masked };
}

const copies: Array<[string, string]> = [
  ['plain', SECRET],
  ['\\u-escaped', [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ['partly \\u-escaped, upper-case hex', `${SECRET.slice(0, 3)}\\u005F${SECRET.slice(4)}`],
  ['\\x-escaped', `cog\\x5f${SECRET.slice(4)}`],
  ['percent-encoded', encodeURIComponent(SECRET).replace(/_/g, '%5f')],
  ['base64', Buffer.from(SECRET).toString('base64')],
  ['base64 inside a longer text', Buffer.from(`user:${SECRET}`).toString('base64')],
  ['base64url', Buffer.from(`xy${SECRET}`).toString('base64url')],
  [
    'literal \\x text in JSON (backslashes doubled)',
    [...SECRET].map((c) => `\\\\x${c.charCodeAt(0).toString(16)}`).join(''),
  ],
  ['literal \\u text in JSON', `\\\\u0063\\\\u006f${SECRET.slice(2)}`],
  ['HTML decimal references', SECRET.replace(/_/g, '&#95;')],
  ['HTML hex references, leading zeros', SECRET.replace(/_/g, '&#x005F;')],
  ['HTML named references', SECRET.replace(/_/g, '&lowbar;')],
  ['hex', Buffer.from(SECRET).toString('hex')],
  ['HEX', Buffer.from(SECRET).toString('hex').toUpperCase()],
];

describe('the body scanner', () => {
  it.each(copies)('masks a %s copy at every chunk boundary, keeping the length', (_name, copy) => {
    const body = Buffer.from(`{"a":"caf\\u00e9 \\n %20","echo":"${copy}","z":[1,2,3]}`);
    for (let cut = 0; cut <= body.length; cut++) {
      const { out, masked } = streamed(body, [cut]);
      expect(out.length).toBe(body.length);
      const text = out.toString();
      expect(text, `cut at ${cut}`).not.toContain(SECRET);
      expect(r.test(text), `cut at ${cut}`).toBe(false);
      expect(text).toContain('[redacted]');
      expect(masked).toBeGreaterThan(0);
      // Everything around the copy is untouched.
      expect(text.startsWith('{"a":"caf\\u00e9 \\n %20","echo":"')).toBe(true);
      expect(text.endsWith('","z":[1,2,3]}')).toBe(true);
      JSON.parse(text);
    }
  });

  it('masks copies split over many small chunks, and both secrets', () => {
    const body = Buffer.from(`${'x'.repeat(300)}${SECRET}--console-access-token-0123--${SECRET}${'y'.repeat(50)}`);
    for (const size of [1, 3, 7, 64]) {
      const cuts = Array.from({ length: Math.floor(body.length / size) }, (_, i) => (i + 1) * size).filter(
        (c) => c < body.length,
      );
      const { out, masked } = streamed(body, cuts);
      expect(out.length).toBe(body.length);
      expect(out.toString()).not.toMatch(/cog_stream|console-access-token/);
      expect(masked).toBe(3);
    }
  });

  it('lets a body without a copy through byte for byte, non-ASCII and escapes included', () => {
    const body = Buffer.from(`{"name":"Zoë ☃ 🐙","note":"line\\nbreak \\"quoted\\" \\u00e9 100% cog_other"}`);
    for (let cut = 0; cut <= body.length; cut++) {
      const { out, masked } = streamed(body, [cut]);
      expect(out.equals(body)).toBe(true);
      expect(masked).toBe(0);
    }
  });

  it.each(copies)('finds a %s copy at any offset in a whole body (the sampled search misses none)', (_name, copy) => {
    for (let offset = 0; offset < 90; offset++) {
      for (const after of [0, 1, 5, 40]) {
        const body = Buffer.from(`${'q'.repeat(offset)}${copy}${'z'.repeat(after)}`);
        const scanner = r.scanBody();
        const out = scanner.push(body, true).toString();
        expect(scanner.masked, `offset ${offset}, ${after} after`).toBeGreaterThan(0);
        expect(r.test(out)).toBe(false);
      }
    }
  });

  it('holds back fewer bytes than its window, and nothing once told a chunk is the last', () => {
    const scanner = r.scanBody();
    const chunk = Buffer.alloc(1000, 0x61);
    expect(scanner.push(chunk).length).toBe(1000 - (r.window - 1));
    expect(scanner.push(chunk, true).length).toBe(1000 + r.window - 1);
    expect(scanner.end().length).toBe(0);
  });
});

describe('decoded values', () => {
  it('redacts a string that hides a copy only decoding shows, and leaves other values as they were', () => {
    const hidden = {
      nested: encodeURIComponent(encodeURIComponent(SECRET)).replace(/_/g, '%255F'),
      gzipped: `10.0.0.0/8 ${gzipSync(SECRET).toString('base64')}`,
      entityThenEscape: SECRET.replace('_', '&#92;u005f'),
    };
    const clean = r.redactValue({ ...hidden, keep: ['10.0.0.0/8', 'caf\\u00e9'], n: 3 });
    expect(clean).toEqual({
      nested: '[redacted]',
      gzipped: '[redacted]',
      entityThenEscape: '[redacted]',
      keep: ['10.0.0.0/8', 'caf\\u00e9'],
      n: 3,
    });
  });

  it('redacts a JSON text value by value, and a literal \\u form JSON.stringify doubled', () => {
    const literal = [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const text = JSON.stringify({ detail: `bad key ${literal}`, ok: 'fine' });
    const out = r.redactJson(text);
    expect(JSON.parse(out)).toEqual({ detail: 'bad key [redacted]', ok: 'fine' });
    // As text alone (a body redacted after JSON.stringify), the doubled backslashes are consumed whole.
    const asText = r.redact(text);
    expect(asText).not.toContain('\\u');
    expect(JSON.parse(asText)).toEqual({ detail: 'bad key [redacted]', ok: 'fine' });
  });
});
