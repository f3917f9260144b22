/** Export: CSV and JSON Lines rows, walking every page, waiting out repeated 429s, and cancelling. */
import { describe, expect, it, vi } from 'vitest';
import type { AuditLogEntry } from '@/api/operations/audit-logs';
import type { Page } from '@/api/page';
import { problem } from '@/api/problem';
import { ApiError } from '@/lib/api-error';
import { csvCell } from '@/lib/csv';
import { csvRow, CSV_COLUMNS, runExport } from './export';

const entry = (i: number): AuditLogEntry => ({
  audit_log_id: `audit-${i}`,
  created_at: 1_700_000_000 + i,
  action: 'create_secret',
  org_id: 'org-1',
  service_user_name: '',
  user_id: 'user-1',
  user_email: 'a@example.com',
  data: { key: 'K', note: 'has "quotes", commas\nand a newline' },
});

function pages(n: number, size: number): Array<Page<AuditLogEntry>> {
  return Array.from({ length: n }, (_, p) => ({
    items: Array.from({ length: size }, (_, i) => entry(p * size + i)),
    end_cursor: p < n - 1 ? `c${p + 1}` : null,
    has_next_page: p < n - 1,
    total: n * size,
  }));
}

describe('CSV', () => {
  it('quotes per RFC 4180 and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
  });

  it('writes one line per entry with every column, data as JSON', () => {
    const line = csvRow(entry(1), (id) => (id === 'org-1' ? 'Acme Research' : undefined));
    expect(line.endsWith('\r\n')).toBe(true);
    // The only raw newline-free encoding: JSON escapes the newline inside data.
    expect(line.slice(0, -2)).not.toMatch(/[\r\n]/);
    expect(
      line.startsWith(
        '2023-11-14T22:13:21Z,1700000001,create_secret,org-1,Acme Research,,,user-1,a@example.com,audit-1,',
      ),
    ).toBe(true);
    expect(CSV_COLUMNS).toHaveLength(11);
  });

  it('guards every text column with the shared writer, including a leading space and full-width forms', () => {
    const line = csvRow({ ...entry(2), service_user_name: ' =1+1', user_email: '\uFF1DHYPERLINK("x")', action: '-2' });
    expect(line).toContain(`,'-2,`);
    expect(line).toContain(`,' =1+1,`);
    expect(line).toContain(`,"'\uFF1DHYPERLINK(""x"")",`);
  });
});

describe('runExport', () => {
  it('walks every page and counts the rows', async () => {
    const all = pages(3, 4);
    const progress: number[] = [];
    const res = await runExport({
      format: 'jsonl',
      signal: new AbortController().signal,
      fetchPage: async (after) => all[after ? Number(after.slice(1)) : 0]!,
      onProgress: (p) => progress.push(p.done),
    });
    expect(res.count).toBe(12);
    expect(progress).toEqual([4, 8, 12]);
    const lines = res.parts.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(12);
    expect(JSON.parse(lines[5]!)).toMatchObject({ audit_log_id: 'audit-5' });
  });

  it('keeps going through repeated 429s, waiting Retry-After each time', async () => {
    const all = pages(2, 2);
    let calls = 0;
    const waits: number[] = [];
    const res = await runExport({
      format: 'csv',
      signal: new AbortController().signal,
      fetchPage: async (after) => {
        calls++;
        // Refused six times in a row before the second page: more than the client's own retries.
        if (after && calls < 8) throw new ApiError(429, problem(429, 'slow down'), 3);
        return all[after ? 1 : 0]!;
      },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(res.count).toBe(4);
    expect(waits).toEqual([3000, 3000, 3000, 3000, 3000, 3000]);
    expect(res.parts.join('').trimEnd().split('\r\n')).toHaveLength(5); // header + 4 rows
  });

  it('stops when cancelled, during a wait or between pages, and other errors end it', async () => {
    const ac = new AbortController();
    const p = runExport({
      format: 'csv',
      signal: ac.signal,
      fetchPage: async () => {
        throw new ApiError(429, problem(429, 'slow down'), 30);
      },
    });
    setTimeout(() => ac.abort(new DOMException('cancelled', 'AbortError')), 10);
    await expect(p).rejects.toThrow('cancelled');

    const fail = vi.fn(async () => {
      throw new ApiError(403, problem(403, 'no'));
    });
    await expect(
      runExport({ format: 'csv', signal: new AbortController().signal, fetchPage: fail }),
    ).rejects.toMatchObject({ status: 403 });
    expect(fail).toHaveBeenCalledTimes(1);
  });
});
