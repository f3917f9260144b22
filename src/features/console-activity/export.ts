/** Console activity as CSV (one row per write, ids as `name=value` pairs) and as JSON Lines (one entry a line). */
import type { ActivityEntry } from '@/api/console/activity';
import { toCsv } from '@/lib/csv';

export const ACTIVITY_CSV_HEADER = [
  'time_utc',
  'name',
  'email',
  'subject',
  'signed_in_with',
  'grant',
  'operation',
  'method',
  'path',
  'organization_id',
  'organization',
  'ids',
  'status',
  'outcome',
] as const;

const iso = (s: number) => new Date(s * 1000).toISOString();

export function activityCsv(rows: readonly ActivityEntry[], orgNames: ReadonlyMap<string, string>): string {
  return toCsv(
    ACTIVITY_CSV_HEADER,
    rows.map((r) => [
      iso(r.at),
      r.name ?? '',
      r.email ?? '',
      r.subject ?? '',
      r.method,
      r.grant ?? '',
      r.operation_id,
      r.http_method,
      r.path,
      r.org_id ?? '',
      r.org_id ? (orgNames.get(r.org_id) ?? '') : '',
      Object.entries(r.ids)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
      r.status,
      r.outcome,
    ]),
  );
}

export function activityJsonLines(rows: readonly ActivityEntry[], orgNames: ReadonlyMap<string, string>): string {
  return rows
    .map((r) =>
      JSON.stringify({
        ...r,
        time_utc: iso(r.at),
        organization: r.org_id ? (orgNames.get(r.org_id) ?? null) : null,
      }),
    )
    .join('\n')
    .concat(rows.length ? '\n' : '');
}
