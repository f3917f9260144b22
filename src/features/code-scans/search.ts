/**
 * The findings screen's filters as they live in the URL (severity, status, repository, organization): lists are
 * comma-joined (`?severity=critical,high`); unknown values are dropped rather than sent (the API answers 422).
 */
import { z } from 'zod';
import { FINDING_SEVERITIES, FINDING_STATUSES, type FindingsQuery } from '@/api/operations/code-scans';

const csvOf = (allowed: readonly string[] | null) =>
  z
    .preprocess((v) => {
      if (v === undefined || v === null || v === '') return undefined;
      const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(','));
      const clean = [...new Set(parts.map((x) => x.trim()))].filter(
        (x) => x.length > 0 && x.length <= 200 && (!allowed || allowed.includes(x)),
      );
      return clean.length ? clean.join(',') : undefined;
    }, z.string().optional())
    .catch(undefined);

export const FindingsSearch = z.object({
  severity: csvOf(FINDING_SEVERITIES),
  status: csvOf(FINDING_STATUSES),
  repository: z
    .preprocess((v) => (typeof v === 'string' && v.trim() ? v.trim() : undefined), z.string().max(300).optional())
    .catch(undefined),
  /** Organization ids, comma-joined. */
  org: csvOf(null),
});
export type FindingsSearch = z.infer<typeof FindingsSearch>;

export function splitList(value: string | undefined): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

export function joinList(values: readonly string[]): string | undefined {
  return values.length ? [...new Set(values)].join(',') : undefined;
}

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

export function hasFilters(s: FindingsSearch): boolean {
  return Object.values(s).some((v) => v !== undefined);
}

export function clean(s: FindingsSearch): FindingsSearch {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as FindingsSearch;
}
