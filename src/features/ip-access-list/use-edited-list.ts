/**
 * What the IP access list editor's rows amount to, recomputed as the admin types: each row's check, the list
 * they make, what it adds and removes against the list the edit started from, the counts the summary names,
 * the console's addresses it would lock out, and which rows admit those addresses.
 */
import { useMemo } from 'react';
import { diffIpRanges, lockedOutAddresses, type ConsoleIpAccessList } from '@/api/console/ip-access-list';
import { ipListAllows } from '@/api/ip-ranges';
import { IP_ACCESS_LIST_LIMITS } from '@/api/operations/ip-access-list';
import type { IpChangeBase } from './api';
import type { EditorRow } from './editor-state';
import { checkRows, listOf, unreadableEntries } from './ranges';

export type EditedList = ReturnType<typeof useEditedList>;

export function useEditedList(rows: readonly EditorRow[], base: IpChangeBase, current: ConsoleIpAccessList) {
  const texts = useMemo(() => rows.map((r) => r.text), [rows]);
  // Entries the API holds that the console cannot read: kept as they are, not counted as errors or removals.
  const unreadable = useMemo(() => unreadableEntries(base.ip_ranges), [base.ip_ranges]);
  const checks = useMemo(() => checkRows(texts, unreadable), [texts, unreadable]);
  const list = useMemo(() => listOf(texts, checks), [texts, checks]);
  const diff = useMemo(() => diffIpRanges(base.ip_ranges, list), [base.ip_ranges, list]);
  const protectedBy = useMemo(() => {
    const m = new Map<number, string[]>();
    texts.forEach((t, i) => {
      if (checks[i]?.state !== 'ok') return;
      const admits = current.protected_addresses.filter((a) => ipListAllows([t.trim()], a));
      if (admits.length > 0) m.set(i, admits);
    });
    return m;
  }, [texts, checks, current.protected_addresses]);
  const rewritten = list.length === base.ip_ranges.length && list.some((e, i) => e !== base.ip_ranges[i]);
  return {
    checks,
    list,
    diff,
    protectedBy,
    invalid: checks.filter((c) => c.state === 'invalid').length,
    kept: checks.filter((c) => c.state === 'kept' && c.duplicateOf === undefined).length,
    repeated: checks.filter((c) => c.duplicateOf !== undefined).length,
    contained: checks.filter((c) => c.containedIn !== undefined).length,
    lockedOut: lockedOutAddresses(list, current.protected_addresses),
    changed: diff.added.length + diff.removed.length > 0 || rewritten || list.length !== base.ip_ranges.length,
    tooMany: list.length > IP_ACCESS_LIST_LIMITS.entries,
  };
}
