/**
 * Pieces the members screens share: organization names, reading every page of a list when a filter needs the
 * whole set, role assignments as badges, and the visible reason an action is unavailable.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { IdpRoleAssignment, RoleAssignment } from '@/api/operations/members';
import type { Permission } from '@/api/permissions';
import { Badge } from '@/components/badge';
import type { InfiniteRowsQuery } from '@/components/data-table';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { formatNumber } from '@/lib/format';
import { missingPermissionTitle } from '@/lib/principal';
import type { PastedEntry } from './paste-list';

export interface OrgDirectory {
  organizations: ReadonlyArray<{ org_id: string; name: string }>;
  /** The organization's name, or its id while the names load (or for one that is gone). */
  name: (orgId: string) => string;
}

export function useOrganizations(): OrgDirectory {
  const query = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const organizations = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return useMemo(() => {
    const byId = new Map(organizations.map((o) => [o.org_id, o.name]));
    return { organizations, name: (orgId: string) => byId.get(orgId) ?? orgId };
  }, [organizations]);
}

/** While `active`, reads the next page of a list until there is none (a filter over the whole set). */
export function useLoadAll(query: InfiniteRowsQuery<unknown>, active: boolean): void {
  const { hasNextPage, isFetchingNextPage, fetchNextPage, error } = query;
  useEffect(() => {
    if (active && hasNextPage && !isFetchingNextPage && !error) void fetchNextPage();
  }, [active, hasNextPage, isFetchingNextPage, fetchNextPage, error]);
}

/**
 * Every row of a cursor list, reading the pages not loaded yet: for an export of the whole (filtered) list.
 * The result of each `fetchNextPage` says whether there is more.
 */
export async function loadEveryPage<T>(query: {
  data: { pages: ReadonlyArray<{ items: readonly T[] }> } | undefined;
  hasNextPage: boolean;
  fetchNextPage: () => Promise<{
    data?: { pages: ReadonlyArray<{ items: readonly T[] }> } | undefined;
    hasNextPage: boolean;
    error: unknown;
  }>;
}): Promise<T[]> {
  let data = query.data;
  let more = query.hasNextPage;
  for (let i = 0; more && i < 100; i++) {
    const next = await query.fetchNextPage();
    if (next.error) throw next.error;
    data = next.data;
    more = next.hasNextPage;
  }
  return data?.pages.flatMap((p) => p.items) ?? [];
}

const groupOf = (a: RoleAssignment | IdpRoleAssignment) =>
  'idp_group_name' in a && typeof a.idp_group_name === 'string' ? a.idp_group_name : null;

/** "Org Member · Payments Core"; an enterprise role alone ("Enterprise Member"): it holds enterprise-wide. */
export function assignmentText(a: RoleAssignment | IdpRoleAssignment, orgName: (orgId: string) => string): string {
  return a.org_id ? `${a.role.role_name} · ${orgName(a.org_id)}` : a.role.role_name;
}

function Rest({
  assignments,
  orgName,
}: {
  assignments: ReadonlyArray<RoleAssignment | IdpRoleAssignment>;
  orgName: (orgId: string) => string;
}) {
  if (assignments.length === 0) return null;
  return (
    <span className="text-xs text-muted" title={assignments.map((a) => assignmentText(a, orgName)).join('\n')}>
      +{assignments.length} more
    </span>
  );
}

/**
 * Direct role assignments as badges: an enterprise role (accent) holds enterprise-wide, an organization role
 * says its organization.
 */
export function AssignmentBadges({
  assignments,
  orgName,
  max = 4,
}: {
  assignments: ReadonlyArray<RoleAssignment | IdpRoleAssignment>;
  orgName: (orgId: string) => string;
  max?: number;
}) {
  if (assignments.length === 0) return <span className="text-muted">—</span>;
  const shown = assignments.slice(0, max);
  return (
    <span className="flex min-w-0 flex-wrap gap-1">
      {shown.map((a, i) => {
        const text = assignmentText(a, orgName);
        return (
          <Badge
            key={`${a.role.role_id}:${a.org_id ?? ''}:${i}`}
            tone={a.org_id ? 'neutral' : 'accent'}
            title={a.org_id ? text : `${text}, enterprise-wide`}
            className="max-w-full truncate"
          >
            {text}
          </Badge>
        );
      })}
      <Rest assignments={assignments.slice(max)} orgName={orgName} />
    </span>
  );
}

/** Role assignments that come through IdP groups, one line each: the role, where, and the group. */
export function IdpAssignmentLines({
  assignments,
  orgName,
  max = 3,
}: {
  assignments: ReadonlyArray<RoleAssignment | IdpRoleAssignment>;
  orgName: (orgId: string) => string;
  max?: number;
}) {
  if (assignments.length === 0) return <span className="text-muted">—</span>;
  return (
    <span className="flex min-w-0 flex-col text-xs">
      {assignments.slice(0, max).map((a, i) => {
        const text = assignmentText(a, orgName);
        const group = groupOf(a);
        return (
          <span
            key={`${a.role.role_id}:${a.org_id ?? ''}:${group ?? ''}:${i}`}
            className="block truncate"
            title={`${text}${a.org_id ? '' : ', enterprise-wide'}${group ? `, through ${group}` : ''}`}
          >
            <span className="font-medium">{text}</span>
            {group && <span className="text-muted"> via {group}</span>}
          </span>
        );
      })}
      <Rest assignments={assignments.slice(max)} orgName={orgName} />
    </span>
  );
}

/**
 * A value the API's answer does not carry (the vendor's shapes lack several sandbox fields): said in words, so
 * an absent field never reads as "none", 0 or a date. `what` names it for the explanation.
 */
export function NotPublished({ what, text = 'Not published' }: { what: string; text?: string }) {
  return (
    <span className="text-xs text-muted italic" title={`This API does not publish ${what}`}>
      {text}
    </span>
  );
}

/** The reason beside a disabled action, in visible text (not only a tooltip). */
export function MissingPermission({ permission, has }: { permission: Permission; has: boolean | undefined }) {
  const reason = missingPermissionTitle(permission, has);
  if (!reason) return null;
  return <span className="text-xs text-muted">{reason}</span>;
}

/** Entries of a pasted list that need the admin's eye, with their line and the reason. */
export function Flagged({
  title,
  entries,
  reason,
  tone,
}: {
  title: string;
  entries: readonly PastedEntry[];
  reason: (e: PastedEntry) => string | undefined;
  tone: 'danger' | 'muted';
}) {
  if (entries.length === 0) return null;
  const shown = entries.slice(0, 20);
  return (
    <div
      className={
        tone === 'danger' ? 'rounded-md border border-danger/40 bg-danger/5 p-2' : 'rounded-md border border-line p-2'
      }
    >
      <p className={tone === 'danger' ? 'font-semibold text-danger' : 'font-semibold'}>
        {title} ({formatNumber(entries.length)})
      </p>
      <ul className="mt-1 flex flex-col gap-0.5">
        {shown.map((e, i) => (
          <li key={`${e.line}:${i}`} className="break-all">
            <span className="text-muted">Line {e.line}:</span> <span className="font-mono">{e.text}</span>
            {reason(e) && <span className="text-muted"> — {reason(e)}</span>}
          </li>
        ))}
      </ul>
      {entries.length > shown.length && (
        <p className="mt-1 text-muted">and {formatNumber(entries.length - shown.length)} more</p>
      )}
    </div>
  );
}
