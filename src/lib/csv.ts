/**
 * The one CSV writer and reader of the console (RFC 4180), with the spreadsheet-formula guard every export
 * needs: a cell a spreadsheet would run as a formula gets a leading apostrophe, so it shows as text.
 *
 * Guarded: a cell whose first non-space character is `=`, `+`, `-`, `@` or their full-width forms (`＝ ＋ － ＠`),
 * and a cell that starts with a tab, CR or LF. A cell that already starts with apostrophes in front of such a
 * start gets one more, so that `unguardCsvCell` undoes the guard exactly: an export re-imports to the same values.
 */

/** The starts a spreadsheet may read as a formula (or that hide one behind a control character). */
const FORMULA_START = String.raw`(?:\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r\n])`;
/** What the writer guards: a formula start, behind any apostrophes (so the guard can always be undone). */
const NEEDS_GUARD = new RegExp(`^'*${FORMULA_START}`);
/** What the reader unguards: one apostrophe the writer added. */
const GUARDED = new RegExp(`^''*${FORMULA_START}`);
/** RFC 4180 quoting, and leading/trailing spaces that some readers would otherwise trim. */
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** The guard alone: the text with a leading apostrophe when a spreadsheet would run it as a formula. */
export function guardCsvText(s: string): string {
  return NEEDS_GUARD.test(s) ? `'${s}` : s;
}

/** Undoes `guardCsvText`: removes the apostrophe in front of a guarded start. */
export function unguardCsvCell(s: string): string {
  return GUARDED.test(s) ? s.slice(1) : s;
}

/**
 * One CSV cell. `null`/`undefined` are empty; numbers, bigints and booleans are written as they are (they
 * cannot be formulas); objects are written as JSON; text is guarded, then quoted when it must be.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  const s = guardCsvText(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record, ending with CRLF. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** A whole CSV file: the header row, then one record per row, every line ending with CRLF. */
export function toCsv(header: readonly string[], rows: Iterable<readonly unknown[]>): string {
  let out = csvRow(header);
  for (const r of rows) out += csvRow(r);
  return out;
}

export interface ParseCsvOptions {
  /** Remove the formula guard the writer added (`'=1` → `=1`). */
  unguard?: boolean;
}

/**
 * Splits CSV text into records (RFC 4180: quoted cells, doubled quotes, newlines inside quotes; CRLF, LF or CR
 * line ends). Records whose cells are all blank are skipped.
 */
export function parseCsvRecords(text: string, options: ParseCsvOptions = {}): string[][] {
  const records: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      records.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    records.push(row);
  }
  const kept = records.filter((r) => r.some((c) => c.trim() !== ''));
  return options.unguard ? kept.map((r) => r.map(unguardCsvCell)) : kept;
}
