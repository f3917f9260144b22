/**
 * The findings screen's filters as they live in the URL (severity, status, repository, organization): lists are
 * comma-joined (`?severity=critical,high`); unknown values are dropped rather than sent (the API answers 422).
 */
import type { FindingsQuery } from '@/api/operations/code-scans';
import { CODE_SCAN_LIMITS, FINDING_SEVERITIES, FINDING_STATUSES } from '@/api/values';
import { commaList, defineSearch, splitList, text, type SearchOut } from '@/lib/search-params';

export { joinList, splitList } from '@/lib/search-params';

const list = (allowed?: readonly string[]) =>
  commaList({ ...(allowed ? { allowed } : {}), max: CODE_SCAN_LIMITS.id, count: CODE_SCAN_LIMITS.filterValues });

const fields = {
  severity: list(FINDING_SEVERITIES),
  status: list(FINDING_STATUSES),
  repository: text({ trim: true, max: CODE_SCAN_LIMITS.repository }),
  /** Organization ids, comma-joined. */
  org: list(),
};
export type FindingsSearch = SearchOut<typeof fields>;

export type FindingFilters = Omit<FindingsQuery, 'first' | 'after'>;

export function toFilters(s: FindingsSearch): FindingFilters {
  const f: FindingFilters = {};
  const severity = splitList(s.severity);
  const status = splitList(s.status);
  const orgs = splitList(s.org);
  if (severity.length) f.severity = severity as FindingFilters['severity'];
  if (status.length) f.status = status as FindingFilters['status'];
  if (s.repository) f.repository = s.repository;
  if (orgs.length) f.org_ids = orgs;
  return f;
}

export const FindingsSearch = defineSearch({ operation: 'codeScans.findings.list', fields, filters: toFilters });

export function hasFilters(s: FindingsSearch): boolean {
  return Object.values(s).some((v) => v !== undefined);
}

export function clean(s: FindingsSearch): FindingsSearch {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as FindingsSearch;
}
