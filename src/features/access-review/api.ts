/**
 * Stale access: query keys, the read (every member and service user, their roles and, per person, the daily
 * consumption of the window, read in one go by src/lib/principal-consumption.ts) and the bulk actions (change the enterprise role, remove), applied one by one with
 * each row's outcome kept, so a partial failure is reported per row and nothing else is touched.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TimeRange } from '@/api/billing-day';
import type { RoleAssignment } from '@/api/operations/members';
import { readAllPages } from '@/api/page-walk';
import { apiCall } from '@/lib/api-client';
import { memberNaming, serviceUserNaming } from '@/lib/principal-names';
import { errorMessage, isApiError } from '@/lib/api-error';
import { readPrincipalConsumption } from '@/lib/principal-consumption';
import { reviewRow, windowOf, type Candidate, type ReviewRow } from './review';

export const accessReviewKeys = {
  all: ['access-review'] as const,
  rows: (days: number, expiring: number, window: TimeRange, now: number) =>
    [...accessReviewKeys.all, 'rows', days, expiring, window.time_after, window.time_before, now] as const,
  roles: () => [...accessReviewKeys.all, 'enterprise-roles'] as const,
};

const MAX_PAGES = 50;

function rolesOf(assignments: readonly RoleAssignment[], orgName: (id: string) => string): string[] {
  return assignments.map((a) => (a.org_id ? `${a.role.role_name} in ${orgName(a.org_id)}` : a.role.role_name));
}

async function readCandidates(signal: AbortSignal): Promise<Candidate[]> {
  const [users, serviceUsers, orgs] = await Promise.all([
    readAllPages((after, s) => apiCall('members.users.list', { query: { first: 200, after }, signal: s ?? signal }), {
      maxPages: MAX_PAGES,
      signal,
      what: 'The members list',
    }),
    readAllPages((after, s) => apiCall('serviceUsers.list', { query: { first: 200, after }, signal: s ?? signal }), {
      maxPages: MAX_PAGES,
      signal,
      what: 'The service users list',
    }),
    readAllPages((after, s) => apiCall('organizations.list', { query: { first: 200, after }, signal: s ?? signal }), {
      maxPages: MAX_PAGES,
      signal,
      what: 'The organizations list',
    }).catch(() => []),
  ]);
  const names = new Map(orgs.map((o) => [o.org_id, o.name]));
  const orgName = (id: string) => (names.get(id) ? `${names.get(id)} (${id})` : id);
  return [
    ...users.map((u) => ({
      ...memberNaming(u),
      roles: rolesOf(u.role_assignments, orgName),
      // A member record carries no credential expiry: not published.
      expires_at:
        'expires_at' in u && (typeof u.expires_at === 'number' || u.expires_at === null) ? u.expires_at : undefined,
    })),
    ...serviceUsers
      .filter((s) => s.deleted_at == null)
      .map((s) => ({
        ...serviceUserNaming(s),
        roles: rolesOf(s.role_assignments, orgName),
        expires_at: 'expires_at' in s ? s.expires_at : undefined,
      })),
  ];
}

export const accessReviewQueryOptions = (days: number, expiringDays: number, now: number) => {
  const window = windowOf(days, now);
  return queryOptions({
    queryKey: accessReviewKeys.rows(days, expiringDays, window, now),
    queryFn: async ({ signal }): Promise<ReviewRow[]> => {
      const people = await readCandidates(signal);
      const reads = await readPrincipalConsumption(people, window, signal);
      return people.map((c, i) => reviewRow(c, reads[i]!, now, expiringDays));
    },
    staleTime: 60_000,
  });
};

export const enterpriseRolesQueryOptions = () =>
  queryOptions({
    queryKey: accessReviewKeys.roles(),
    queryFn: ({ signal }) =>
      readAllPages(
        (after, s) =>
          apiCall('roles.list', { query: { first: 200, after, role_type: 'enterprise' }, signal: s ?? signal }),
        { maxPages: 10, signal, what: 'The roles list' },
      ),
    staleTime: 5 * 60_000,
  });

export type BulkAction = { kind: 'role'; roleId: string; roleName: string } | { kind: 'remove' };

export interface BulkOutcome {
  key: string;
  name: string;
  ok: boolean;
  message: string;
}

async function applyOne(row: ReviewRow, action: BulkAction): Promise<void> {
  if (action.kind === 'remove') {
    if (row.kind === 'member') await apiCall('members.users.delete', { params: { user_id: row.id } });
    else await apiCall('serviceUsers.delete', { params: { service_user_id: row.id } });
    return;
  }
  const body = { role_id: action.roleId };
  if (row.kind === 'member') {
    await apiCall('members.users.update', { params: { user_id: row.id }, body });
    return;
  }
  try {
    await apiCall('serviceUsers.roles.update', { params: { service_user_id: row.id }, body });
  } catch (err) {
    // A service user with no enterprise role yet is given one instead of having it changed.
    if (!isApiError(err) || err.status !== 404) throw err;
    await apiCall('serviceUsers.roles.assign', { params: { service_user_id: row.id }, body });
  }
}

/** Applies one action to exactly the rows given, one after another, keeping each row's outcome. */
export function useBulkAccessChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ rows, action }: { rows: readonly ReviewRow[]; action: BulkAction }) => {
      const out: BulkOutcome[] = [];
      for (const row of rows) {
        try {
          await applyOne(row, action);
          out.push({
            key: row.key,
            name: row.name,
            ok: true,
            message: action.kind === 'remove' ? 'Removed' : `Role set to ${action.roleName}`,
          });
        } catch (err) {
          out.push({ key: row.key, name: row.name, ok: false, message: errorMessage(err) });
        }
      }
      return out;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: accessReviewKeys.all }),
  });
}
