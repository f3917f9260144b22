/**
 * The IP access list editor's reading of its rows, as the admin types: each row checked with the contract's
 * own parser (IPv4, IPv6, CIDR prefix length), its canonical form (host bits cleared, IPv6 lower-case and
 * compressed), and the rows that repeat another range or lie inside another one flagged. Pasted text is split
 * into entries here too.
 */
import {
  formatIpAddress,
  ipRangeContains,
  normalizeIpRange,
  parseIpAddress,
  parseIpRange,
  type IpRange,
} from '@/api/ip-ranges';

/**
 * The form an entry is sent in: a CIDR range with its host bits cleared (`10.0.0.5/8` → `10.0.0.0/8`), an
 * address alone as an address (`2001:DB8::1` → `2001:db8::1`); null when it is not valid.
 */
export function canonicalEntry(text: string): string | null {
  const t = text.trim();
  if (!parseIpRange(t).ok) return null;
  if (!t.includes('/')) {
    const a = parseIpAddress(t);
    return a ? formatIpAddress(a) : null;
  }
  return normalizeIpRange(t);
}

/** Why the canonical form differs from what was typed, in words for the row's note. */
export function normalizationNote(typed: string, canonical: string): string {
  const t = typed.trim();
  const r = parseIpRange(t);
  if (r.ok && t.includes('/')) {
    const slash = t.indexOf('/');
    const address = parseIpAddress(t.slice(0, slash));
    const network = canonical.slice(0, canonical.indexOf('/'));
    if (address && formatIpAddress(address) !== network) {
      return `Normalized from ${t}: the bits past /${r.value.prefix} are cleared, so the range starts at ${network}`;
    }
  }
  return `Normalized from ${t} (the same range, written the standard way)`;
}

export interface RowCheck {
  /**
   * `empty` rows are ignored; `invalid` rows stop the review; `kept` rows are entries of the loaded list the
   * console cannot read, left as they were: sent back unchanged, neither an error nor a removal.
   */
  state: 'empty' | 'invalid' | 'kept' | 'ok';
  /** Why the row does not read as a range (`invalid` and `kept` rows). */
  error?: string;
  /** The canonical form of a valid row. */
  canonical?: string;
  /** Index of the earlier row with the same range (this one is sent once). */
  duplicateOf?: number;
  /** Index of a row whose range contains this one (this one adds nothing). */
  containedIn?: number;
}

function contains(outer: IpRange, outerText: string, inner: IpRange): boolean {
  if (outer.version !== inner.version || outer.prefix >= inner.prefix) return false;
  return ipRangeContains(outerText, formatIpAddress(inner));
}

/**
 * The entries of a list the console cannot read (trimmed): the API holds them, so the editor keeps them as they
 * are rather than count them as errors or drop them from what it sends.
 */
export function unreadableEntries(list: readonly string[]): ReadonlySet<string> {
  return new Set(list.map((e) => e.trim()).filter((e) => e !== '' && !parseIpRange(e).ok));
}

/** Checks every row; a row still holding one of `kept` (unreadable entries of the loaded list) is `kept`. */
export function checkRows(texts: readonly string[], kept: ReadonlySet<string> = new Set()): RowCheck[] {
  const parsed = texts.map((t) => (t.trim() === '' ? null : parseIpRange(t)));
  const firstByKey = new Map<string, number>();
  const out: RowCheck[] = texts.map((t, i) => {
    const p = parsed[i];
    if (p === null || p === undefined) return { state: 'empty' };
    if (!p.ok) {
      if (!kept.has(t.trim())) return { state: 'invalid', error: p.error };
      // Unreadable, so compared as written: the same entry twice is kept once.
      const key = `kept:${t.trim()}`;
      const first = firstByKey.get(key);
      if (first !== undefined) return { state: 'kept', error: p.error, duplicateOf: first };
      firstByKey.set(key, i);
      return { state: 'kept', error: p.error };
    }
    const canonical = canonicalEntry(t)!;
    const key = normalizeIpRange(t)!;
    const first = firstByKey.get(key);
    if (first !== undefined) return { state: 'ok', canonical, duplicateOf: first };
    firstByKey.set(key, i);
    return { state: 'ok', canonical };
  });
  // Containment: only against valid rows that are not repeats; the widest container is named.
  const candidates = out.flatMap((c, i) => {
    const p = parsed[i];
    return c.state === 'ok' && c.duplicateOf === undefined && p && p.ok ? [{ i, range: p.value, text: texts[i]! }] : [];
  });
  for (const inner of candidates) {
    let best: (typeof candidates)[number] | undefined;
    for (const outer of candidates) {
      if (outer.i === inner.i || !contains(outer.range, outer.text, inner.range)) continue;
      if (!best || outer.range.prefix < best.range.prefix) best = outer;
    }
    if (best) out[inner.i]!.containedIn = best.i;
  }
  return out;
}

/** Entries of pasted text: split on new lines, commas, semicolons and spaces; empty pieces dropped. */
export function splitRanges(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** What the editor sends: each valid or kept row once (repeats dropped), in order, as written. */
export function listOf(texts: readonly string[], checks: readonly RowCheck[]): string[] {
  return texts.flatMap((t, i) => {
    const c = checks[i];
    return c && (c.state === 'ok' || c.state === 'kept') && c.duplicateOf === undefined ? [t.trim()] : [];
  });
}

/** What adding ranges to a list (the API's append: a merge) does: the list after it, and what each entry did. */
export interface RangesMerge {
  /** The list after the merge: the current entries as they are, then each new range once, in canonical form. */
  merged: string[];
  /** The ranges that are new to the list (canonical), in the order typed. */
  added: string[];
  /** Entries typed that the list already holds (as the same range, however written): not added again. */
  alreadyListed: Array<{ typed: string; listed: string }>;
  /** Entries typed that are not addresses or ranges, with why. */
  invalid: Array<{ typed: string; error: string }>;
}

/**
 * Merges typed entries into a list as the API's append does: an entry equal, after normalization, to one
 * already listed (or typed twice) is not added again. A range that lies inside a listed one is still added
 * (the API compares entries, not what they admit); the editor's rows point those out.
 */
export function mergeRanges(current: readonly string[], typed: readonly string[]): RangesMerge {
  const listed = new Map<string, string>();
  for (const entry of current) {
    const key = normalizeIpRange(entry.trim());
    if (key !== null && !listed.has(key)) listed.set(key, entry);
  }
  const added: string[] = [];
  const alreadyListed: RangesMerge['alreadyListed'] = [];
  const invalid: RangesMerge['invalid'] = [];
  const addedKeys = new Set<string>();
  for (const raw of typed) {
    const t = raw.trim();
    if (t === '') continue;
    const parsed = parseIpRange(t);
    if (!parsed.ok) {
      invalid.push({ typed: t, error: parsed.error });
      continue;
    }
    const key = normalizeIpRange(t)!;
    const existing = listed.get(key);
    if (existing !== undefined) alreadyListed.push({ typed: t, listed: existing });
    else if (!addedKeys.has(key)) {
      addedKeys.add(key);
      added.push(canonicalEntry(t)!);
    }
  }
  return { merged: [...current, ...added], added, alreadyListed, invalid };
}
