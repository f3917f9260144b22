/**
 * Export of an audit-log query to CSV or JSON Lines: walks every page, reports progress, stops on abort, and
 * waits out 429s for as long as the API keeps asking (the client's own retries give up after a few).
 */
import type { AuditLogEntry } from '@/api/operations/audit-logs';
import type { Page } from '@/api/cursor';
import { walkPages } from '@/api/page-walk';
import { isApiError } from '@/lib/api-error';
import { csvRow as csvRecord } from '@/lib/csv';
import { formatUtc } from '@/lib/format';

export type ExportFormat = 'csv' | 'jsonl';

export const EXPORT_FORMATS: Record<ExportFormat, { label: string; extension: string; mime: string }> = {
  csv: { label: 'CSV', extension: 'csv', mime: 'text/csv;charset=utf-8' },
  jsonl: { label: 'JSON Lines', extension: 'jsonl', mime: 'application/x-ndjson;charset=utf-8' },
};

export const CSV_COLUMNS = [
  'created_at_utc',
  'created_at',
  'action',
  'org_id',
  'org_name',
  'service_user_id',
  'service_user_name',
  'user_id',
  'user_email',
  'audit_log_id',
  'data',
] as const;

/** The header line (CSV cells and the formula guard come from the shared writer in `@/lib/csv`). */
export function csvHeader(): string {
  return csvRecord(CSV_COLUMNS);
}

/**
 * One entry as a CSV line. An audit log holds text others wrote: the shared writer prefixes with an apostrophe
 * any cell a spreadsheet would run as a formula.
 */
export function csvRow(e: AuditLogEntry, orgName: (orgId: string) => string | undefined = () => undefined): string {
  const values: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    created_at_utc: formatUtc(e.created_at),
    created_at: e.created_at,
    action: e.action,
    org_id: e.org_id,
    // The organization's name beside its id, as the screen shows it (empty for enterprise-wide entries).
    org_name: e.org_id ? (orgName(e.org_id) ?? '') : '',
    service_user_id: e.service_user_id,
    service_user_name: e.service_user_name,
    user_id: e.user_id,
    user_email: e.user_email,
    audit_log_id: e.audit_log_id,
    data: JSON.stringify(e.data ?? {}),
  };
  return csvRecord(CSV_COLUMNS.map((c) => values[c]));
}

/** One JSON Lines record: the entry as the API sent it, on one line. */
export function jsonlRow(e: AuditLogEntry): string {
  return `${JSON.stringify(e)}\n`;
}

export interface ExportProgress {
  /** Entries written so far. */
  done: number;
  /** The query's total when the API reports one. */
  total: number | null;
  pages: number;
}

export interface ExportOptions {
  format: ExportFormat;
  fetchPage: (after: string | undefined, signal: AbortSignal) => Promise<Page<AuditLogEntry>>;
  signal: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
  /** Called before each wait for a 429; `seconds` from Retry-After. */
  onRateLimited?: (seconds: number, attempt: number) => void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The organization names the CSV writes beside their ids. */
  orgName?: (orgId: string) => string | undefined;
}

export interface ExportResult {
  parts: string[];
  count: number;
  pages: number;
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Walks every page of the query into the chosen format. Rejects with the abort reason when cancelled. */
export async function runExport(opts: ExportOptions): Promise<ExportResult> {
  const sleep = opts.sleep ?? abortableSleep;
  const row = opts.format === 'csv' ? (e: AuditLogEntry) => csvRow(e, opts.orgName) : jsonlRow;
  const parts: string[] = opts.format === 'csv' ? [csvHeader()] : [];
  let count = 0;
  let pages = 0;
  let total: number | null = null;
  let waits = 0;
  // A 429 is waited out (Retry-After when given; otherwise a backoff capped at a minute) for as long as the
  // API answers it; the same page is then asked again.
  const fetchPage = async (after: string | undefined): Promise<Page<AuditLogEntry>> => {
    for (;;) {
      try {
        const page = await opts.fetchPage(after, opts.signal);
        waits = 0;
        return page;
      } catch (err) {
        if (!(isApiError(err) && err.status === 429)) throw err;
        waits++;
        const seconds = err.retryAfter ?? Math.min(60, 2 ** Math.min(waits, 6));
        opts.onRateLimited?.(seconds, waits);
        await sleep(seconds * 1000, opts.signal);
      }
    }
  };
  for await (const page of walkPages(fetchPage, { signal: opts.signal, what: 'The audit log' })) {
    pages++;
    if (pages === 1) total = page.total ?? null;
    // One string per page keeps the part count small for a Blob of tens of thousands of rows.
    parts.push(page.items.map(row).join(''));
    count += page.items.length;
    opts.onProgress?.({ done: count, total, pages });
  }
  return { parts, count, pages };
}

/** `audit-logs_2026-03-13T080000Z.csv`: sortable, safe on every file system. */
export function exportFileName(format: ExportFormat, nowMs = Date.now()): string {
  const stamp = new Date(nowMs)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '');
  return `audit-logs_${stamp}.${EXPORT_FORMATS[format].extension}`;
}

/** Hands a finished export to the browser as a download. */
export function downloadExport(result: ExportResult, format: ExportFormat, fileName = exportFileName(format)): void {
  const blob = new Blob(result.parts, { type: EXPORT_FORMATS[format].mime });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser time to start reading the blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
